// The QR sandbox's API errors: an HTTP status with the provider's error code and type (spec: Errors),
// thrown where a request is refused and answered as `{ error: { code, message, type } }`.

import { ERROR_CODES } from '../../providers/qr-gateway/assumptions.js';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly type: string,
  ) {
    super(message);
  }
}

export const invalid = (message: string, code: string = ERROR_CODES.invalidRequest): HttpError => new HttpError(400, code, message, 'validation_error');
