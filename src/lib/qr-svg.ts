// Renders a QR payload as an SVG a cashier can show at once (no image hosting, no client library).

import QRCode from 'qrcode';

/** An SVG with a quiet zone, scalable, black on white, error correction M (PromptPay practice). */
export function renderQrSvg(payload: string): Promise<string> {
  return QRCode.toString(payload, { type: 'svg', errorCorrectionLevel: 'M', margin: 4, color: { dark: '#000000', light: '#ffffff' } });
}
