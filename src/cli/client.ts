// `npm run client -- <command>`: create, list and revoke internal API clients from a terminal.
//
//   client create --name web-cashier --role CASHIER [--role REFUNDS] [--account dg-test] [--json]
//   client list [--json]
//   client revoke <id>

import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { openCliDatabase, type CliIo } from './cli-database.js';

export type { CliIo };

const USAGE = `Usage:
  npm run client -- create --name <name> --role <ROLE> [--role <ROLE>...] [--account <code>...] [--json]
  npm run client -- list [--json]
  npm run client -- revoke <id>

Roles: CASHIER, PAYOUTS, REFUNDS, ADMIN. The key is printed once; only its hash is stored.`;

/** Runs the CLI and returns its exit code. */
export async function runClientCli(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        role: { type: 'string', multiple: true },
        account: { type: 'string', multiple: true },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${USAGE}`);
    return 64; // EX_USAGE
  }
  const [command, ...rest] = parsed.positionals;
  const { values } = parsed;
  if (values.help || !command) {
    io.out(USAGE);
    return values.help ? 0 : 64;
  }

  const opened = await openCliDatabase(io);
  if (!opened.ok) return opened.exitCode;
  const { config, db, logger } = opened;
  const { createServices } = await import('../services.js');
  const services = createServices({ merchantAccounts: config.merchantAccounts, providers: config.providers, logger });
  const em = db.fork();
  try {
    switch (command) {
      case 'create': {
        if (!values.name || !values.role?.length) {
          io.err(`create needs --name and at least one --role\n\n${USAGE}`);
          return 64;
        }
        const result = await services.clients.create(em, {
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
      }
      case 'list': {
        const clients = await services.clients.list(em);
        if (values.json) {
          io.out(
            JSON.stringify(
              clients.map((c) => ({ id: c.id, name: c.name, roles: c.roles, keyPrefix: c.keyPrefix, createdAt: c.createdAt, lastUsedAt: c.lastUsedAt ?? null, revokedAt: c.revokedAt ?? null })),
            ),
          );
        } else if (clients.length === 0) {
          io.out('No clients.');
        } else {
          for (const c of clients) {
            const state = c.revokedAt ? `revoked ${c.revokedAt.toISOString()}` : c.lastUsedAt ? `last used ${c.lastUsedAt.toISOString()}` : 'never used';
            io.out(`${c.id}  ${c.name.padEnd(28)} ${c.roles.join(',').padEnd(16)} ${c.keyPrefix}…  ${state}`);
          }
        }
        return 0;
      }
      case 'revoke': {
        const id = rest[0];
        if (!id) {
          io.err(`revoke needs a client id\n\n${USAGE}`);
          return 64;
        }
        const result = await services.clients.revoke(em, id);
        if (!result.ok) {
          io.err(result.errors.map((error) => error.message).join('\n'));
          return 65;
        }
        io.out(`Revoked ${result.client.name} (${result.client.id}) at ${result.client.revokedAt!.toISOString()}.`);
        return 0;
      }
      default:
        io.err(`Unknown command "${command}"\n\n${USAGE}`);
        return 64;
    }
  } finally {
    await db.close();
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
