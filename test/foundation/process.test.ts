// The gateway as `npm start` runs it: a real process on embedded PGlite that prints where to go
// and the demo keys at every start, and stops cleanly on SIGTERM (releasing its data directory).
// Its stdout is a pipe here, as under a log collector: only JSON lines go there, the banner to
// stderr. `npm start` compiles only when a source changed since the last build. A port in use, or
// the embedded database held by a running gateway, is one line saying what to change, never a
// stack; `npm run client` answers without compiling when nothing changed.

import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
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
});

afterAll(() => database?.drop());

function start(): { child: ChildProcess; ready: Promise<string>; stdout: () => string } {
  const { DATABASE_URL: _postgres, ...inherited } = process.env;
  const env = { ...inherited, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: 'development' };
  const child = spawn(process.execPath, ['dist/src/main.js'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('admin (demo)')) resolve(stderr);
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} before ready:\n${stdout}${stderr}`)));
  });
  return { child, ready, stdout: () => stdout };
}

/** Runs `command` in the project folder to its exit, on the test's embedded database, and what it wrote. */
function runToExit(command: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { DATABASE_URL: _postgres, ...inherited } = process.env;
  const child = spawn(command[0]!, command.slice(1), {
    cwd: root,
    env: { ...inherited, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`, DATA_DIR: dataDir, LOG_LEVEL: 'info', NODE_ENV: 'development', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** A port something else listens on, for as long as the test needs it busy. */
async function busyPort(): Promise<{ port: number; release: () => Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { port, release: () => new Promise((resolve) => server.close(() => resolve())) };
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.on('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

describe('npm start', () => {
  it('prints GraphiQL and the demo keys, serves, keeps the client CLI off its embedded database with one line, and stops on SIGTERM; a restart prints the same keys', async () => {
    const first = start();
    const banner = await first.ready;
    const graphiql = /GraphiQL\s+(http:\/\/\S+)/.exec(banner)![1]!;
    const keys = [...banner.matchAll(/Bearer (gw_\S+)/g)].map((match) => match[1]);
    expect(keys).toHaveLength(3);
    // The unit the QR spec does not state is named with its setting.
    expect(banner).toContain('QR amounts are sent as integer satang (100 = THB 1.00): the QR spec does not state the unit (QR_GATEWAY_AMOUNT_UNIT, assumption Q2)');
    // Each provider's sandbox, with the variable of its port.
    expect(banner).toMatch(/deposit-gateway\s+http:\/\/127\.0\.0\.1:\d+ {2}\(DEPOSIT_GATEWAY_SANDBOX_PORT\)/);
    expect(banner).toMatch(/qr-gateway\s+(http:\/\/127\.0\.0\.1:\d+) {2}\(QR_GATEWAY_SANDBOX_PORT; dashboard \1\/dashboard\)/);
    // The default accounts, the live-mode one for hosted checkout marked as the sandbox's.
    expect(banner).toMatch(/dg-live\s+deposit-gateway\s+live\s+SANDBOX, live mode simulated at http:\/\/127\.0\.0\.1:\d+\/v1 \(no real money\)/);
    expect((await fetch(graphiql, { headers: { accept: 'text/html' } })).status).toBe(200);
    expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(true);

    // While it holds the embedded database, the client CLI says in one line what to do instead.
    const cli = await runToExit([process.execPath, 'dist/src/cli/client.js', 'list']);
    expect(cli.code).toBe(75);
    expect(cli.stdout).toBe('');
    const cliLines = cli.stderr.trim().split('\n');
    expect(cliLines, cli.stderr).toHaveLength(1);
    expect(cliLines[0]).toMatch(new RegExp(`^The embedded database in .+ is in use by process ${first.child.pid}\\b.*DATABASE_URL.*createApiClient`));

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
  });
});

describe('a port already in use', () => {
  it.each([
    ['PORT', {}],
    ['METRICS_PORT', { PORT: '0' }],
  ])('%s: one line naming the variable, a non-zero exit, no stack, the data directory released', async (variable, env: Record<string, string>) => {
    const busy = await busyPort();
    try {
      const run = await runToExit([process.execPath, 'dist/src/main.js'], { HOST: '127.0.0.1', DEPOSIT_GATEWAY_SANDBOX_PORT: '0', QR_GATEWAY_SANDBOX_PORT: '0', ...env, [variable]: String(busy.port) });
      expect(run.code).not.toBe(0);
      expect(run.code).not.toBeNull();
      const lines = run.stderr.trim().split('\n');
      expect(lines, run.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^${variable}=${busy.port}: port ${busy.port} on 127\\.0\\.0\\.1 is already in use.*set ${variable} to a free port`));
      // The log says it too (stdout is a pipe: JSON lines), without a stack.
      const fatal = run.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { level: number; msg: string; code?: string; err?: unknown }).find((line) => line.level === 60);
      expect(fatal).toMatchObject({ msg: lines[0], code: 'EADDRINUSE' });
      expect(fatal?.err).toBeUndefined();
      expect(run.stdout).not.toContain('"stack"');
      expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);
    } finally {
      await busy.release();
    }
  });
});

describe("a sandbox's port already in use", () => {
  it('is one line naming its variable as it was given (an older name included), and a non-zero exit', async () => {
    const busy = await busyPort();
    try {
      const run = await runToExit([process.execPath, 'dist/src/main.js'], { HOST: '127.0.0.1', PORT: '0', QR_SANDBOX_PORT: String(busy.port) });
      expect(run.code).not.toBe(0);
      expect(run.code).not.toBeNull();
      const lines = run.stderr.trim().split('\n');
      expect(lines, run.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^QR_SANDBOX_PORT=${busy.port}: port ${busy.port} is already in use.*set QR_SANDBOX_PORT to a free port`));
    } finally {
      await busy.release();
    }
  });
});

describe('a DATABASE_URL where no PostgreSQL listens', () => {
  it('is one line naming DATABASE_URL, the host and port, the failure and the fix, never the password; a non-zero exit, no stack', async () => {
    // A port that was free a moment ago: nothing listens there, so the connection is refused at once.
    const closed = await busyPort();
    await closed.release();
    const run = await runToExit([process.execPath, 'dist/src/main.js'], {
      HOST: '127.0.0.1',
      PORT: '0',
      DEPOSIT_GATEWAY_SANDBOX_PORT: '0',
      QR_GATEWAY_SANDBOX_PORT: '0',
      DATABASE_URL: `postgres://gateway:Never-Shown-42@127.0.0.1:${closed.port}/payments`,
      GATEWAY_SECRETS_KEY: `k1:${Buffer.alloc(32, 7).toString('base64')}`,
    });
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^DATABASE_URL \\(127\\.0\\.0\\.1:${closed.port}, database payments\\): connection refused: .*Start PostgreSQL there, or correct the host and port in DATABASE_URL`));
    // The log says it too, with the setting and the failure as fields, and no stack.
    const fatal = run.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.level === 60);
    expect(fatal).toMatchObject({ msg: lines[0], code: 'DATABASE_UNAVAILABLE', setting: 'DATABASE_URL', host: '127.0.0.1', port: closed.port, database: 'payments', failure: 'connection-refused' });
    expect(fatal?.err).toBeUndefined();
    expect(run.stdout).not.toContain('"stack"');
    expect(`${run.stdout}${run.stderr}`).not.toContain('Never-Shown-42');
  });
});

/** A Node.js older than the one package.json's engines.node asks for, found on this machine (OLD_NODE, or `node` on PATH and the usual places), or undefined. */
function olderNode(): string | undefined {
  const candidates = [process.env.OLD_NODE, ...(process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, 'node')), '/usr/bin/node', '/usr/local/bin/node'];
  for (const candidate of candidates) {
    if (!candidate || !existsSync(candidate)) continue;
    const version = spawnSync(candidate, ['--version'], { encoding: 'utf8' }).stdout?.trim();
    if (version && Number(/^v(\d+)\./.exec(version)?.[1]) < 22) return candidate;
  }
  return undefined;
}

const oldNode = olderNode();

describe('a Node.js older than 22.17', () => {
  // Skipped where the machine has no older Node.js to run: set OLD_NODE to one to run it.
  it.skipIf(!oldNode).each([
    ['the build before start (npm start runs it first)', ['src/cli/build-if-stale.mjs']],
    ['the gateway', ['dist/src/main.js']],
    ['the client CLI', ['dist/src/cli/client.js', 'list']],
  ])('stops %s with one line naming the version found and the one needed, and a non-zero exit', async (_entry, args) => {
    const { stdout: found } = await promisify(execFile)(oldNode!, ['-p', 'process.versions.node']);
    const run = await runToExit([oldNode!, ...args], { PORT: '0', DEPOSIT_GATEWAY_SANDBOX_PORT: '0', QR_GATEWAY_SANDBOX_PORT: '0' });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    // Nothing else ran: no log line, no compile, no second line.
    expect(run.stderr).toBe(`Node.js ${found.trim()} is too old: the gateway needs Node.js 22.17.0 or newer (package.json engines.node). Install Node.js 22 (e.g. nvm install 22) and start again.\n`);
  });
});

describe('npm run client', () => {
  it('answers without compiling when nothing changed, with nothing but its answer', async () => {
    const { STAMP } = await import('../../src/cli/build-if-stale.mjs');
    const before = await stat(path.join(root, STAMP));
    // The script as npm runs it (sh -c, from the project folder), with the arguments npm appends.
    const { scripts } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const run = await runToExit(['sh', '-c', `${scripts.client} --help`]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage:\n {2}npm run client -- create/);
    expect(run.stderr).toBe('');
    expect((await stat(path.join(root, STAMP))).mtimeMs).toBe(before.mtimeMs);
  });
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
