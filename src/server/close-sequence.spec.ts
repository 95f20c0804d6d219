// The gateway's one close sequence: last opened, first closed; each close once, however often the
// sequence is run; a close that fails is logged and the others still run, and the failure is
// thrown once all have.

import { describe, expect, it } from 'vitest';
import { createLogger } from '../lib/logger.js';
import { CloseSequence } from './close-sequence.js';

function sequence() {
  const logs: Array<Record<string, unknown>> = [];
  const closing = new CloseSequence(createLogger({ level: 'error', destination: { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) } }));
  return { closing, logs };
}

describe('CloseSequence', () => {
  it('closes the parts in reverse order of opening, each once', async () => {
    const { closing } = sequence();
    const closed: string[] = [];
    closing.add('database', () => void closed.push('database'));
    closing.add('worker', async () => {
      await new Promise((resolve) => setImmediate(resolve));
      closed.push('worker');
    });
    closing.add('server', () => void closed.push('server'));
    await Promise.all([closing.run(), closing.run()]);
    await closing.run();
    expect(closed).toEqual(['server', 'worker', 'database']);
  });

  it('goes on past a close that fails, logs it by part, and throws the first failure at the end', async () => {
    const { closing, logs } = sequence();
    const closed: string[] = [];
    closing.add('database', () => void closed.push('database'));
    closing.add('worker', () => {
      throw new Error('worker stuck');
    });
    closing.add('server', () => Promise.reject(new Error('server stuck')));
    await expect(closing.run()).rejects.toThrow('server stuck');
    expect(closed).toEqual(['database']);
    expect(logs.map((line) => [line.part, line.msg])).toEqual([
      ['server', 'a part of the gateway failed to close'],
      ['worker', 'a part of the gateway failed to close'],
    ]);
  });
});
