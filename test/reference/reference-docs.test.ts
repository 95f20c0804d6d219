// The reference pages cannot go stale: what is committed under docs/reference/ is what the code
// generates (npm run docs:reference), and the userError registry lists exactly the codes the
// code produces.

import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { referencePages } from '../../src/docs/reference.js';
import { USER_ERROR_CODES } from '../../src/lib/user-error-codes.js';

const root = path.resolve(import.meta.dirname, '../..');

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(root, dir), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * Codes written where a user error's code goes: a `code:` property outside GraphQL error
 * extensions, the code argument of the helpers that build field errors (a field path, then the
 * code, possibly chosen by a ternary), or the first argument of those that build money and
 * provider errors.
 */
function emittedCodes(source: string): string[] {
  const codes: string[] = [];
  for (const line of source.split('\n')) {
    if (line.includes('extensions')) continue;
    for (const match of line.matchAll(/\bcode: (?:[^,'}]*\? )?'([A-Z][A-Z0-9_]+)'(?: : '([A-Z][A-Z0-9_]+)')?/g)) codes.push(...match.slice(1).filter(Boolean));
    for (const match of line.matchAll(/\b(?:add|refused|refusal|providerError)\((?:\[[^\]]*\]|\w+), (?:[^,']*\? )?'([A-Z][A-Z0-9_]+)'(?: : '([A-Z][A-Z0-9_]+)')?/g)) codes.push(...match.slice(1).filter(Boolean));
    for (const match of line.matchAll(/\b(?:fail|providerError)\('([A-Z][A-Z0-9_]+)'/g)) codes.push(match[1]!);
  }
  return codes;
}

describe('reference docs', () => {
  it('are what npm run docs:reference generates from the code', async () => {
    const pages = referencePages(await readFile(path.join(root, 'schema/schema.graphql'), 'utf8'));
    for (const [file, content] of pages) {
      expect(await readFile(path.join(root, file), 'utf8').catch(() => '(missing)'), `${file} is stale: run npm run docs:reference`).toBe(content);
    }
    const committed = (await readdir(path.join(root, 'docs/reference'))).map((name) => `docs/reference/${name}`);
    expect(committed.sort()).toEqual([...pages.keys()].sort());
  });
});

describe('userError code registry', () => {
  const modules = ['src/modules', 'src/providers', 'src/kernel', 'src/graphql', 'src/lib'];

  it('declares every code the code writes into a user error', async () => {
    const unregistered: string[] = [];
    for (const dir of modules) {
      for (const file of await sourceFiles(dir)) {
        if (file.endsWith('user-error-codes.ts') || file.endsWith('graphql/errors.ts')) continue;
        // The outbound client's failure codes (TIMEOUT, ...) are a delivery attempt's record, never a userError.
        if (file.includes(`${path.sep}lib${path.sep}outbound${path.sep}`)) continue;
        // A sealed secret's open failures (KEY_NOT_CONFIGURED, ...) are its state, logged and recorded on an attempt, never a userError.
        if (file.endsWith(`${path.sep}lib${path.sep}sealed-secrets.ts`)) continue;
        for (const code of emittedCodes(await readFile(file, 'utf8'))) {
          if (!Object.hasOwn(USER_ERROR_CODES, code)) unregistered.push(`${path.relative(root, file)}: ${code}`);
        }
      }
    }
    expect(unregistered).toEqual([]);
  });

  it('finds codes where they are written (the scan above is not empty)', async () => {
    // The deposit gateway's rail rules and the field rules they share.
    const source = (await Promise.all(['validation.ts', 'field-checks.ts'].map((file) => readFile(path.join(root, 'src/providers/deposit-gateway', file), 'utf8')))).join('\n');
    expect(emittedCodes(source)).toEqual(expect.arrayContaining(['FIELD_REQUIRED', 'INVALID_VALUE', 'HOSTED_CHECKOUT_REQUIRES_LIVE_ACCOUNT', 'URL_NOT_HTTPS']));
    expect(emittedCodes("return fail('AMOUNT_INVALID', 'x');\nout.add(['a'], value ? 'INVALID_VALUE' : 'FIELD_REQUIRED', 'x');\nreturn { code: 'NOT_REGISTERED', message };")).toEqual(['AMOUNT_INVALID', 'INVALID_VALUE', 'FIELD_REQUIRED', 'NOT_REGISTERED']);
  });

  it('declares no code that nothing produces', async () => {
    let sources = '';
    for (const dir of modules) {
      for (const file of await sourceFiles(dir)) if (!file.endsWith('user-error-codes.ts')) sources += await readFile(file, 'utf8');
    }
    const unused = Object.keys(USER_ERROR_CODES).filter((code) => !new RegExp(`'${code}\\b`).test(sources) && !new RegExp(`\`${code}:`).test(sources));
    expect(unused).toEqual([]);
  });
});
