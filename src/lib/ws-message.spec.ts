import { describe, expect, it } from 'vitest';
import { messageText } from './ws-message.js';

describe('messageText', () => {
  const text = '{"type":"next","payload":"Ação ✓"}';

  it('decodes a message in each form ws may hand it over', () => {
    const bytes = Buffer.from(text);
    expect(messageText(bytes)).toBe(text);
    expect(messageText(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length))).toBe(text);
    // Fragments split inside a character join before they are decoded.
    expect(messageText([bytes.subarray(0, 28), bytes.subarray(28)])).toBe(text);
  });
});
