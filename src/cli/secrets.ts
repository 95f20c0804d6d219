// `npm run secrets -- <command>`: the keys that seal secrets in the database (docs/secrets.md).
//
//   secrets new-key [--id k2]                 a new keyId:base64 entry for GATEWAY_SECRETS_KEY
//   secrets status [--json]                   sealed values by table, column and key
//   secrets reseal [--batch-size 100] [--json] every value under the first configured key

import './require-node.js';
import 'reflect-metadata';
import { pathToFileURL } from 'node:url';
import { openCliDatabase, parseCommand, type CliIo } from './cli-database.js';

const USAGE = `Usage:
  npm run secrets -- new-key [--id <keyId>]
  npm run secrets -- status [--json]
  npm run secrets -- reseal [--batch-size <rows>] [--json]

new-key prints a keyId:base64 entry of 32 random bytes, for GATEWAY_SECRETS_KEY (the first entry
seals, the others still open). reseal seals every secret the database holds under the first key,
in batches, beside running gateways; run it again at will. Then the other keys may be dropped.`;

const DEFAULT_BATCH_SIZE = 100;
const MAX_BATCH_SIZE = 10_000;

/** Runs the CLI and returns its exit code. */
export async function runSecretsCli(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(argv, { id: { type: 'string' }, 'batch-size': { type: 'string' }, json: { type: 'boolean', default: false } }, USAGE, io);
  if (!parsed.ok) return parsed.exitCode;
  const { command, rest, values } = parsed;
  if (rest.length > 0 || !['new-key', 'status', 'reseal'].includes(command)) {
    io.err(`Unknown command "${[command, ...rest].join(' ')}"\n\n${USAGE}`);
    return 64;
  }

  if (command === 'new-key') {
    const { SecretsKeyring } = await import('../lib/sealed-secrets.js');
    const id = values.id ?? `k${new Date().toISOString().slice(0, 10).replace(/-/g, '')}`;
    try {
      io.out(SecretsKeyring.newEntry(id));
    } catch (error) {
      io.err(`--id: ${(error as Error).message}`);
      return 64;
    }
    return 0;
  }

  const batchSize = values['batch-size'] === undefined ? DEFAULT_BATCH_SIZE : Number(values['batch-size']);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
    io.err(`--batch-size: a whole number from 1 to ${MAX_BATCH_SIZE}\n\n${USAGE}`);
    return 64;
  }

  const opened = await openCliDatabase(io);
  if (!opened.ok) return opened.exitCode;
  const { config, db, logger, close } = opened;
  try {
    const [{ secretsKeyring, SecretsKeyFileInvalid }, { reseal, sealedInventory }, { SEALED_COLUMNS }] = await Promise.all([
      import('../db/secrets-key.js'),
      import('../db/sealed-columns.js'),
      import('../services.js'),
    ]);
    let keyring;
    try {
      keyring = secretsKeyring(config, logger);
    } catch (error) {
      if (!(error instanceof SecretsKeyFileInvalid)) throw error;
      io.err(error.message);
      return 78;
    }
    if (command === 'reseal') {
      const result = await reseal(() => db.fork(), keyring, SEALED_COLUMNS, { batchSize });
      const remaining = await sealedInventory(db.fork(), SEALED_COLUMNS);
      if (values.json) {
        io.out(JSON.stringify({ keyId: keyring.currentKeyId, resealed: result.resealed, plain: result.plain, unopened: result.unopened, remaining }));
      } else {
        io.out(`Sealed ${result.resealed} secret${result.resealed === 1 ? '' : 's'} anew under key ${keyring.currentKeyId}${result.plain > 0 ? ` (${result.plain} of them plain)` : ''}.`);
        for (const value of result.unopened) {
          io.err(`Left as it is: ${value.table}.${value.column} of ${value.id} (${value.code}${value.keyId ? `, key ${value.keyId}` : ''}).`);
        }
        const others = [...new Set(remaining.filter((count) => count.keyId !== keyring.currentKeyId).map((count) => count.keyId ?? 'plain'))];
        io.out(others.length === 0 ? `Every secret is sealed under key ${keyring.currentKeyId}: the other keys may be dropped.` : `Still under other keys: ${others.join(', ')}.`);
      }
      return result.unopened.length > 0 ? 65 : 0; // EX_DATAERR: some values open under no configured key
    }
    const counts = await sealedInventory(db.fork(), SEALED_COLUMNS);
    if (values.json) {
      io.out(JSON.stringify({ currentKeyId: keyring.currentKeyId, keyIds: keyring.keyIds, counts: counts.map((count) => ({ ...count, configured: count.keyId === null || keyring.holds(count.keyId) })) }));
    } else {
      io.out(`Keys: ${keyring.keyIds.join(', ')} (${keyring.currentKeyId} seals).`);
      if (counts.length === 0) io.out('No sealed secrets.');
      for (const count of counts) {
        const under = count.keyId === null ? 'plain (sealed at the next start or reseal)' : `key ${count.keyId}${keyring.holds(count.keyId) ? '' : ' (not configured: these do not open)'}`;
        io.out(`  ${`${count.table}.${count.column}`.padEnd(40)} ${String(count.count).padStart(6)}  ${under}`);
      }
    }
    return 0;
  } finally {
    await close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const code = await runSecretsCli(process.argv.slice(2), {
    env: process.env,
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
  });
  process.exit(code);
}
