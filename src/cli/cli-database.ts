// What every command-line tool of the gateway does before its command: read its command line, the
// configuration and the database as the gateway does, saying in one line, with a conventional exit
// code, why not.

import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import type { GatewayConfig } from '../config.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../lib/logger.js';

export interface CliIo {
  env: Record<string, string | undefined>;
  out: (text: string) => void;
  err: (text: string) => void;
  /**
   * A database already open, used instead of opening one from `env` and left open after the
   * command: for a caller running many commands on one database (the CLI's tests), where each open
   * of the embedded database costs half a second of CPU. The configuration is still read from `env`.
   */
  database?: Database;
}

/** The values of a command line whose options are `O` (node:util's parseArgs, positionals allowed). */
export type CommandValues<O extends ParseArgsOptionsConfig> = ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: O }>>['values'];

export type ParsedCommand<O extends ParseArgsOptionsConfig> = { ok: true; command: string; rest: string[]; values: CommandValues<O> } | { ok: false; exitCode: number };

/**
 * The command (the first positional), the positionals after it and the option values; or the exit
 * code once the usage has been printed: 0 for `--help`/`-h` (on stdout), 64 (EX_USAGE, on stderr
 * with the reason) for an option parseArgs refuses, and 64 with the usage on stdout for no command.
 */
export function parseCommand<const O extends ParseArgsOptionsConfig>(argv: string[], options: O, usage: string, io: CliIo): ParsedCommand<O> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { ...options, help: { type: 'boolean', short: 'h', default: false } } });
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${usage}`);
    return { ok: false, exitCode: 64 }; // EX_USAGE
  }
  const [command, ...rest] = parsed.positionals;
  // The options are the caller's with `help` added, which the generic result type cannot show.
  const help = (parsed.values as { help?: boolean }).help === true;
  if (help || !command) {
    io.out(usage);
    return { ok: false, exitCode: help ? 0 : 64 };
  }
  return { ok: true, command, rest, values: parsed.values };
}

/** `close` ends the command's use of the database: it closes one the command opened, and leaves `io.database` open. */
export type CliDatabase = { ok: true; config: GatewayConfig; db: Database; logger: Logger; close: () => Promise<void> } | { ok: false; exitCode: number };

/**
 * The configuration (exit 78 on a bad one, every problem listed) and the database (75 while a
 * gateway holds the embedded one, 69 when PostgreSQL cannot be reached). Logs go to stderr at
 * warn, so a command's --json output stays one clean document on stdout.
 */
export async function openCliDatabase(io: CliIo): Promise<CliDatabase> {
  // Loaded once a command is known to need them: the ORM and its drivers are most of a CLI's
  // start-up time, which a usage message need not wait for.
  const [{ ConfigError, loadConfig }, { openDatabase }, { DataDirInUse }, { DatabaseConnectError }, { entities }, { createLogger }] = await Promise.all([
    import('../config.js'),
    import('../db/database.js'),
    import('../db/data-dir-lock.js'),
    import('../db/connect-error.js'),
    import('../entities.js'),
    import('../lib/logger.js'),
  ]);

  let config;
  try {
    config = loadConfig(io.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(error.message);
      return { ok: false, exitCode: 78 }; // EX_CONFIG
    }
    throw error;
  }

  const logger = createLogger({ level: 'warn', destination: { write: (line: string) => io.err(line.trimEnd()) } });
  if (io.database) return { ok: true, config, db: io.database, logger, close: async () => undefined };
  try {
    const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger, entities, timeouts: config.database });
    return { ok: true, config, db, logger, close: () => db.close() };
  } catch (error) {
    // The gateway running on the embedded database: what to do instead, in one line.
    if (error instanceof DataDirInUse) {
      io.err(error.message);
      return { ok: false, exitCode: 75 }; // EX_TEMPFAIL: try again once the gateway is stopped
    }
    // PostgreSQL unreachable or refusing us: where, why and what to change, never the password.
    if (error instanceof DatabaseConnectError) {
      io.err(error.message);
      return { ok: false, exitCode: 69 }; // EX_UNAVAILABLE
    }
    // Any other refusal (a system or SQLSTATE code): the reason, never the URL, which may hold a password.
    const code = (error as { code?: unknown }).code;
    if (config.databaseUrl && typeof code === 'string') {
      io.err(`Could not open the database at DATABASE_URL: ${(error as Error).message}`);
      return { ok: false, exitCode: 69 }; // EX_UNAVAILABLE
    }
    throw error;
  }
}
