// EMVCo merchant-presented QR payloads in the PromptPay profile (assumption Q17): tag-length-value
// fields closed by a CRC16-CCITT checksum, as Thai banking apps scan them.

import { createHash } from 'node:crypto';
import { PROMPTPAY_AID } from '../../providers/qr-gateway/assumptions.js';

/** CRC16-CCITT (polynomial 0x1021, initial 0xFFFF, no reflection), as four upper-case hex digits. */
export function crc16Ccitt(input: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(input, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** One field: two-digit tag, two-digit length, value (EMVCo caps a value at 99 characters). */
export function tlv(tag: string, value: string): string {
  if (!/^[0-9]{2}$/.test(tag)) throw new RangeError(`Bad EMV tag ${tag}`);
  if (value.length > 99) throw new RangeError(`EMV field ${tag} is longer than 99 characters`);
  return `${tag}${String(value.length).padStart(2, '0')}${value}`;
}

/** A 13-digit merchant tax id, stable per API key, standing in for the merchant's registered PromptPay id. */
export function sandboxMerchantId(apiKey: string): string {
  const digest = createHash('sha256').update(apiKey).digest();
  return `0${(digest.readBigUInt64BE(0) % 10n ** 12n).toString().padStart(12, '0')}`;
}

export interface PromptPayPayloadInput {
  /** Baht with two decimals, e.g. "1250.00". */
  amountText: string;
  merchantId: string;
  /** Shown by the payer's banking app and used to match the payment; at most 25 characters (EMVCo 62/05). */
  referenceLabel: string;
}

/**
 * A dynamic (point of initiation 12) PromptPay payload for one amount.
 *
 * @example buildPromptPayPayload({ amountText: '100.00', merchantId: '0105556000000', referenceLabel: 'qr_abc' })
 */
export function buildPromptPayPayload(input: PromptPayPayloadInput): string {
  if (input.referenceLabel.length > 25) throw new RangeError('EMVCo reference label is at most 25 characters');
  const body =
    tlv('00', '01') +
    tlv('01', '12') +
    tlv('29', tlv('00', PROMPTPAY_AID) + tlv('02', input.merchantId)) +
    tlv('53', '764') +
    tlv('54', input.amountText) +
    tlv('58', 'TH') +
    tlv('62', tlv('05', input.referenceLabel));
  const withCrcHeader = `${body}6304`;
  return withCrcHeader + crc16Ccitt(withCrcHeader);
}
