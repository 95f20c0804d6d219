// The gateway as `npm start` runs it: a real process on embedded PGlite that prints where to go
// and the demo keys at every start, and stops cleanly on SIGTERM (releasing its data directory).
// Its stdout is a pipe here, as under a log collector: only JSON lines go there, the banner to
// stderr. `npm start` compiles only when a source changed since the last build.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledDist } from '../support/compiled.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

const root = path.resolve(import.meta.dirname, '../..');
let database: TestDatabase;
let dataDir: string;

beforeAll(async () => {
  // What `npm start` runs before the gateway.
  await compiledDist();
  // A migrated PGlite directory: what a first start does to an empty one is test/foundation/restart.test.ts's.
  database = await createTestDatabase('pglite');
  dataDir = database.env.DATA_DIR!;
}, 180_000);

afterAll(() => database?.drop());

function start(): { child: ChildProcess; ready: Promise<string>; stdout: () => string } {
  const { DATABASE_URL: _postgres, ...inherited } = process.env;
  const env = { ...inherited, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: 'development' };
  const child = spawn(process.execPath, ['dist/src/main.js'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('admin (demo)')) resolve(stderr);
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} before ready:\n${stdout}${stderr}`)));
  });
  return { child, ready, stdout: () => stdout };
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.on('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

describe('npm start', () => {
  it('prints GraphiQL and the demo keys, serves, and stops on SIGTERM; a restart prints the same keys', async () => {
    const first = start();
    const banner = await first.ready;
    const graphiql = /GraphiQL\s+(http:\/\/\S+)/.exec(banner)![1]!;
    const keys = [...banner.matchAll(/Bearer (gw_\S+)/g)].map((match) => match[1]);
    expect(keys).toHaveLength(3);
    // The unit the QR spec does not state is named with its setting.
    expect(banner).toContain('QR amounts are sent as integer satang (100 = THB 1.00): the QR spec does not state the unit (QR_AMOUNT_UNIT, assumption Q2)');
    expect((await fetch(graphiql, { headers: { accept: 'text/html' } })).status).toBe(200);
    expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(true);

    expect(await stop(first.child)).toBe(0);
    expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);
    // Every line on stdout is a JSON log entry; none carries a key.
    const lines = first.stdout().split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    for (const key of keys) expect(first.stdout()).not.toContain(key!.slice(3));

    const second = start();
    const again = await second.ready;
    expect([...again.matchAll(/Bearer (gw_\S+)/g)].map((match) => match[1])).toEqual(keys);
    expect(await stop(second.child)).toBe(0);
  }, 120_000);
});

describe('the build before start', () => {
  it('is skipped when nothing changed since the last build', async () => {
    const { STAMP } = await import('../../src/cli/build-if-stale.mjs');
    const before = await stat(path.join(root, STAMP));
    await promisify(execFile)(process.execPath, [path.join(root, 'src/cli/build-if-stale.mjs')], { cwd: root });
    // No compile: a build would have stamped dist/ anew.
    expect((await stat(path.join(root, STAMP))).mtimeMs).toBe(before.mtimeMs);
  });

  it('is stale when a source is newer than the last build, or was added or removed', async () => {
    const { buildIsStale, STAMP } = await import('../../src/cli/build-if-stale.mjs');
    const project = await mkdtemp(path.join(tmpdir(), 'build-stamp-'));
    try {
      await mkdir(path.join(project, 'src', 'lib'), { recursive: true });
      await mkdir(path.join(project, 'dist'));
      await writeFile(path.join(project, 'src', 'lib', 'a.ts'), 'export {};\n');
      const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));
      const settle = async (stampSeconds: number) => {
        for (const entry of ['src', 'src/lib', 'src/lib/a.ts']) await utimes(path.join(project, entry), at(0), at(0));
        await writeFile(path.join(project, STAMP), '');
        await utimes(path.join(project, STAMP), at(stampSeconds), at(stampSeconds));
      };
      expect(buildIsStale(project)).toBe(true); // never built

      await settle(10);
      expect(buildIsStale(project)).toBe(false);

      await utimes(path.join(project, 'src/lib/a.ts'), at(20), at(20)); // edited
      expect(buildIsStale(project)).toBe(true);

      await settle(10);
      await rm(path.join(project, 'src/lib/a.ts')); // removed: its directory changed
      expect(buildIsStale(project)).toBe(true);
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });
});
