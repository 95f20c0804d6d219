// The gateway as `npm start` runs it: a real process on embedded PGlite that prints where to go
// and the demo keys at every start, and stops cleanly on SIGTERM (releasing its data directory).

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
let dataDir: string;

beforeAll(async () => {
  await promisify(execFile)(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root });
  dataDir = await mkdtemp(path.join(tmpdir(), 'gateway-process-'));
}, 120_000);

afterAll(() => rm(dataDir, { recursive: true, force: true }));

function start(): { child: ChildProcess; ready: Promise<string> } {
  const { DATABASE_URL: _postgres, ...inherited } = process.env;
  const env = { ...inherited, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'development' };
  const child = spawn(process.execPath, ['dist/src/main.js'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('admin (demo)')) resolve(output);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} before ready:\n${output}`)));
  });
  return { child, ready };
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
    expect((await fetch(graphiql, { headers: { accept: 'text/html' } })).status).toBe(200);
    expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(true);

    expect(await stop(first.child)).toBe(0);
    expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);

    const second = start();
    const again = await second.ready;
    expect([...again.matchAll(/Bearer (gw_\S+)/g)].map((match) => match[1])).toEqual(keys);
    expect(await stop(second.child)).toBe(0);
  }, 120_000);
});
