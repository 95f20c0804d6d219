// The sandboxes are the providers the adapters are tested against, so they are written from the
// specs on their own: from an adapter they may import its named assumptions (assumptions.ts) and
// nothing else, or a mistake in the adapter would be made identically on both sides and never seen.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function imports(dir: string): Array<{ file: string; from: string }> {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .flatMap((name) => {
      const source = readFileSync(join(ROOT, dir, name), 'utf8');
      return [...source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => ({ file: `${dir}/${name}`, from: match[1]! }));
    });
}

/**
 * What a sandbox may take from src/providers: an adapter's named assumptions, the registry's types
 * (how a sandbox is started) and the provider port's types (what a test of the host fakes).
 */
const ALLOWED = /\/providers\/((deposit|qr)-gateway\/assumptions|registry|provider)\.js$/;

describe('sandbox independence', () => {
  it('every file under src/sandbox, shared helpers included, imports nothing of an adapter but its assumptions', () => {
    const all = imports('src/sandbox');
    expect(all.map(({ file }) => file)).toEqual(expect.arrayContaining(['src/sandbox/state-file.ts', 'src/sandbox/host.ts', 'src/sandbox/qr-gateway/wire.ts', 'src/sandbox/deposit-gateway/api.ts']));
    const fromProviders = all.filter(({ from }) => from.includes('/providers/'));
    expect(fromProviders.length).toBeGreaterThan(0);
    expect(fromProviders.filter(({ from }) => !ALLOWED.test(from))).toEqual([]);
  });

  it('src/sandbox/host.ts takes only types from the registry', () => {
    const source = readFileSync(join(ROOT, 'src/sandbox/host.ts'), 'utf8');
    expect(source).toMatch(/import type \{[^}]*\} from '\.\.\/providers\/registry\.js'/);
  });
});
