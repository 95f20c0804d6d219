// The QR gateway's own settings: the guesses a deployment switches when the real provider answers
// otherwise (Q2's amount unit, the wire names of Q1, Q3, Q4 and Q15), and whether real accounts
// register this gateway's webhook at start. Each is a variable `QR_GATEWAY_<KEY>`.

import { z } from 'zod';
import { booleanString } from '../../lib/env-values.js';
import { defineProviderSettings } from '../settings.js';
import { DEFAULT_AMOUNT_UNIT, QR_WIRE, type AmountUnit, type QrWire } from './assumptions.js';

/** What the QR gateway's adapter, sandbox and hooks are given besides the common provider settings. */
export interface QrGatewaySettings {
  /** Q2: the unit of the integer `amount`, on both sides of the wire. */
  amountUnit: AmountUnit;
  /** Register this gateway's webhook URL with the real provider's accounts at start (sandbox accounts always are). */
  registerWebhook: boolean;
  /** The names the spec does not state (Q1, Q3, Q4, Q15); the defaults are `QR_WIRE`. */
  wire: QrWire;
}

const fieldName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a JSON field name: letters, digits and underscores, not starting with a digit');

/** Node reads header names in lower case; the setting may be written as the provider documents it. */
const headerName = z
  .string()
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be an HTTP header name')
  .transform((name) => name.toLowerCase());

/** A path from the base address with one `{id}` where the code's id goes, as the adapter fills it and the sandbox matches it. */
const lookupPath = z.string().regex(/^\/[A-Za-z0-9._~/-]*\{id\}[A-Za-z0-9._~/-]*$/, 'must be a path starting with / that holds {id} once (e.g. /v1/qr-codes/{id})');

export const QR_GATEWAY_SETTINGS = defineProviderSettings({
  schema: z.object({
    AMOUNT_UNIT: z.enum(['satang', 'baht'], { message: 'must be satang or baht' }).default(DEFAULT_AMOUNT_UNIT),
    REGISTER_WEBHOOK: booleanString.default(false),
    WIRE_CODE_ID_FIELD: fieldName.default(QR_WIRE.codeIdField),
    WIRE_PAYLOAD_FIELD: fieldName.default(QR_WIRE.payloadField),
    WIRE_EXPIRES_AT_FIELD: fieldName.default(QR_WIRE.expiresAtField),
    WIRE_EXPIRY_FIELD: fieldName.default(QR_WIRE.expiryField),
    WIRE_SIGNATURE_HEADER: headerName.default(QR_WIRE.signatureHeader),
    WIRE_LOOKUP_PATH: lookupPath.default(QR_WIRE.lookupPath),
  }),
  // The names these settings had before every provider setting carried its provider's prefix.
  aliases: { AMOUNT_UNIT: 'QR_AMOUNT_UNIT', REGISTER_WEBHOOK: 'QR_REGISTER_WEBHOOK' },
  fromEnv: (variables): QrGatewaySettings => ({
    amountUnit: variables.AMOUNT_UNIT,
    registerWebhook: variables.REGISTER_WEBHOOK,
    wire: {
      codeIdField: variables.WIRE_CODE_ID_FIELD,
      payloadField: variables.WIRE_PAYLOAD_FIELD,
      expiresAtField: variables.WIRE_EXPIRES_AT_FIELD,
      expiryField: variables.WIRE_EXPIRY_FIELD,
      signatureHeader: variables.WIRE_SIGNATURE_HEADER,
      lookupPath: variables.WIRE_LOOKUP_PATH,
    },
  }),
});
