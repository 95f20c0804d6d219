// Public surface of the QR gateway sandbox.

export { startQrGatewaySandbox, type QrGatewaySandbox, type QrSandboxControls, type QrSandboxOptions } from './server.js';
export type { QrSandboxCode } from './codes.js';
export type { DeliveryAttempt, DeliveryFaults, SandboxRegistration } from './deliveries.js';
export { buildPromptPayPayload, crc16Ccitt } from './promptpay.js';
