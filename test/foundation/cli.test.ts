// The client CLI: create (plain and --json), list, revoke, create-key and revoke-key, and the keys
// it prints work on a gateway started on the same database. One command opens the database from its
// environment as `npm run client` does (and the last test a PostgreSQL it cannot reach); the others
// run on a database the file opened once, since what they check is the command, not the opening,
// and each open of the embedded database costs half a second of CPU.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runClientCli } from '../../src/cli/client.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { entities } from '../../src/entities.js';
import { createLogger } from '../../src/lib/logger.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { execute, startTestGateway } from '../support/gateway.js';
import { ViewerQuery } from './operations.js';

let database: TestDatabase;
/** The database the commands share while it is open; closed before a gateway starts on it (PGlite belongs to one process at a time). */
let shared: Database | undefined;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await shared?.close();
  await database?.drop();
});

async function run(argv: string[], opened: Database | undefined): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runClientCli(argv, { env: { NODE_ENV: 'test', ...database.env }, out: (text) => out.push(text), err: (text) => err.push(text), ...(opened ? { database: opened } : {}) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A command on the file's open database. */
async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  shared ??= await openDatabase({ databaseUrl: database.env.DATABASE_URL, dataDir: database.env.DATA_DIR!, logger: createLogger({ level: 'silent' }), entities });
  return run(argv, shared);
}

/** A command that opens the database from its environment and closes it, as `npm run client` does. */
async function cliOpeningItself(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  await closeShared();
  return run(argv, undefined);
}

async function closeShared(): Promise<void> {
  await shared?.close();
  shared = undefined;
}

/** A gateway on the file's database, once the commands have let go of it. */
async function gatewayOnDatabase() {
  await closeShared();
  return startTestGateway({ database, env: { DEMO_CLIENTS: 'false' } });
}

describe('npm run client', () => {
  it('creates, lists and revokes clients whose keys work on the gateway', async () => {
    const created = await cliOpeningItself('create', '--name', 'web-cashier', '--role', 'CASHIER', '--json');
    expect(created.code).toBe(0);
    const json = JSON.parse(created.out) as { id: string; name: string; roles: string[]; key: string };
    expect(json).toEqual({ id: expect.stringMatching(/^cli_/), name: 'web-cashier', roles: ['CASHIER'], key: expect.stringMatching(/^gw_/) });

    const plain = await cli('create', '--name', 'back-office', '--role', 'PAYOUTS', '--role', 'REFUNDS');
    expect(plain.code).toBe(0);
    expect(plain.out).toMatch(/Key \(shown once, store it now\): gw_/);
    const otherKey = /gw_[A-Za-z0-9_-]{43}/.exec(plain.out)![0];

    const list = await cli('list', '--json');
    const listed = JSON.parse(list.out) as Array<{ name: string; roles: string[]; keyPrefix: string }>;
    expect(listed.map((client) => [client.name, client.roles])).toEqual([
      ['web-cashier', ['CASHIER']],
      ['back-office', ['PAYOUTS', 'REFUNDS']],
    ]);
    expect(list.out).not.toContain(json.key);

    expect((await cli('revoke', json.id)).code).toBe(0);

    const t = await gatewayOnDatabase();
    try {
      const revoked = await execute(t.gateway.graphqlUrl, ViewerQuery, {}, { key: json.key });
      expect(revoked.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      const active = await execute(t.gateway.graphqlUrl, ViewerQuery, {}, { key: otherKey });
      expect(active.data?.viewer.name).toBe('back-office');
    } finally {
      await t.close();
    }
  });

  it('adds a key to a client and revokes one key, leaving the other working, and lists the keys without secrets', async () => {
    // given: a client with its first key
    const created = JSON.parse((await cli('create', '--name', 'rolled-cashier', '--role', 'CASHIER', '--json')).out) as { id: string; key: string };

    // when: a second key that expires in a day, made with --json, and one made plainly
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const second = await cli('create-key', created.id, '--expires-at', expiresAt, '--json');
    expect(second.code).toBe(0);
    const secondKey = JSON.parse(second.out) as { id: string; clientId: string; prefix: string; expiresAt: string; key: string };
    expect(secondKey).toMatchObject({ id: expect.stringMatching(/^key_/), clientId: created.id, prefix: secondKey.key.slice(0, 10), expiresAt, key: expect.stringMatching(/^gw_/) });
    const plain = await cli('create-key', created.id);
    expect(plain.out).toMatch(/Key \(shown once, store it now\): gw_/);

    // then: list shows the three keys, never a key itself
    const list = await cli('list', '--json');
    const listed = (JSON.parse(list.out) as Array<{ id: string; keys: Array<{ id: string; prefix: string; expiresAt: string | null; revokedAt: string | null }> }>).find((client) => client.id === created.id)!;
    expect(listed.keys.map((key) => [key.prefix, key.expiresAt])).toEqual([
      [created.key.slice(0, 10), null],
      [secondKey.prefix, expiresAt],
      [expect.any(String), null],
    ]);
    for (const key of [created.key, secondKey.key]) expect(list.out).not.toContain(key);
    expect((await cli('list')).out).toContain(`${listed.keys[1]!.id}  ${secondKey.prefix}…  expires ${expiresAt}, never used`);

    // when: the first key is revoked
    const revoked = await cli('revoke-key', listed.keys[0]!.id);
    expect(revoked.code).toBe(0);
    expect(revoked.out).toMatch(new RegExp(`^Revoked key ${listed.keys[0]!.id} \\(${created.key.slice(0, 10)}…\\) of ${created.id} at `));

    // then: on a gateway, the first key is refused and the second works
    const t = await gatewayOnDatabase();
    try {
      expect((await execute(t.gateway.graphqlUrl, ViewerQuery, {}, { key: created.key })).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      expect((await execute(t.gateway.graphqlUrl, ViewerQuery, {}, { key: secondKey.key })).data?.viewer.id).toBe(created.id);
    } finally {
      await t.close();
    }
  });

  it('refuses a key with an expiry that is past or not a time, and a key id it does not know', async () => {
    const created = JSON.parse((await cli('create', '--name', 'refused-keys', '--role', 'CASHIER', '--json')).out) as { id: string };
    const past = await cli('create-key', created.id, '--expires-at', '2020-01-01T00:00:00Z');
    expect(past).toMatchObject({ code: 65, err: expect.stringMatching(/^expiresAt: expiresAt must be in the future .* \(EXPIRY_OUT_OF_RANGE\)$/) });
    const notATime = await cli('create-key', created.id, '--expires-at', 'tomorrow');
    expect(notATime).toMatchObject({ code: 65, err: expect.stringMatching(/^expiresAt: .*ISO 8601.* \(INVALID_FORMAT\)$/) });
    expect(await cli('create-key', 'cli_nope')).toMatchObject({ code: 65, err: expect.stringMatching(/No client with id cli_nope/) });
    expect((await cli('create-key')).code).toBe(64);
    expect(await cli('revoke-key', 'key_nope')).toMatchObject({ code: 65, err: 'No key with id key_nope' });
    const list = JSON.parse((await cli('list', '--json')).out) as Array<{ id: string; keys: unknown[] }>;
    expect(list.find((client) => client.id === created.id)!.keys).toHaveLength(1);
  });

  it('explains bad usage and bad input', async () => {
    expect((await cli('create', '--name', 'x')).code).toBe(64);
    const badRole = await cli('create', '--name', 'bad-role', '--role', 'BOSS');
    expect(badRole.code).toBe(65);
    expect(badRole.err).toMatch(/Unknown role "BOSS"/);
    const duplicate = await cli('create', '--name', 'web-cashier', '--role', 'CASHIER');
    expect(duplicate.err).toMatch(/already exists/);
    expect((await cli('revoke', 'cli_nope')).err).toMatch(/No client with id cli_nope/);
    expect((await cli('frobnicate')).code).toBe(64);
  });

  it('says in one line that PostgreSQL cannot be reached: where (host and port, never the password), why and what to change', async () => {
    const err: string[] = [];
    const url = 'postgres://ops:not-a-real-password@127.0.0.1:1/gateway';
    const code = await runClientCli(['list'], { env: { NODE_ENV: 'test', DATABASE_URL: url }, out: () => undefined, err: (text) => err.push(text) });
    expect(code).toBe(69);
    expect(err).toEqual([expect.stringMatching(/^DATABASE_URL \(127\.0\.0\.1:1, database gateway\): connection refused: .*correct the host and port in DATABASE_URL/)]);
    expect(err.join('\n')).not.toContain('not-a-real-password');
  });
});
