// Each built-in sandbox's part of the sandbox cheat sheet (docs/sandbox.md), by provider name.

import { depositGatewayCheatSheet } from './deposit-gateway.js';
import { qrGatewayCheatSheet } from './qr-gateway.js';
import type { CheatSheetOf } from './types.js';

/** The parts written, by provider: a provider without one is left out of the page. */
export const CHEAT_SHEETS: Readonly<Record<string, CheatSheetOf>> = {
  'deposit-gateway': depositGatewayCheatSheet,
  'qr-gateway': qrGatewayCheatSheet,
};
