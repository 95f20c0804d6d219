// A request's or job's own logger is made when something is logged through it, carries its
// bindings on every line, and costs nothing where nothing can be logged.

import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, lazyChild } from './logger.js';

function capture(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ level, destination }) };
}

describe('lazyChild', () => {
  it('reads its parent only when first used, then keeps the one child', () => {
    const { logger } = capture('info');
    let reads = 0;
    const log = lazyChild(() => {
      reads += 1;
      return logger;
    }, { requestId: 'req-1' });
    expect(reads).toBe(0);
    expect(log()).toBe(log());
    expect(reads).toBe(1);
  });

  it('writes its bindings on every line, redacted as any other field', async () => {
    const { lines, logger } = capture('info');
    const log = lazyChild(() => logger, { requestId: 'req-1', apiKey: 'sk_live_secret' });
    log().info({ outcome: 'OK' }, 'mutation audited');
    await expect.poll(() => lines.length).toBe(1);
    expect(lines[0]).toMatchObject({ requestId: 'req-1', apiKey: '[redacted]', outcome: 'OK', msg: 'mutation audited' });
    expect(JSON.stringify(lines)).not.toContain('sk_live_secret');
  });

  it('is its silent parent, which writes nothing', () => {
    const { lines, logger } = capture('silent');
    const log = lazyChild(() => logger, { requestId: 'req-1' });
    expect(log()).toBe(logger);
    log().error('never written');
    expect(lines).toEqual([]);
  });
});
