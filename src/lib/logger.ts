// Structured logging. Every logger in the gateway comes from here, so redaction is applied
// everywhere: API keys, webhook secrets, authorization headers and account numbers never reach a log.

import { pino, type Bindings, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { PinoPretty } from 'pino-pretty';

export type { Logger } from 'pino';

/** Paths removed from every log line, wherever they appear (two levels deep, plus request headers). */
const REDACT_PATHS = [
  'apiKey',
  '*.apiKey',
  '*.*.apiKey',
  'key',
  '*.key',
  'secret',
  '*.secret',
  '*.*.secret',
  'webhookSecret',
  '*.webhookSecret',
  'webhookSecrets',
  '*.webhookSecrets',
  '*.*.webhookSecrets',
  'password',
  '*.password',
  'authorization',
  '*.authorization',
  '*.headers.authorization',
  '*.headers["x-service-signature"]',
  '*.headers["x-qr-signature"]',
  '*.headers.cookie',
  'connectionParams',
  '*.connectionParams',
  'accountNumber',
  '*.accountNumber',
  '*.*.accountNumber',
  'account_number',
  '*.account_number',
  '*.*.account_number',
  'bankAccount',
  '*.bankAccount',
  '*.*.bankAccount',
  'cardNumber',
  '*.cardNumber',
  'cci',
  '*.cci',
  '*.*.cci',
];

/**
 * A child logger made on first use: pino's `child` (with its redaction set-up) costs CPU, and a
 * request or job that logs nothing at its level should not pay it. `parent` is read then too.
 */
export function lazyChild(parent: () => Logger, bindings: Bindings): () => Logger {
  let child: Logger | undefined;
  return () => (child ??= parent().child(bindings));
}

export interface CreateLoggerOptions {
  level?: LoggerOptions['level'];
  /** Where lines go; stdout by default. Tests pass a stream to capture output. */
  destination?: DestinationStream;
  /**
   * One readable, coloured line per entry instead of JSON, for a person at a terminal. Redaction
   * applies before formatting, so it hides the same values.
   */
  pretty?: boolean;
}

export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const destination = options.pretty
    ? PinoPretty({ colorize: true, sync: true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'service,pid,hostname', destination: 1 })
    : options.destination;
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: 'payments-gateway' },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}

/**
 * Masks all but the last four characters: `****1234`. For values that must appear in part.
 * Characters are code points, so a surrogate pair is never cut in half.
 */
export function maskTail(value: string, visible = 4): string {
  const characters = Array.from(value);
  if (characters.length <= visible) return '*'.repeat(characters.length);
  return '*'.repeat(Math.min(8, characters.length - visible)) + characters.slice(-visible).join('');
}
