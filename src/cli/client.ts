// `npm run client -- <command>`: create, list and revoke internal API clients and their keys from
// a terminal.
//
//   client create --name web-cashier --role CASHIER [--role REFUNDS] [--account dg-test] [--json]
//   client list [--json]
//   client revoke <id>
//   client create-key <client-id> [--expires-at <ISO 8601 time>] [--json]
//   client revoke-key <key-id>

import './require-node.js';
import 'reflect-metadata';
import { pathToFileURL } from 'node:url';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { openCliDatabase, parseCommand, type CliIo, type CommandValues } from './cli-database.js';
import type { ApiClientService } from '../modules/clients/api-client.service.js';
import type { ApiKey } from '../modules/clients/api-key.entity.js';

export type { CliIo };

const USAGE = `Usage:
  npm run client -- create --name <name> --role <ROLE> [--role <ROLE>...] [--account <code>...] [--json]
  npm run client -- list [--json]
  npm run client -- revoke <client-id>
  npm run client -- create-key <client-id> [--expires-at <time>] [--json]
  npm run client -- revoke-key <key-id>

Roles: CASHIER, PAYOUTS, REFUNDS, ADMIN. A key is printed once; only its hash is stored.
create-key adds a key to a client, whose other keys keep working: roll a key by creating the new
one, deploying it, then revoking the old one. --expires-at is an ISO 8601 time with an offset
(2027-01-31T00:00:00Z), after which the key is refused; without it the key does not expire.`;

