// Public surface of the QR gateway provider: the adapter, its settings and the named assumptions.

export { createQrGatewayAdapter, type QrGatewayAdapter, type QrGatewayAdapterOptions } from './qr-gateway.adapter.js';
export type { AmountUnit, QrEvent } from './assumptions.js';
export { QR_EVENTS, DEFAULT_AMOUNT_UNIT } from './assumptions.js';
