// Trusted documents: the cashier apps' operations are persisted by hash in the manifest codegen writes
// (client/generated/persisted-documents.json). Any client may send a manifest document by hash
// (Apollo's extensions.persistedQuery, or a documentId); a client an admin marks
// trusted-documents-only runs those and nothing else, over HTTP (POST and GET) and graphql-ws alike.

import { print } from 'graphql';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CashierContextDocument, CreateDepositDocument, DepositDocument, DepositUpdatedDocument } from '../../client/generated/graphql.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { subscribed } from '../deposits/support.js';
import { execute, postRaw, startTestGateway, type TestGateway } from '../support/gateway.js';
import type { TestDatabase } from '../support/database.js';
import { wsClient } from '../support/ws.js';
import { AdminActionsQuery, ApiClientRulesQuery, CreateApiClientMutation, SetApiClientTrustedDocumentsMutation } from './operations.js';

let t: TestGateway & { database: TestDatabase };
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

/** The hash codegen embeds in a client document (`__meta__.hash`): `sha256:<hex>`, the manifest's key. */
function documentId(document: unknown): string {
  return (document as { __meta__: { hash: string } }).__meta__.hash;
}

/** Apollo's form of the same hash: bare hex in `extensions.persistedQuery`. */
function persistedQuery(document: unknown): { persistedQuery: { version: 1; sha256Hash: string } } {
  return { persistedQuery: { version: 1, sha256Hash: documentId(document).replace(/^sha256:/, '') } };
}

const UNKNOWN_HASH = 'f'.repeat(64);

async function newCashier(name: string): Promise<{ id: string; key: string }> {
  const created = await execute(t.gateway.graphqlUrl, CreateApiClientMutation, { input: { name, roles: ['CASHIER'] } }, { key: t.keys.admin });
  expect(created.errors).toBeUndefined();
  return { id: created.data!.createApiClient.client!.id, key: created.data!.createApiClient.key! };
}

async function setTrusted(id: string, trustedDocumentsOnly: boolean) {
  const set = await execute(t.gateway.graphqlUrl, SetApiClientTrustedDocumentsMutation, { input: { id, trustedDocumentsOnly } }, { key: t.keys.admin });
  expect(set.errors).toBeUndefined();
  expect(set.data!.setApiClientTrustedDocuments.userErrors).toEqual([]);
  return set.data!.setApiClientTrustedDocuments.client!;
}

/** A GET request as a browser cache-friendly client sends it (Apollo's CSRF rule wants the preflight header). */
async function get(params: Record<string, unknown>, key: string): Promise<{ status: number; body: any }> {
  const search = new URLSearchParams(Object.entries(params).map(([name, value]) => [name, typeof value === 'string' ? value : JSON.stringify(value)]));
  const response = await fetch(`${t.gateway.graphqlUrl}?${search}`, { headers: { authorization: `Bearer ${key}`, 'apollo-require-preflight': 'true' } });
  return { status: response.status, body: await response.json() };
}

/** Runs one graphql-ws operation with a raw payload; resolves with its first result or its error. */
function wsOnce(client: Client, payload: Record<string, unknown>): Promise<{ data?: any; errors?: any[] }> {
  return new Promise((resolve) => {
    const unsubscribe = client.subscribe(payload as never, {
      next: (result) => {
        unsubscribe();
        resolve(result as { data?: any; errors?: any[] });
      },
      error: (error) => resolve({ errors: Array.isArray(error) ? error : [error] }),
      complete: () => undefined,
    });
  });
}

