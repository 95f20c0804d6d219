// Structured logging. Every logger in the gateway comes from here, so redaction is applied
// everywhere: API keys, webhook and signing secrets, the settings that hold them, authorization
// headers and account numbers never reach a log.

import { createRequire } from 'node:module';
import { traceLogFields } from './tracing/trace-context.js';
import { pino, type Bindings, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

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
  'previous_secret',
  '*.previous_secret',
  'previousSecret',
  '*.previousSecret',
  'plaintext',
  '*.plaintext',
  // Settings that hold secrets, should an environment or a configuration ever be logged.
  'GATEWAY_SECRETS_KEY',
  '*.GATEWAY_SECRETS_KEY',
  'METRICS_TOKEN',
  '*.METRICS_TOKEN',
  'DATABASE_URL',
  '*.DATABASE_URL',
  'MERCHANT_ACCOUNTS',
  '*.MERCHANT_ACCOUNTS',
  'databaseUrl',
  '*.databaseUrl',
  'secretsKeyring',
  '*.secretsKeyring',
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
 * A silent parent is its own child: nothing it or a child of it writes reaches the log, and
 * no logger's level is changed after it is made.
 */
export function lazyChild(parent: () => Logger, bindings: Bindings): () => Logger {
  let child: Logger | undefined;
  return () => {
    if (child) return child;
    const from = parent();
    child = from.level === 'silent' ? from : from.child(bindings);
    return child;
  };
}

export interface CreateLoggerOptions {
  level?: LoggerOptions['level'];
  /** Where lines go; stdout by default. Tests pass a stream to capture output. */
  destination?: DestinationStream;
  /**
   * One readable, coloured line per entry instead of JSON, for a person at a terminal. Redaction
   * applies before formatting, so it hides the same values. Needs pino-pretty, a development
   * dependency: without it (a production install) the lines stay JSON, after one warning.
   */
  pretty?: boolean;
}

export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const pretty = options.pretty ? prettyStream() : undefined;
  const logger = pino(
    {
      level: options.level ?? 'info',
      base: { service: 'payments-gateway' },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      // The span a line was written in (docs/tracing.md); nothing while tracing is off.
      mixin: traceMixin,
      mixinMergeStrategy: (line, trace) => (trace === NO_TRACE ? line : Object.assign(trace, line)),
    },
    pretty instanceof Error ? options.destination : (pretty ?? options.destination),
  );
  if (pretty instanceof Error) logger.warn({ reason: pretty.message }, 'pretty log lines need pino-pretty, a development dependency; writing JSON lines');
  return logger;
}

const NO_TRACE = Object.freeze({});

/** `trace_id` and `span_id` of the span running now, when tracing is on; one shared empty object otherwise, which the merge leaves out. */
function traceMixin(): object {
  return traceLogFields() ?? NO_TRACE;
}

/**
 * pino-pretty's stream to stdout, or why it cannot be had: `npm ci --omit=dev` and the Docker image
 * leave it out, and a start must not fail over how its lines look. Loaded on demand, so a logger
 * that never asks for it never looks for it.
 */
function prettyStream(): DestinationStream | Error {
  try {
    const { PinoPretty } = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
    return PinoPretty({ colorize: true, sync: true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'service,pid,hostname', destination: 1 });
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
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
