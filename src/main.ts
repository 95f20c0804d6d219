// Entry point: `npm start`. Loads configuration, starts one gateway instance, prints where to go.

import './cli/require-node.js';
import 'reflect-metadata';
import { loadConfigOrExit } from './config.js';
import { DatabaseConnectError } from './db/connect-error.js';
import { DataDirInUse } from './db/data-dir-lock.js';
import { DatabaseRoleError } from './db/role.js';
import { SecretsKeyFileInvalid } from './db/secrets-key.js';
import { ListenError } from './lib/http.js';
import { createLogger } from './lib/logger.js';
import { bannerLines } from './server/banner.js';
import { startGateway, type Gateway } from './server/gateway.js';

const config = loadConfigOrExit();

// At a terminal, outside production, log lines are for reading; anywhere else (a pipe, a file, a
// log collector, and always in production) they stay one JSON object per line.
const atTerminal = Boolean(process.stdout.isTTY);
const logger = createLogger({ level: config.logLevel, pretty: atTerminal && config.env !== 'production' });

/** Longest a graceful shutdown may take before the process exits anyway. */
const SHUTDOWN_DEADLINE_MS = 15_000;

// Signal handlers go in before anything starts: a SIGTERM during start-up, or right after the
// banner, must still shut down cleanly rather than kill the process mid-write.
let gateway: Gateway | undefined;
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error({ deadlineMs: SHUTDOWN_DEADLINE_MS }, 'graceful shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    // Still starting: the start-up path below sees `stopping` and closes once it has started.
    if (gateway) shutDown(gateway);
  });
}

/** The gateway's one close sequence (src/server/close-sequence.ts), then the process's exit. */
function shutDown(started: Gateway): void {
  started
    .close()
    .then(() => process.exit(0))
    .catch((error: unknown) => {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    });
}

try {
  gateway = await startGateway({ config, logger });
  if (stopping) shutDown(gateway);
  else printBanner(gateway);
} catch (error) {
  // A busy port, a held data directory, a database that cannot be reached, a database role that
  // cannot migrate or an unusable key file is for whoever started the process to fix: one line
  // naming what to change, on stderr, and in the log without a stack. Anything else is a bug.
  if (error instanceof ListenError || error instanceof DataDirInUse || error instanceof DatabaseConnectError || error instanceof DatabaseRoleError || error instanceof SecretsKeyFileInvalid) {
    process.stderr.write(`${error.message}\n`);
    const fields = error instanceof DatabaseConnectError ? error.logFields : { code: error instanceof DataDirInUse ? 'DATA_DIR_IN_USE' : error instanceof SecretsKeyFileInvalid ? 'SECRETS_KEY_FILE_INVALID' : error.code };
    if (!atTerminal) logger.fatal(fields, error.message);
  } else {
    logger.fatal({ err: error }, 'gateway failed to start');
  }
  process.exit(1);
}

function printBanner(g: Gateway): void {
  // The banner is for a person: on stdout at a terminal; otherwise on stderr, so that stdout
  // carries nothing but JSON log lines for whatever reads them.
  (atTerminal ? process.stdout : process.stderr).write(`${bannerLines(g).join('\n')}\n`);
}
