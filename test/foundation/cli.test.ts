// The client CLI: create (plain and --json), list, revoke, and the keys it prints work on a
// gateway started on the same database.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runClientCli } from '../../src/cli/client.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { execute, startTestGateway } from '../support/gateway.js';
import { ViewerQuery } from './operations.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runClientCli(argv, { env: { NODE_ENV: 'test', ...database.env }, out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('npm run client', () => {
  it('creates, lists and revokes clients whose keys work on the gateway', async () => {
    const created = await cli('create', '--name', 'web-cashier', '--role', 'CASHIER', '--json');
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

    const t = await startTestGateway({ database, env: { DEMO_CLIENTS: 'false' } });
    try {
      const revoked = await execute(t.gateway.graphqlUrl, ViewerQuery, {}, { key: json.key });
      expect(revoked.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      const active = await execute(t.gateway.graphqlUrl, ViewerQuery, {}, { key: otherKey });
      expect(active.data?.viewer.name).toBe('back-office');
    } finally {
      await t.close();
    }
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

  it('says in one line that PostgreSQL cannot be reached, without the URL', async () => {
    const err: string[] = [];
    const url = 'postgres://ops:not-a-real-password@127.0.0.1:1/gateway';
    const code = await runClientCli(['list'], { env: { NODE_ENV: 'test', DATABASE_URL: url }, out: () => undefined, err: (text) => err.push(text) });
    expect(code).toBe(69);
    expect(err).toEqual([expect.stringMatching(/^Could not open the database at DATABASE_URL: .*ECONNREFUSED/)]);
    expect(err.join('\n')).not.toContain('not-a-real-password');
  });
});
