// The lists that decide which test files CI runs on both databases (test/database-sets.ts) are
// complete and current: a file that opens a database is run on PGlite in CI, or says why not.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decidingEntry, ON_BOTH_DATABASES, ON_ONE_DATABASE } from './database-sets.js';

const root = path.resolve(import.meta.dirname, '..');

/** Every TypeScript file under `dir`, as a path from the project root. */
function filesUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === '__generated__' ? [] : filesUnder(relative);
    return entry.name.endsWith('.ts') ? [relative] : [];
  });
}

const testFiles = [...filesUnder('src'), ...filesUnder('test')].filter((file) => /\.(test|spec)\.ts$/.test(file));

/** Opening a database: a test gateway, a test database (or a file's own, `databaseForFile`), or the database layer's own entry point. */
const OPENS = /\b(startTestGateway|createTestDatabase|openDatabase|databaseForFile)\(/;
/** The helpers that define those calls: importing them alone opens nothing. */
const DEFINERS = new Set(['test/support/database.ts', 'test/support/gateway.ts']);

/** Whether `file` opens a database itself or through a test helper it imports. */
function opensDatabase(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const source = readFileSync(path.join(root, file), 'utf8');
  if (!DEFINERS.has(file) && OPENS.test(source)) return true;
  const imports = [...source.matchAll(/from '(\.[^']+)\.js'/g)].map((match) => path.posix.normalize(path.posix.join(path.posix.dirname(file), `${match[1]}.ts`)));
  return imports.some((imported) => imported.startsWith('test/') && !DEFINERS.has(imported) && opensDatabase(imported, seen));
}

const entries = [...Object.keys(ON_BOTH_DATABASES), ...Object.keys(ON_ONE_DATABASE)];
const withDatabase = testFiles.filter((file) => opensDatabase(file));

describe('the database sets', () => {
  it('finds the files that open a database', () => {
    expect(withDatabase).toContain('test/deposits/flow.test.ts');
    expect(withDatabase).toContain('src/kernel/visibility.spec.ts');
    expect(withDatabase).not.toContain('src/lib/money.spec.ts');
    expect(withDatabase).not.toContain('test/provider-cases/deposit-gateway.test.ts');
  });

  it('decide every file that opens a database, each entry with its reason', () => {
    const undecided = withDatabase.filter((file) => decidingEntry(file, entries) === undefined);
    expect(undecided, 'add each to ON_BOTH_DATABASES, or to ON_ONE_DATABASE with why it cannot differ').toEqual([]);
    for (const [entry, reason] of Object.entries({ ...ON_BOTH_DATABASES, ...ON_ONE_DATABASE })) expect(reason.length, entry).toBeGreaterThan(20);
  });

  it('name no file twice and no file that is gone', () => {
    expect(Object.keys(ON_BOTH_DATABASES).filter((entry) => entry in ON_ONE_DATABASE)).toEqual([]);
    const stale = entries.filter((entry) => !withDatabase.some((file) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry)));
    expect(stale, 'entries that match no file opening a database').toEqual([]);
  });

  it('run on both databases only files that open one, and decide a whole folder the same way', () => {
    for (const entry of Object.keys(ON_BOTH_DATABASES)) {
      const matched = testFiles.filter((file) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry));
      expect(matched.filter((file) => !withDatabase.includes(file)), entry).toEqual([]);
      // CI selects a folder on both databases by its glob: nothing inside may be decided otherwise.
      if (entry.endsWith('/')) expect(matched.filter((file) => decidingEntry(file, entries) !== entry), entry).toEqual([]);
    }
  });

  it('run on both databases every file whose test names carry the database they ran on', () => {
    const naming = /'PostgreSQL' : 'PGlite'|'PGlite' : 'PostgreSQL'/;
    const named = testFiles.filter((file) => file !== 'test/database-sets.test.ts' && naming.test(readFileSync(path.join(root, file), 'utf8')));
    expect(named).toContain('test/performance/write-path.test.ts');
    expect(named.filter((file) => !(decidingEntry(file, entries)! in ON_BOTH_DATABASES))).toEqual([]);
  });
});
