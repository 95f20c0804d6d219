// The gateway as `npm start` runs it, in a process of its own that records every OpenTelemetry
// module it resolves: without OTEL settings none of the SDK is loaded; with them the SDK is, and
// the traces of its start reach an OTLP/HTTP receiver in the default protocol (http/protobuf).

import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledDist } from '../support/compiled.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.js';

const root = path.resolve(import.meta.dirname, '../..');
let database: TestDatabase;
let scratch: string;
let collector: OtlpReceiver;

beforeAll(async () => {
  await compiledDist();
  database = await createTestDatabase('pglite');
  scratch = await mkdtemp(path.join(tmpdir(), 'gateway-otel-loads-'));
  collector = await startOtlpReceiver();
});

afterAll(async () => {
  await collector?.close();
  await database?.drop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** Starts `npm start`'s gateway with `env`, asks /readyz once, stops it with SIGTERM; the OpenTelemetry modules it resolved. */
async function runGateway(name: string, env: Record<string, string>): Promise<string[]> {
  const loads = path.join(scratch, `${name}.txt`);
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('OTEL_') && key !== 'DATABASE_URL'));
  const child = spawn(process.execPath, ['--import', path.join(root, 'test/tracing/record-loads.mjs'), 'dist/src/main.js'], {
    cwd: root,
    env: { ...inherited, DATA_DIR: database.env.DATA_DIR!, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: 'development', RECORD_LOADS_FILE: loads, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /Health\s+(http:\/\/\S+)\/healthz/.exec(stderr);
      if (stderr.includes('admin (demo)') && match) resolve(match[1]!);
    });
    child.stdout.resume();
    void exited.then((code) => reject(new Error(`exited with ${code} before ready:\n${stderr}`)));
  });
  expect((await fetch(`${url}/readyz`)).status).toBe(200);
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  return (await readFile(loads, 'utf8').catch(() => '')).split('\n').filter(Boolean);
}

describe('the OpenTelemetry SDK', () => {
  it('is not loaded without OTEL settings, and nothing is exported', async () => {
    const loaded = await runGateway('off', {});
    expect(loaded.filter((url) => /@opentelemetry\/(sdk-|exporter-|resources|context-async-hooks|instrumentation)/.test(url))).toEqual([]);
    expect(collector.requests).toEqual([]);
  });

  it('is loaded with them, and the spans go to the receiver as OTLP/HTTP protobuf', async () => {
    const loaded = await runGateway('on', { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_SERVICE_NAME: 'gateway-process-under-test' });
    expect(loaded.some((url) => url.includes('/@opentelemetry/sdk-trace/'))).toBe(true);
    expect(loaded.some((url) => url.includes('/@opentelemetry/exporter-trace-otlp-proto/'))).toBe(true);
    // SIGTERM flushed the batch: the readiness probe's server span among them.
    const exports = collector.requests.filter((request) => request.path === '/v1/traces');
    expect(exports.length).toBeGreaterThan(0);
    expect(exports.every((request) => request.contentType === 'application/x-protobuf')).toBe(true);
    const bytes = Buffer.concat(exports.map((request) => request.body)).toString('latin1');
    expect(bytes).toContain('gateway-process-under-test');
    expect(bytes).toContain('GET /readyz');
  });
});
