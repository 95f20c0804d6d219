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

describe('sandbox independence', () => {
  it.each(['src/sandbox/deposit-gateway', 'src/sandbox/qr-gateway'])('%s imports nothing of an adapter but its assumptions', (dir) => {
    const all = imports(dir);
    expect(all.length).toBeGreaterThan(5);
    const fromAdapters = all.filter(({ from }) => from.includes('/providers/'));
    expect(fromAdapters.length).toBeGreaterThan(0);
    expect(fromAdapters.filter(({ from }) => !/\/providers\/(deposit|qr)-gateway\/assumptions\.js$/.test(from))).toEqual([]);
  });
});
