// Reads a QR code back from the gateway's SVG, as a phone camera would: draw the SVG's modules
// into pixels, then decode them with jsQR. Understands the path grammar the SVG uses: M (move),
// m (relative move) and h (horizontal stroke one module high), with a white background path.

import jsQRModule from 'jsqr';

// jsqr is CommonJS with a default export; under Node's ESM interop it may arrive wrapped.
const jsQR = ((jsQRModule as unknown as { default?: typeof jsQRModule }).default ?? jsQRModule) as unknown as typeof import('jsqr').default;

const SCALE = 8;

export function decodeQrSvg(svg: string): string | null {
  const viewBox = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
  const stroke = /<path stroke="#000000" d="([^"]+)"/.exec(svg);
  if (!viewBox || !stroke) throw new Error('not a QR SVG this decoder understands');
  const size = Number(viewBox[1]);
  const dark = new Set<string>();
  let x = 0;
  let y = 0;
  for (const [, command, args] of stroke[1]!.matchAll(/([MmHhVvz])([^MmHhVvz]*)/g)) {
    const numbers = (args ?? '').trim().split(/[\s,]+/).filter(Boolean).map(Number);
    if (command === 'M') [x, y] = [numbers[0]!, numbers[1]!];
    else if (command === 'm') [x, y] = [x + numbers[0]!, y + numbers[1]!];
    else if (command === 'h') {
      for (let i = 0; i < numbers[0]!; i++) dark.add(`${x + i},${Math.floor(y)}`);
      x += numbers[0]!;
    } else throw new Error(`unexpected path command ${command}`);
  }
  const width = size * SCALE;
  const pixels = new Uint8ClampedArray(width * width * 4);
  for (let py = 0; py < width; py++) {
    for (let px = 0; px < width; px++) {
      const value = dark.has(`${Math.floor(px / SCALE)},${Math.floor(py / SCALE)}`) ? 0 : 255;
      pixels.set([value, value, value, 255], (py * width + px) * 4);
    }
  }
  return jsQR(pixels, width, width)?.data ?? null;
}
