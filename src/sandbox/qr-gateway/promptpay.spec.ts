import { describe, expect, it } from 'vitest';
import { buildPromptPayPayload, crc16Ccitt, sandboxMerchantId, tlv } from './promptpay.js';

describe('PromptPay payload', () => {
  it('computes CRC16-CCITT (0x1021, init 0xFFFF) on the standard check string', () => {
    expect(crc16Ccitt('123456789')).toBe('29B1');
  });

  it('writes tag, two-digit length and value', () => {
    expect(tlv('58', 'TH')).toBe('5802TH');
    expect(() => tlv('62', 'x'.repeat(100))).toThrow(RangeError);
  });

  it('builds a dynamic payload closed by its CRC', () => {
    const payload = buildPromptPayPayload({ amountText: '100.00', merchantId: sandboxMerchantId('sk_test_a'), referenceLabel: 'qr_0123456789abcdef0123' });
    expect(payload.startsWith('000201010212')).toBe(true);
    expect(payload).toContain('5303764');
    expect(payload).toContain('5406100.00');
    expect(payload).toContain('5802TH');
    expect(payload).toContain('0016A000000677010111');
    expect(payload.slice(-8, -4)).toBe('6304');
    expect(payload.slice(-4)).toBe(crc16Ccitt(payload.slice(0, -4)));
  });

  it('gives each key a stable 13-digit merchant id', () => {
    expect(sandboxMerchantId('sk_test_a')).toMatch(/^[0-9]{13}$/);
    expect(sandboxMerchantId('sk_test_a')).toBe(sandboxMerchantId('sk_test_a'));
  });
});
