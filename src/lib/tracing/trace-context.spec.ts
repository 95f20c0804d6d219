import { describe, expect, it } from 'vitest';
import { parseTraceparent } from './trace-context.js';

describe('a stored traceparent', () => {
  it('is read back as a remote span context, and anything else as none', () => {
    expect(parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toEqual({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1, isRemote: true });
    for (const bad of [null, '', 'garbage', '00-00000000000000000000000000000000-00f067aa0ba902b7-01', '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01', '01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01']) {
      expect(parseTraceparent(bad)).toBeUndefined();
    }
  });
});