const OPTIONS = {
  name: { type: 'string' },
  role: { type: 'string', multiple: true },
  account: { type: 'string', multiple: true },
  'expires-at': { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

/** One command: its positionals after the command's name and the option values, to an exit code. */
type Command = (clients: ApiClientService, em: SqlEntityManager, args: { rest: string[]; values: CommandValues<typeof OPTIONS> }, io: CliIo) => Promise<number>;

/** Runs the CLI and returns its exit code. */
export async function runClientCli(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(argv, OPTIONS, USAGE, io);
  if (!parsed.ok) return parsed.exitCode;
  const { command, rest, values } = parsed;

  const opened = await openCliDatabase(io);
  if (!opened.ok) return opened.exitCode;
  const { config, db, logger, close } = opened;
  try {
    const run = COMMANDS[command];
    if (!run) {
      io.err(`Unknown command "${command}"\n\n${USAGE}`);
      return 64;
    }
    const { createServices } = await import('../services.js');
    const { services } = createServices({ config, db, logger });
    return await run(services.clients, db.fork(), { rest, values }, io);
  } finally {
    await close();
  }
}

const create: Command = async (clients, em, { values }, io) => {
  if (!values.name || !values.role?.length) {
    io.err(`create needs --name and at least one --role\n\n${USAGE}`);
    return 64;
  }
  const result = await clients.create(em, {
    name: values.name,
    roles: values.role,
    ...(values.account?.length ? { merchantAccounts: values.account } : {}),
  });
  if (!result.ok) {
    for (const error of result.errors) io.err(`${error.field.join('.')}: ${error.message} (${error.code})`);
    return 65; // EX_DATAERR
  }
  const { client, key } = result;
  if (values.json) {
    io.out(JSON.stringify({ id: client.id, name: client.name, roles: client.roles, key }));
  } else {
    io.out(`Created ${client.name} (${client.id}) with roles ${client.roles.join(', ')}.`);
    io.out(`Key (shown once, store it now): ${key}`);
    io.out(`Use it as: Authorization: Bearer ${key}`);
  }
  return 0;
};

const list: Command = async (clients, em, { values }, io) => {
  const all = await clients.list(em);
  const keys = await clients.keysOf(em, all.map((c) => c.id));
  if (values.json) {
    io.out(
      JSON.stringify(
        all.map((c) => ({ id: c.id, name: c.name, roles: c.roles, createdAt: c.createdAt, revokedAt: c.revokedAt ?? null, keys: (keys.get(c.id) ?? []).map(keyJson) })),
      ),
    );
  } else if (all.length === 0) {
    io.out('No clients.');
  } else {
    const now = new Date();
    for (const c of all) {
      io.out(`${c.id}  ${c.name.padEnd(28)} ${c.roles.join(',').padEnd(16)} ${c.revokedAt ? `revoked ${c.revokedAt.toISOString()}` : 'active'}`);
      for (const key of keys.get(c.id) ?? []) io.out(`  ${key.id}  ${key.prefix}…  ${keyState(key, now)}`);
    }
  }
  return 0;
};

const createKey: Command = async (clients, em, { rest, values }, io) => {
  const clientId = rest[0];
  if (!clientId) {
    io.err(`create-key needs a client id\n\n${USAGE}`);
    return 64;
  }
  const expiresAt = values['expires-at'] === undefined ? null : await parseTime(values['expires-at']);
  const result = await clients.createKey(em, { clientId, expiresAt });
  if (!result.ok) {
    for (const error of result.errors) io.err(`${error.field.join('.')}: ${error.message} (${error.code})`);
    return 65;
  }
  const { apiKey, key } = result;
  if (values.json) {
    io.out(JSON.stringify({ ...keyJson(apiKey), key }));
  } else {
    io.out(`Created key ${apiKey.id} for ${clientId}${apiKey.expiresAt ? `, expiring ${apiKey.expiresAt.toISOString()}` : ''}; the client's other keys keep working.`);
    io.out(`Key (shown once, store it now): ${key}`);
  }
  return 0;
};

const revokeKey: Command = async (clients, em, { rest }, io) => {
  const keyId = rest[0];
  if (!keyId) {
    io.err(`revoke-key needs a key id\n\n${USAGE}`);
    return 64;
  }
  const result = await clients.revokeKey(em, keyId);
  if (!result.ok) {
    io.err(result.errors.map((error) => error.message).join('\n'));
    return 65;
  }
  io.out(`Revoked key ${result.apiKey.id} (${result.apiKey.prefix}…) of ${result.apiKey.clientId} at ${result.apiKey.revokedAt!.toISOString()}.`);
  return 0;
};

const revoke: Command = async (clients, em, { rest }, io) => {
  const id = rest[0];
  if (!id) {
    io.err(`revoke needs a client id\n\n${USAGE}`);
    return 64;
  }
  const result = await clients.revoke(em, id);
  if (!result.ok) {
    io.err(result.errors.map((error) => error.message).join('\n'));
    return 65;
  }
  io.out(`Revoked ${result.client.name} (${result.client.id}) at ${result.client.revokedAt!.toISOString()}.`);
  return 0;
};

const COMMANDS: Partial<Record<string, Command>> = { create, list, 'create-key': createKey, 'revoke-key': revokeKey, revoke };

/** A key as `list --json` and `create-key --json` show it: never its hash. */
function keyJson(key: ApiKey) {
  return { id: key.id, clientId: key.clientId, prefix: key.prefix, createdAt: key.createdAt, expiresAt: key.expiresAt ?? null, lastUsedAt: key.lastUsedAt ?? null, revokedAt: key.revokedAt ?? null };
}

function keyState(key: ApiKey, now: Date): string {
  const used = key.lastUsedAt ? `last used ${key.lastUsedAt.toISOString()}` : 'never used';
  if (key.revokedAt) return `revoked ${key.revokedAt.toISOString()}, ${used}`;
  if (key.expiresAt) return `${key.expiresAt <= now ? 'expired' : 'expires'} ${key.expiresAt.toISOString()}, ${used}`;
  return used;
}

/** An ISO 8601 date-time as the API's DateTime takes it; anything else an invalid Date, which createKey refuses by name. */
async function parseTime(text: string): Promise<Date> {
  const { DateTimeResolver } = await import('graphql-scalars');
  try {
    return DateTimeResolver.parseValue(text);
  } catch {
    return new Date(Number.NaN);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const code = await runClientCli(process.argv.slice(2), {
    env: process.env,
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
  });
  process.exit(code);
}
