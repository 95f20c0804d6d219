// Signing secrets sealed at rest (docs/secrets.md), through the public surface: endpoints created
// and rotated over GraphQL, receivers verifying with the Standard Webhooks reference library, and
// the database read the way a stolen dump would be, every column of every table. A gateway started
// on the same database with another key cannot sign: nothing is sent, each attempt says why, the
// endpoint is FAILING, and the key given back (or a rotation) lets deliveries go out again. Keys
// rotate: new writes take the first key, older values still open, `secrets reseal` moves them, and
// the old key can then be dropped.

import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSecretsCli } from '../../src/cli/secrets.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { cardDeposit, clientId, createEndpoint, deliveries, EndpointsQuery, FAST_NOTIFICATIONS, RedeliverMutation, RotateMutation, startReceiver, typesOf, type Receiver } from './support.js';

const receivers: Receiver[] = [];
const opened: Array<{ close(): Promise<void> }> = [];
const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const gateway of opened.reverse()) await gateway.close();
  await Promise.all(receivers.map((receiver) => receiver.close()));
  for (const database of databases) await database.drop();
});

/** A `keyId:base64` entry of 32 fresh random bytes. */
const newKey = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;

async function receiver(): Promise<Receiver> {
  const started = await startReceiver();
  receivers.push(started);
  return started;
}

async function database(): Promise<TestDatabase> {
  const created = await createTestDatabase();
  databases.push(created);
  return created;
}

/** A gateway on `db` with these keys (none: the data directory's key file); closed after the file if the test does not close it. */
async function gateway(db: TestDatabase, secretsKey?: string, env: Record<string, string> = {}): Promise<TestGateway> {
  const started = await startTestGateway({ database: db, env: { ...FAST_NOTIFICATIONS, RECONCILER_ENABLED: 'false', ...(secretsKey ? { GATEWAY_SECRETS_KEY: secretsKey } : {}), ...env } });
  opened.push(started);
  return started;
}

