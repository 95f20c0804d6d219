// The QR gateway's own settings: the guesses a deployment switches when the real provider answers
// otherwise (Q2's amount unit), and whether real accounts register this gateway's webhook at start.
// Each is a variable `QR_GATEWAY_<KEY>`.

import { z } from 'zod';
import { booleanString } from '../../lib/env-values.js';
import { defineProviderSettings } from '../settings.js';
import { DEFAULT_AMOUNT_UNIT, type AmountUnit } from './assumptions.js';

/** What the QR gateway's adapter, sandbox and hooks are given besides the common provider settings. */
export interface QrGatewaySettings {
  /** Q2: the unit of the integer `amount`, on both sides of the wire. */
  amountUnit: AmountUnit;
  /** Register this gateway's webhook URL with the real provider's accounts at start (sandbox accounts always are). */
  registerWebhook: boolean;
}

export const QR_GATEWAY_SETTINGS = defineProviderSettings({
  schema: z.object({
    AMOUNT_UNIT: z.enum(['satang', 'baht'], { message: 'must be satang or baht' }).default(DEFAULT_AMOUNT_UNIT),
    REGISTER_WEBHOOK: booleanString.default(false),
  }),
  // The names these settings had before every provider setting carried its provider's prefix.
  aliases: { AMOUNT_UNIT: 'QR_AMOUNT_UNIT', REGISTER_WEBHOOK: 'QR_REGISTER_WEBHOOK' },
  fromEnv: (variables): QrGatewaySettings => ({
    amountUnit: variables.AMOUNT_UNIT,
    registerWebhook: variables.REGISTER_WEBHOOK,
  }),
});