describe('an admin marking a client trusted-documents-only', () => {
  it('is audited and shown on the client', async () => {
    // given
    const webCashier = t.gateway.demoClients.find((client) => client.name.startsWith('web-cashier'))!;
    // when
    const marked = await setTrusted(webCashier.id, true);
    // then
    expect(marked).toEqual({ id: webCashier.id, name: webCashier.name, trustedDocumentsOnly: true });
    const listed = await execute(t.gateway.graphqlUrl, ApiClientRulesQuery, { first: 100 }, { key: t.keys.admin });
    expect(listed.errors).toBeUndefined();
    const rules = new Map(listed.data!.apiClients.edges.map(({ node }) => [node.name, node.trustedDocumentsOnly]));
    expect(rules.get(webCashier.name)).toBe(true);
    expect(rules.get(t.gateway.demoClients.find((client) => client.name.startsWith('mobile-cashier'))!.name)).toBe(false);
    const trail = await execute(t.gateway.graphqlUrl, AdminActionsQuery, { filter: { objectId: webCashier.id, action: 'setApiClientTrustedDocuments' } }, { key: t.keys.admin });
    expect(trail.errors).toBeUndefined();
    expect(trail.data!.adminActions.edges.map(({ node }) => node)).toEqual([
      expect.objectContaining({ action: 'setApiClientTrustedDocuments', outcome: 'OK', objects: [{ kind: 'input.id', id: webCashier.id }] }),
    ]);

    // and unmarked again, as the demo client started
    expect((await setTrusted(webCashier.id, false)).trustedDocumentsOnly).toBe(false);
  });

  it('answers NOT_FOUND in userErrors for an unknown client', async () => {
    const set = await execute(t.gateway.graphqlUrl, SetApiClientTrustedDocumentsMutation, { input: { id: 'cli_00000000000000000000000000', trustedDocumentsOnly: true } }, { key: t.keys.admin });
    expect(set.errors).toBeUndefined();
    expect(set.data!.setApiClientTrustedDocuments).toEqual({ client: null, userErrors: [expect.objectContaining({ field: ['id'], code: 'NOT_FOUND' })] });
  });

  it('refuses an admin that would restrict itself (it could not undo it), and changes nothing', async () => {
    const admin = t.gateway.demoClients.find((client) => client.roles.includes('ADMIN'))!;
    const set = await execute(t.gateway.graphqlUrl, SetApiClientTrustedDocumentsMutation, { input: { id: admin.id, trustedDocumentsOnly: true } }, { key: t.keys.admin });
    expect(set.data!.setApiClientTrustedDocuments).toEqual({ client: null, userErrors: [{ field: ['id'], code: 'CANNOT_RESTRICT_SELF', message: expect.stringContaining('could not undo it') }] });
    // Still free to send full documents, and to lift the rule from itself (a no-op) or set it on others.
    expect((await execute(t.gateway.graphqlUrl, SetApiClientTrustedDocumentsMutation, { input: { id: admin.id, trustedDocumentsOnly: false } }, { key: t.keys.admin })).data!.setApiClientTrustedDocuments.userErrors).toEqual([]);
  });

  it('is refused to a cashier', async () => {
    const set = await execute(t.gateway.graphqlUrl, SetApiClientTrustedDocumentsMutation, { input: { id: 'cli_00000000000000000000000000', trustedDocumentsOnly: false } }, { key: t.keys.mobileCashier });
    expect(set.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

describe('a trusted-documents-only client', () => {
  it('runs manifest documents by hash over HTTP: POST with either form of the hash, and GET', async () => {
    // given: a cashier that has been used (its key is in the key cache), then marked
    const cashier = await newCashier('trusted-http');
    expect((await execute(t.gateway.graphqlUrl, CashierContextDocument, {}, { key: cashier.key })).errors).toBeUndefined();
    await setTrusted(cashier.id, true);

    // when: Apollo's persisted-query extension
    const context = await postRaw(t.gateway.graphqlUrl, { extensions: persistedQuery(CashierContextDocument) }, cashier.key);
    // then
    expect(context.body.errors).toBeUndefined();
    expect(context.body.data.viewer).toMatchObject({ id: cashier.id, roles: ['CASHIER'] });

    // when: a documentId with variables (a mutation)
    const created = await postRaw(t.gateway.graphqlUrl, { documentId: documentId(CreateDepositDocument), variables: { input: CARD_INPUT } }, cashier.key);
    // then
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createDeposit.userErrors).toEqual([]);
    const depositId: string = created.body.data.createDeposit.deposit.id;

    // when: GET, with either form
    const byExtension = await get({ extensions: persistedQuery(DepositDocument), variables: { id: depositId } }, cashier.key);
    const byDocumentId = await get({ documentId: documentId(DepositDocument), variables: { id: depositId } }, cashier.key);
    // then
    expect(byExtension.body.errors).toBeUndefined();
    expect(byExtension.body.data.deposit.id).toBe(depositId);
    expect(byDocumentId.body.errors).toBeUndefined();
    expect(byDocumentId.body.data.deposit.id).toBe(depositId);
  });

  it('is refused a full document (PERSISTED_DOCUMENT_REQUIRED) and an unknown hash (PERSISTED_DOCUMENT_NOT_FOUND) over HTTP, even as an APQ retry', async () => {
    // given
    const cashier = await newCashier('trusted-refusals');
    await setTrusted(cashier.id, true);

    // when: a full document
    const full = await execute(t.gateway.graphqlUrl, CashierContextDocument, {}, { key: cashier.key });
    // then
    expect(full.status).toBe(403);
    expect(full.data).toBeUndefined();
    expect(full.errors).toEqual([expect.objectContaining({ extensions: { code: 'PERSISTED_DOCUMENT_REQUIRED' } })]);

    // when: an unknown hash, in each form and over GET
    const unknownApq = await postRaw(t.gateway.graphqlUrl, { extensions: { persistedQuery: { version: 1, sha256Hash: UNKNOWN_HASH } } }, cashier.key);
    const unknownId = await postRaw(t.gateway.graphqlUrl, { documentId: `sha256:${UNKNOWN_HASH}` }, cashier.key);
    const unknownGet = await get({ documentId: `sha256:${UNKNOWN_HASH}` }, cashier.key);
    // then: not Apollo's PERSISTED_QUERY_NOT_FOUND, which would ask the client to send the document in full
    for (const refused of [unknownApq, unknownId, unknownGet]) {
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([expect.objectContaining({ extensions: { code: 'PERSISTED_DOCUMENT_NOT_FOUND' } })]);
    }

    // when: the APQ retry (the hash with its full document), then the hash alone again
    const query = '{ viewer { id } }';
    const { createHash } = await import('node:crypto');
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    const retry = await postRaw(t.gateway.graphqlUrl, { query, extensions: { persistedQuery: { version: 1, sha256Hash } } }, cashier.key);
    const again = await postRaw(t.gateway.graphqlUrl, { extensions: { persistedQuery: { version: 1, sha256Hash } } }, cashier.key);
    // then: refused, and never registered in Apollo's cache
    expect(retry.body.errors).toEqual([expect.objectContaining({ extensions: { code: 'PERSISTED_DOCUMENT_REQUIRED' } })]);
    expect(again.body.errors).toEqual([expect.objectContaining({ extensions: { code: 'PERSISTED_DOCUMENT_NOT_FOUND' } })]);
  });

  it("may send a manifest document's exact text in full (safelisting)", async () => {
    const cashier = await newCashier('trusted-safelisted-text');
    await setTrusted(cashier.id, true);
    const manifest = (await import('../../client/generated/persisted-documents.json', { with: { type: 'json' } })).default as Record<string, string>;
    const text = manifest[documentId(CashierContextDocument)]!;

    const sent = await postRaw(t.gateway.graphqlUrl, { query: text }, cashier.key);

    expect(sent.body.errors).toBeUndefined();
    expect(sent.body.data.viewer.id).toBe(cashier.id);
    // The same operation printed otherwise is another text, and refused.
    const printed = await postRaw(t.gateway.graphqlUrl, { query: print(CashierContextDocument) }, cashier.key);
    expect(printed.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_DOCUMENT_REQUIRED');
  });

  it('subscribes by hash over graphql-ws, and is refused a full document or an unknown hash there', async () => {
    // given
    const cashier = await newCashier('trusted-ws');
    await setTrusted(cashier.id, true);
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${cashier.key}` });
    try {
      // when: a manifest subscription by hash (graphql-ws wants a query: an empty one)
      const updates: Array<{ id: string; status: string }> = [];
      let resolveSucceeded: () => void = () => undefined;
      const succeeded = new Promise<void>((resolve) => (resolveSucceeded = resolve));
      const errors: unknown[] = [];
      await subscribed(t, () =>
        ws.subscribe(
          { query: '', extensions: persistedQuery(DepositUpdatedDocument), variables: {} },
          {
            next: (result) => {
              if (result.errors) errors.push(...result.errors);
              const update = (result.data as { depositUpdated?: { id: string; status: string } } | undefined)?.depositUpdated;
              if (!update) return;
              updates.push(update);
              if (update.status === 'SUCCEEDED') resolveSucceeded();
            },
            error: (error) => errors.push(error),
            complete: () => undefined,
          },
        ),
      );
      const created = await postRaw(t.gateway.graphqlUrl, { documentId: documentId(CreateDepositDocument), variables: { input: CARD_INPUT } }, cashier.key);
      expect(created.body.errors).toBeUndefined();
      const depositId: string = created.body.data.createDeposit.deposit.id;
      // then: its updates arrive, followed to SUCCEEDED
      await succeeded;
      expect(errors).toEqual([]);
      expect(updates.every((update) => update.id === depositId)).toBe(true);

      // when: a documentId, then a full document, then an unknown hash
      const byId = await wsOnce(ws, { query: '', documentId: documentId(DepositDocument), variables: { id: depositId } });
      const full = await wsOnce(ws, { query: print(DepositDocument), variables: { id: depositId } });
      const unknown = await wsOnce(ws, { query: '', extensions: { persistedQuery: { version: 1, sha256Hash: UNKNOWN_HASH } } });
      // then
      expect(byId.errors).toBeUndefined();
      expect(byId.data.deposit).toMatchObject({ id: depositId, status: 'SUCCEEDED' });
      expect(full.errors).toEqual([expect.objectContaining({ extensions: { code: 'PERSISTED_DOCUMENT_REQUIRED' } })]);
      expect(unknown.errors).toEqual([expect.objectContaining({ extensions: { code: 'PERSISTED_DOCUMENT_NOT_FOUND' } })]);
    } finally {
      await ws.dispose();
    }
  });

  it('sends full documents again once unmarked, at once', async () => {
    // given
    const cashier = await newCashier('trusted-unmarked');
    await setTrusted(cashier.id, true);
    expect((await execute(t.gateway.graphqlUrl, CashierContextDocument, {}, { key: cashier.key })).errors?.[0]?.extensions?.code).toBe('PERSISTED_DOCUMENT_REQUIRED');
    // when
    await setTrusted(cashier.id, false);
    // then
    const full = await execute(t.gateway.graphqlUrl, CashierContextDocument, {}, { key: cashier.key });
    expect(full.errors).toBeUndefined();
    expect(full.data!.viewer.id).toBe(cashier.id);
  });

  // Two instances need a database server: the embedded one belongs to one process.
  it.skipIf(!process.env.DATABASE_URL)('is refused on every instance as soon as the change commits, as a revocation is', async () => {
    // given: a second instance on the same database, which has the cashier's key in its cache
    const other = await startTestGateway({ database: t.database });
    try {
      const cashier = await newCashier('trusted-two-instances');
      expect((await execute(other.gateway.graphqlUrl, CashierContextDocument, {}, { key: cashier.key })).errors).toBeUndefined();
      // when: marked through the first instance
      await setTrusted(cashier.id, true);
      // then: the second one refuses full documents once the change's notification arrives (its
      // key cache would otherwise keep the old rule for 30 s)
      await expect
        .poll(async () => (await execute(other.gateway.graphqlUrl, CashierContextDocument, {}, { key: cashier.key })).errors?.[0]?.extensions?.code, { interval: 50 })
        .toBe('PERSISTED_DOCUMENT_REQUIRED');
    } finally {
      await other.close();
    }
  });
});

describe('other clients', () => {
  it('keep sending full documents, and may send manifest hashes too', async () => {
    // given: the web cashier marked, the mobile cashier not
    const cashier = await newCashier('untrusted-neighbour');
    const marked = await newCashier('trusted-neighbour');
    await setTrusted(marked.id, true);

    // when
    const full = await execute(t.gateway.graphqlUrl, CashierContextDocument, {}, { key: cashier.key });
    const byHash = await postRaw(t.gateway.graphqlUrl, { extensions: persistedQuery(CashierContextDocument) }, cashier.key);
    const byId = await get({ documentId: documentId(CashierContextDocument) }, cashier.key);
    // then
    expect(full.errors).toBeUndefined();
    expect(full.data!.viewer.id).toBe(cashier.id);
    expect(byHash.body.errors).toBeUndefined();
    expect(byHash.body.data.viewer.id).toBe(cashier.id);
    expect(byId.body.errors).toBeUndefined();

    // when: a hash outside the manifest
    const unknownApq = await postRaw(t.gateway.graphqlUrl, { extensions: { persistedQuery: { version: 1, sha256Hash: UNKNOWN_HASH } } }, cashier.key);
    const unknownId = await postRaw(t.gateway.graphqlUrl, { documentId: `sha256:${UNKNOWN_HASH}` }, cashier.key);
    // then: Apollo's automatic persisted queries still answer the first (the client then sends the
    // document in full); a document id is the manifest's alone
    expect(unknownApq.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(unknownId.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_DOCUMENT_NOT_FOUND');
  });
});