async function secretsCli(db: TestDatabase, secretsKey: string, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runSecretsCli(argv, { env: { NODE_ENV: 'test', ...db.env, GATEWAY_SECRETS_KEY: secretsKey }, out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The endpoint's stored secrets, as the database holds them. */
async function stored(t: TestGateway, endpointId: string): Promise<{ secret: string; previous_secret: string | null }> {
  const [row] = await t.gateway.db.fork().execute<Array<{ secret: string; previous_secret: string | null }>>('select secret, previous_secret from notification_endpoint where id = ?', [endpointId]);
  return row!;
}

/**
 * Every column of every table that can hold text or bytes (text, varchar, char, bytea, json,
 * jsonb, arrays), read as a dump would give it: the `table.column` names where any needle occurs.
 * Each needle is looked for as text, and as bytes inside the column's bytes.
 */
async function columnsHolding(t: TestGateway, needles: { texts: string[]; bytes: Buffer[] }): Promise<string[]> {
  const em = t.gateway.db.fork();
  const columns = await em.execute<Array<{ table_name: string; column_name: string; data_type: string }>>(
    `select c.table_name, c.column_name, c.data_type from information_schema.columns c
     join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
     where c.table_schema not in ('pg_catalog', 'information_schema')
       and c.data_type in ('text', 'character varying', 'character', 'bytea', 'json', 'jsonb', 'ARRAY')
     order by c.table_name, c.column_name`,
  );
  // Needles are base64, hex or `whsec_` text and raw bytes written as hex: safe as SQL literals.
  for (const text of needles.texts) expect(text).toMatch(/^[A-Za-z0-9+/=_-]+$/);
  const tables = new Map<string, typeof columns>();
  for (const column of columns) tables.set(column.table_name, [...(tables.get(column.table_name) ?? []), column]);
  const found: string[] = [];
  for (const [table, tableColumns] of tables) {
    const conditions = tableColumns.map((column) => {
      const name = `"${column.column_name}"`;
      const bytes = column.data_type === 'bytea' ? name : `convert_to(${name}::text, 'UTF8')`;
      const checks = [
        ...needles.texts.map((text) => `position(convert_to('${text}', 'UTF8') in ${bytes}) > 0`),
        ...needles.bytes.map((raw) => `position(decode('${raw.toString('hex')}', 'hex') in ${bytes}) > 0`),
      ];
      return `count(*) filter (where ${checks.join(' or ')})::int as "${column.column_name}"`;
    });
    const [counts] = await em.execute<Array<Record<string, number>>>(`select ${conditions.join(', ')} from "${table}"`);
    for (const [column, count] of Object.entries(counts!)) if (Number(count) > 0) found.push(`${table}.${column}`);
  }
  return found;
}

/** What a dump must not hold of a `whsec_` secret: itself, its base64 body (also URL-safe), the key's raw bytes and their hex. */
function traces(secret: string): { texts: string[]; bytes: Buffer[] } {
  const body = secret.slice('whsec_'.length);
  const raw = Buffer.from(body, 'base64');
  return { texts: [secret, body, raw.toString('base64url'), raw.toString('hex')], bytes: [raw] };
}

async function endpointState(t: TestGateway, endpointId: string): Promise<string | undefined> {
  const result = await execute(t.gateway.graphqlUrl, EndpointsQuery, {}, { key: t.keys.admin });
  expect(result.errors).toBeUndefined();
  return result.data!.notificationEndpoints.find((endpoint) => endpoint.id === endpointId)?.state;
}

describe('signing secrets at rest', () => {
  it('are in no column of any table after an endpoint is created and its secret rotated, and deliveries still verify', async () => {
    // The embedded default's key: the data directory's own, generated at this first start.
    const db = await database();
    const t = await gateway(db);
    const hooks = await receiver();
    const endpoint = await createEndpoint(t, hooks, clientId(t, 'web-cashier'), ['deposit.created']);
    const first = hooks.secrets[0]!;
    expect((await stored(t, endpoint.id)).secret).toMatch(/^v1\.local\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    // The scan reads real data: it finds what is there (the URL, the sealed value), and then not the secret.
    expect(await columnsHolding(t, { texts: [Buffer.from(hooks.url).toString('hex')], bytes: [Buffer.from(hooks.url)] })).toContain('notification_endpoint.url');
    expect(await columnsHolding(t, { texts: [(await stored(t, endpoint.id)).secret.split('.')[3]!], bytes: [] })).toEqual(['notification_endpoint.secret']);
    expect(await columnsHolding(t, traces(first))).toEqual([]);

    const before = await cardDeposit(t, t.keys.webCashier);
    await expect.poll(() => typesOf(hooks, before)).toEqual(['deposit.created']);
    expect(hooks.delivered.find((item) => item.data.id === before)!.verifiedBy).toEqual([0]);

    const rotated = await execute(t.gateway.graphqlUrl, RotateMutation, { id: endpoint.id }, { key: t.keys.admin });
    expect(rotated.errors).toBeUndefined();
    const second = rotated.data!.rotateNotificationSecret.secret!;
    hooks.secrets.push(second);
    const both = await stored(t, endpoint.id);
    expect(both.secret).toMatch(/^v1\.local\./);
    expect(both.previous_secret).toMatch(/^v1\.local\./);
    const during = await cardDeposit(t, t.keys.webCashier);
    await expect.poll(() => typesOf(hooks, during)).toEqual(['deposit.created']);
    expect(hooks.delivered.find((item) => item.data.id === during)!.verifiedBy).toEqual([0, 1]);

    expect(await columnsHolding(t, { texts: [...traces(first).texts, ...traces(second).texts], bytes: [...traces(first).bytes, ...traces(second).bytes] })).toEqual([]);
    for (const secret of [first, second]) expect(t.logs.filter((line) => line.includes(secret.slice(6)))).toEqual([]);
  });

  it('cannot sign under another key: nothing is sent, each attempt says why, the endpoint is FAILING; the key given back, or a rotation, lets deliveries go out', async () => {
    const db = await database();
    const original = newKey('a');
    const a = await gateway(db, original);
    const kept = await receiver();
    const rotatedAway = await receiver();
    const one = await createEndpoint(a, kept, clientId(a, 'web-cashier'), ['deposit.created']);
    const two = await createEndpoint(a, rotatedAway, clientId(a, 'web-cashier'), ['deposit.created']);
    await a.close();

    // When the gateway starts again on that database (a restored dump, say) with another key
    const other = newKey('other');
    // Retries ten minutes apart: a redelivery below goes at once, not when the lane's retry is due.
    const slowRetries = { NOTIFICATION_BACKOFF_BASE_MS: '600000' };
    const b = await gateway(db, other, slowRetries);
    expect(b.logs.some((line) => line.includes('sealed under keys this gateway is not given') && line.includes('"keyIds":["a"]'))).toBe(true);
    const depositId = await cardDeposit(b, b.keys.webCashier);
    // Then nothing is sent: each attempt is recorded as SECRET_UNAVAILABLE, and both endpoints are FAILING
    for (const endpoint of [one, two]) {
      await expect.poll(async () => (await deliveries(b, endpoint.id)).find((delivery) => delivery.subjectId === depositId)?.attempts[0]?.errorCode).toBe('SECRET_UNAVAILABLE');
      // (retried on the back-off, each time the same)
      const [delivery] = (await deliveries(b, endpoint.id)).filter((item) => item.subjectId === depositId);
      expect(delivery!.state).toBe('PENDING');
      for (const attempt of delivery!.attempts) {
        expect(attempt).toMatchObject({ errorCode: 'SECRET_UNAVAILABLE', httpStatus: null, responseExcerpt: `The value at notification_endpoint.secret of ${endpoint.id} is sealed under key a, which is not configured` });
      }
      expect(await endpointState(b, endpoint.id)).toBe('FAILING');
    }
    expect(kept.requests + rotatedAway.requests).toBe(0);
    expect(b.logs.some((line) => line.includes('"errorCode":"SECRET_UNAVAILABLE"') && line.includes('notification not sent'))).toBe(true);

    // A rotation is one way back: the new secret signs at once, alone (the old one cannot)
    const rotated = await execute(b.gateway.graphqlUrl, RotateMutation, { id: two.id }, { key: b.keys.admin });
    expect(rotated.data!.rotateNotificationSecret).toMatchObject({ endpoint: { previousSecretExpiresAt: null }, userErrors: [] });
    rotatedAway.secrets.push(rotated.data!.rotateNotificationSecret.secret!);
    const stuck = (await deliveries(b, two.id)).find((item) => item.subjectId === depositId)!;
    expect((await execute(b.gateway.graphqlUrl, RedeliverMutation, { deliveryId: stuck.id }, { key: b.keys.admin })).data!.redeliverNotification.userErrors).toEqual([]);
    await expect.poll(() => typesOf(rotatedAway, depositId)).toEqual(['deposit.created']);
    expect(rotatedAway.delivered.find((item) => item.data.id === depositId)!.verifiedBy).toEqual([1]);
    await expect.poll(() => endpointState(b, two.id)).toBe('HEALTHY');
    await b.close();

    // The key given back (after the one that sealed since): the first endpoint's delivery goes out, signed with its own secret
    const c = await gateway(db, `${other},${original}`, slowRetries);
    const waiting = (await deliveries(c, one.id)).find((item) => item.subjectId === depositId)!;
    expect((await execute(c.gateway.graphqlUrl, RedeliverMutation, { deliveryId: waiting.id }, { key: c.keys.admin })).data!.redeliverNotification.userErrors).toEqual([]);
    await expect.poll(() => typesOf(kept, depositId)).toEqual(['deposit.created']);
    expect(kept.delivered.find((item) => item.data.id === depositId)!.verifiedBy).toEqual([0]);
    await expect.poll(() => endpointState(c, one.id)).toBe('HEALTHY');
    expect(c.logs.some((line) => line.includes('sealed under keys this gateway is not given'))).toBe(false);
    // No log line of any of the three holds a key
    for (const material of [original, other].map((entry) => entry.split(':')[1]!)) expect([...a.logs, ...b.logs, ...c.logs].filter((line) => line.includes(material))).toEqual([]);
  });

  it('rotate keys: the first key seals new secrets, the others still open theirs, `secrets reseal` moves them, and the old key can then be dropped', async () => {
    const db = await database();
    const keyA = newKey('a');
    const keyB = newKey('b');
    const first = await gateway(db, keyA);
    const old = await receiver();
    const older = await createEndpoint(first, old, clientId(first, 'web-cashier'), ['deposit.created']);
    await first.close();

    // Two keys, the new one first: the old endpoint still signs, a new one is sealed under the new key
    const both = await gateway(db, `${keyB},${keyA}`);
    expect(both.logs.some((line) => line.includes('still sealed under older keys'))).toBe(true);
    const fresh = await receiver();
    const newer = await createEndpoint(both, fresh, clientId(both, 'web-cashier'), ['deposit.created']);
    expect((await stored(both, older.id)).secret).toMatch(/^v1\.a\./);
    expect((await stored(both, newer.id)).secret).toMatch(/^v1\.b\./);
    const during = await cardDeposit(both, both.keys.webCashier);
    await expect.poll(() => [typesOf(old, during), typesOf(fresh, during)]).toEqual([['deposit.created'], ['deposit.created']]);

    // The re-seal runs beside the gateway on PostgreSQL; the embedded database belongs to one process.
    if (db.kind === 'pglite') await both.close();
    const status = await secretsCli(db, `${keyB},${keyA}`, 'status', '--json');
    expect(status.code).toBe(0);
    expect(JSON.parse(status.out)).toMatchObject({
      currentKeyId: 'b',
      counts: [
        { table: 'notification_endpoint', column: 'secret', keyId: 'a', count: 1, configured: true },
        { table: 'notification_endpoint', column: 'secret', keyId: 'b', count: 1, configured: true },
      ],
    });
    // A batch of one row: the re-seal goes through the table batch by batch
    const resealed = await secretsCli(db, `${keyB},${keyA}`, 'reseal', '--batch-size', '1');
    expect(resealed).toMatchObject({ code: 0, err: '' });
    expect(resealed.out).toBe('Sealed 1 secret anew under key b.\nEvery secret is sealed under key b: the other keys may be dropped.');
    const again = await secretsCli(db, `${keyB},${keyA}`, 'reseal', '--json');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ keyId: 'b', resealed: 0, unopened: [], remaining: [{ column: 'secret', keyId: 'b', count: 2 }] });
    if (db.kind === 'postgresql') {
      // The running gateway still signs the moved secret (it holds both keys)
      const after = await cardDeposit(both, both.keys.webCashier);
      await expect.poll(() => typesOf(old, after)).toEqual(['deposit.created']);
      await both.close();
    }

    // The old key dropped: both endpoints sign
    const last = await gateway(db, keyB);
    expect((await stored(last, older.id)).secret).toMatch(/^v1\.b\./);
    expect(last.logs.some((line) => /sealed under (keys this gateway is not given|older keys)/.test(line))).toBe(false);
    const dropped = await cardDeposit(last, last.keys.webCashier);
    await expect.poll(() => [typesOf(old, dropped), typesOf(fresh, dropped)]).toEqual([['deposit.created'], ['deposit.created']]);
    expect(old.delivered.every((item) => item.verifiedBy[0] === 0)).toBe(true);
    await last.close();

    // A re-seal with a key that opens nothing leaves every value as it is and says so
    const lost = await secretsCli(db, newKey('c'), 'reseal');
    expect(lost.code).toBe(65);
    expect(lost.out).toMatch(/^Sealed 0 secrets anew under key c\.\nStill under other keys: b\.$/);
    expect(lost.err.split('\n').filter((line) => line.startsWith('Left as it is:')).sort()).toEqual(
      [older.id, newer.id].sort().map((id) => `Left as it is: notification_endpoint.secret of ${id} (KEY_NOT_CONFIGURED, key b).`),
    );
  });

  it('sealed plain ones an earlier version stored at the next start; until then they still sign', async () => {
    const db = await database();
    const key = newKey('a');
    const t = await gateway(db, key);
    const hooks = await receiver();
    const endpoint = await createEndpoint(t, hooks, clientId(t, 'web-cashier'), ['deposit.created']);
    // As a gateway before sealing stored it
    const plain = `whsec_${randomBytes(32).toString('base64')}`;
    await t.gateway.db.fork().execute('update notification_endpoint set secret = ? where id = ?', [plain, endpoint.id]);
    hooks.secrets.unshift(plain);
    const before = await cardDeposit(t, t.keys.webCashier);
    await expect.poll(() => typesOf(hooks, before)).toEqual(['deposit.created']);
    expect(hooks.delivered.find((item) => item.data.id === before)!.verifiedBy).toEqual([0]);
    await t.close();

    const restarted = await gateway(db, key);
    expect((await stored(restarted, endpoint.id)).secret).toMatch(/^v1\.a\./);
    expect(await columnsHolding(restarted, traces(plain))).toEqual([]);
    expect(restarted.logs.some((line) => line.includes('sealed the secrets an earlier version kept plain') && line.includes('"sealed":1'))).toBe(true);
    const after = await cardDeposit(restarted, restarted.keys.webCashier);
    await expect.poll(() => typesOf(hooks, after)).toEqual(['deposit.created']);
    expect(hooks.delivered.find((item) => item.data.id === after)!.verifiedBy).toEqual([0]);
  });
});

describe("the data directory's key", () => {
  it('that cannot be used stops the start before the database opens, naming the file and never what it holds', async () => {
    const db = await database();
    const file = path.join(db.env.DATA_DIR!, 'secrets.key');
    const short = randomBytes(16).toString('base64');
    writeFileSync(file, `local:${short}\n`, { mode: 0o600 });
    const refused = await startTestGateway({ database: db }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(refused?.message).toBe(`The secrets key file ${file}: key local is 16 bytes, not 32: give the base64 of 32 random bytes (openssl rand -base64 32). Restore it from a backup of the data directory, or set GATEWAY_SECRETS_KEY.`);
    expect(refused?.message).not.toContain(short);
  });
});

describe('npm run secrets', () => {
  const run = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runSecretsCli(argv, { env: { NODE_ENV: 'test' }, out: (text) => out.push(text), err: (text) => err.push(text) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('makes a new key entry, and explains bad usage before it opens anything', async () => {
    const made = await run('new-key', '--id', 'k2');
    expect(made).toMatchObject({ code: 0, err: '' });
    expect(made.out).toMatch(/^k2:[A-Za-z0-9+/]{43}=$/);
    expect((await run('new-key')).out).toMatch(/^k[0-9]{8}:/);
    expect(await run('new-key', '--id', 'k.2')).toMatchObject({ code: 64, err: expect.stringMatching(/^--id: A key id is 1 to 32 letters/) });
    expect(await run('reseal', '--batch-size', '0')).toMatchObject({ code: 64, err: expect.stringMatching(/^--batch-size: /) });
    expect((await run('frobnicate')).code).toBe(64);
    expect((await run()).code).toBe(64);
  });
});
