// Traces as an operator's collector receives them (docs/tracing.md): a gateway with the standard
// OTEL_* settings at 100% sampling, pointed at an OTLP/HTTP receiver of the test's own; a cashier
// that sends a `traceparent`, over HTTP and over graphql-ws; a card deposit that the sandbox
// settles by webhook; a back office that is notified. The spans, their parents and links, their
// attributes, what none may hold, the trace id each timeline entry keeps, the statements tracing
// adds to a webhook (none), and the links a gateway started again makes to a trace stored before.

import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { print, type ExecutionResult } from 'graphql';
import type { Client, SubscribePayload } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation } from '../deposits/operations.js';
import { CHILE_INPUT } from '../payouts/fixtures.js';
import { CreatePayoutMutation } from '../payouts/operations.js';
import { createTestDatabase } from '../support/database.js';
import { execute, postRaw, startTestGateway, type TestGateway } from '../support/gateway.js';
import { clientId, createEndpoint, FAST_NOTIFICATIONS, startReceiver, type Receiver } from '../notifications/support.js';
import { tracingOn } from '../../src/lib/tracing/sdk.js';
import { parseTraceparent } from '../../src/lib/tracing/trace-context.js';
import { wsClient } from '../support/ws.js';
import { approvedWithWebhookLost, paymentEnvelope, readDeposit, sendWebhook, webhookAndFollowUpStatements } from '../webhooks/support.js';
import { SPAN_KIND, startOtlpReceiver, type AttributeValue, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
/** A card or account number: a run of 12 to 19 digits standing alone, not a stretch of an id (a ULID's random part can hold such a run). */
const CARD_OR_ACCOUNT_NUMBER = /(?<![0-9A-Za-z])\d{12,19}(?![0-9A-Za-z])/;

/** The cashier apps' persisted documents, by hash (TRUSTED_DOCUMENTS_FILE's default). */
const manifest = JSON.parse(readFileSync(new URL('../../client/generated/persisted-documents.json', import.meta.url), 'utf8')) as Record<string, string>;

/** One query or mutation over graphql-ws: its single result, once the server completes it. */
function wsResult(client: Client, payload: SubscribePayload): Promise<ExecutionResult> {
  return new Promise((resolve, reject) => {
    let result: ExecutionResult | undefined;
    client.subscribe(payload, {
      next: (value) => void (result = value as ExecutionResult),
      error: (error) => (Array.isArray(error) ? resolve({ errors: error }) : reject(error instanceof Error ? error : new Error(JSON.stringify(error)))),
      complete: () => (result ? resolve(result) : reject(new Error('completed without a result'))),
    });
  });
}

let collector: OtlpReceiver;
let backOffice: Receiver;

beforeAll(async () => {
  collector = await startOtlpReceiver();
  backOffice = await startReceiver();
});

afterAll(async () => {
  await collector?.close();
  await backOffice?.close();
});

/** Every attribute value of a span, its links, events and resource, with where it was, as text. */
function everyValue(span: ReceivedSpan): Array<[string, string]> {
  const flat = (where: string, attributes: Record<string, AttributeValue>) => Object.entries(attributes).map(([key, value]): [string, string] => [`${where}${key}`, JSON.stringify(value)]);
  return [
    ...flat('', span.attributes),
    ...span.links.flatMap((link) => flat('link.', link.attributes)),
    ...span.events.flatMap((event) => flat(`event.${event.name}.`, event.attributes)),
    ...flat('resource.', span.resource),
    ['name', span.name],
    ['status.message', span.status.message ?? ''],
  ];
}

/** The standard OTEL_* settings of a gateway that sends every span to the test's receiver, in batches 50 ms apart. */
const TRACING_ENV = () => ({
  OTEL_TRACES_EXPORTER: 'otlp',
  OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  OTEL_SERVICE_NAME: 'gateway-under-test',
  OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
  OTEL_TRACES_SAMPLER_ARG: '1',
  OTEL_BSP_SCHEDULE_DELAY: '50',
});

/** A timeline entry with the fields these tests read of each kind. */
interface TimelineNode {
  kind: string;
  traceId: string | null;
  id?: string;
  type?: string;
  toStatus?: string | null;
  deliveryOutcome?: string;
  jobKind?: string;
  status?: string;
  eventId?: string;
  checkOutcome?: string;
}

/** A payment's whole timeline, as an admin reads it. */
async function timelineOf(t: TestGateway, kind: 'deposit' | 'refund' | 'payout', id: string): Promise<TimelineNode[]> {
  const query = `query ($id: ID!, $first: Int) { ${kind}(id: $id) { timeline(first: $first) { edges { node {
    kind traceId
    ... on EventEntry { id: eventId type toStatus }
    ... on WebhookDeliveryEntry { id deliveryOutcome }
    ... on JobEntry { id jobKind status }
    ... on NotificationAttemptEntry { id eventId }
    ... on ReconciliationCheckEntry { id checkOutcome }
  } } } } }`;
  const answer = await postRaw(t.gateway.graphqlUrl, { query, variables: { id, first: 100 } }, t.keys.admin);
  const body = answer.body as { errors?: unknown; data: Record<string, { timeline: { edges: Array<{ node: TimelineNode }> } }> };
  expect(body.errors).toBeUndefined();
  return body.data[kind]!.timeline.edges.map((edge) => edge.node);
}

describe('a deposit traced from the cashier to the back office', () => {
  let t: TestGateway;
  const cashierTrace = hex(16);
  const cashierSpan = hex(8);

  beforeAll(async () => {
    t = await startTestGateway({ env: { ...FAST_NOTIFICATIONS, ...TRACING_ENV() } });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('is one story: request, operation, provider call and statements in the cashier\'s trace; the webhook, jobs and notification linked to it', async () => {
    expect(tracingOn()).toBe(true);
    const endpoint = await createEndpoint(t, backOffice, clientId(t, 'web-cashier'));
    const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier, headers: { traceparent: `00-${cashierTrace}-${cashierSpan}-01` } });
    expect(created.errors).toBeUndefined();
    const depositId = created.data!.createDeposit.deposit!.id;

    // The back office hears that the sandbox's webhook settled it.
    const settled = () => backOffice.delivered.find((received) => received.data.id === depositId && received.type === 'deposit.status_changed' && received.data.status === 'SUCCEEDED');
    await expect.poll(settled).toBeDefined();
    const settledNotice = settled()!;

    // The payment keeps the trace of the request that made it.
    const [row] = await t.gateway.db.fork().execute<Array<{ trace_context: string | null }>>('select trace_context from deposit where id = ?', [depositId]);
    expect(row!.trace_context).toMatch(new RegExp(`^00-${cashierTrace}-[0-9a-f]{16}-01$`));

    const linkedToCashier = (span: ReceivedSpan) => span.links.some((link) => link.traceId === cashierTrace);
    const notificationSpanOf = (traceparent: string) => collector.spans.find((span) => `00-${span.traceId}-${span.spanId}-01` === traceparent);
    // Spans arrive in batches as they end: the notification's, then its job run's.
    await expect.poll(() => collector.spans.some((span) => span.spanId === notificationSpanOf(String(settledNotice.headers.traceparent))?.parentSpanId)).toBe(true);
    await expect.poll(() => collector.spans.filter((span) => span.attributes['payments.webhook.outcome'] !== undefined && linkedToCashier(span)).length).toBeGreaterThan(0);
    const spans = collector.spans;
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const parentOf = (span: ReceivedSpan) => (span.parentSpanId ? byId.get(span.parentSpanId) : undefined);

    // The cashier's request: a server span whose parent is the cashier's span.
    const request = spans.find((span) => span.traceId === cashierTrace && span.kind === SPAN_KIND.SERVER);
    expect(request).toMatchObject({
      name: 'POST /graphql',
      parentSpanId: cashierSpan,
      attributes: expect.objectContaining({ 'http.request.method': 'POST', 'http.route': '/graphql', 'url.path': '/graphql', 'http.response.status_code': 200 }),
      resource: expect.objectContaining({ 'service.name': 'gateway-under-test' }),
    });
    // The operation, named by its type and name, a child of the request.
    const operation = spans.find((span) => span.traceId === cashierTrace && span.name === 'mutation CreateDeposit');
    expect(operation).toMatchObject({ parentSpanId: request!.spanId, attributes: expect.objectContaining({ 'graphql.operation.type': 'mutation', 'graphql.operation.name': 'CreateDeposit' }) });
    expect(row!.trace_context!.split('-')[2]).toBe(operation!.spanId);
    // The provider call, a client span under the operation.
    const providerCalls = spans.filter((span) => span.traceId === cashierTrace && span.attributes['payments.provider.operation'] !== undefined);
    expect(providerCalls.length).toBeGreaterThan(0);
    for (const call of providerCalls) {
      expect(call.kind).toBe(SPAN_KIND.CLIENT);
      expect(call.attributes).toMatchObject({ 'payments.provider': 'deposit-gateway', 'http.request.method': expect.any(String), 'server.address': '127.0.0.1', 'http.response.status_code': expect.any(Number) });
      let ancestor = parentOf(call);
      while (ancestor && ancestor !== operation) ancestor = parentOf(ancestor);
      expect(ancestor, `${call.name} is not under the operation`).toBe(operation);
    }
    // The deposit's timeline: each provider call attempt carries the trace it was made in.
    await t.gateway.services.callRecords.flush();
    const entries = await timelineOf(t, 'deposit', depositId);
    const createCall = entries.find((entry) => entry.kind === 'PROVIDER_CALL');
    expect(createCall?.traceId).toBe(cashierTrace);
    // Statements: pg's spans, when the gateway runs on PostgreSQL (PGlite has no driver to instrument).
    const statements = spans.filter((span) => span.traceId === cashierTrace && span.attributes['db.system.name'] !== undefined);
    if (t.gateway.db.kind === 'postgresql') {
      expect(statements.length).toBeGreaterThan(0);
      expect(statements.every((span) => span.kind === SPAN_KIND.CLIENT && typeof span.attributes['db.query.text'] === 'string')).toBe(true);
      expect(statements.some((span) => String(span.attributes['db.query.text']).includes('insert into deposit ('))).toBe(true);
    } else {
      expect(statements).toEqual([]);
    }

    // The sandbox's webhook: its own request, whose delivery span links to the cashier's trace.
    const delivery = spans.find((span) => span.attributes['payments.webhook.outcome'] !== undefined && linkedToCashier(span))!;
    expect(delivery.traceId).not.toBe(cashierTrace);
    expect(delivery).toMatchObject({ name: 'webhook deposit-gateway', attributes: expect.objectContaining({ 'payments.provider': 'deposit-gateway', 'payments.subject.type': 'deposit', 'payments.webhook.event': expect.any(String) }) });
    // (Its request's status is there unless the sandbox stopped waiting first, which it does on a slow machine.)
    expect(parentOf(delivery)).toMatchObject({ kind: SPAN_KIND.SERVER, name: 'POST /webhooks/:provider/:account', attributes: expect.objectContaining({ 'url.path': '/webhooks/deposit-gateway/dg-test' }) });
    expect(delivery.links.find((link) => link.traceId === cashierTrace)!.spanId).toBe(operation!.spanId);

    // The notification: a client span under its job's run, linked to the cashier's trace, whose
    // traceparent the back office received.
    const notification = notificationSpanOf(String(settledNotice.headers.traceparent))!;
    expect(notification).toMatchObject({
      kind: SPAN_KIND.CLIENT,
      name: 'POST',
      attributes: expect.objectContaining({ 'payments.notification.endpoint_id': endpoint.id, 'payments.event.type': 'deposit.status_changed', 'http.response.status_code': 200, 'server.address': '127.0.0.1' }),
    });
    expect(linkedToCashier(notification)).toBe(true);
    const job = parentOf(notification)!;
    expect(job).toMatchObject({ name: 'job notifications.deliver', parentSpanId: undefined, attributes: expect.objectContaining({ 'payments.job.kind': 'notifications.deliver' }) });
    // Follow-up jobs about the deposit (its details, its reconciliation check) link to it too.
    const depositJobs = spans.filter((span) => span.name.startsWith('job ') && linkedToCashier(span));
    expect(depositJobs.length).toBeGreaterThan(0);

    // Every entry of the deposit's timeline carries the trace of the span that wrote it: the
    // cashier's request for its creation, the delivery's span for the webhook and the change it
    // applied, each job's run, each notification attempt's job run.
    const ran = (entry: TimelineNode) => entry.kind !== 'JOB' || entry.status === 'SUCCEEDED' || entry.status === 'FAILED';
    await expect.poll(async () => (await timelineOf(t, 'deposit', depositId)).filter((entry) => ran(entry) && entry.traceId === null)).toEqual([]);
    const story = await timelineOf(t, 'deposit', depositId);
    // A job's or an attempt's row is written before its span ends, and spans reach the receiver
    // in batches: wait for the span of each entry read.
    const spanOfJob = (entry: TimelineNode) => collector.spans.find((span) => span.attributes['payments.job.id'] === entry.id);
    const spanOfAttempt = (entry: TimelineNode) => collector.spans.find((span) => span.kind === SPAN_KIND.CLIENT && span.attributes['payments.event.id'] === entry.eventId);
    const spanOfDelivery = (entry: TimelineNode) => collector.spans.find((span) => span.name === 'webhook deposit-gateway' && span.traceId === entry.traceId);
    const unseen = (entry: TimelineNode) =>
      (entry.kind === 'JOB' && ran(entry) && !spanOfJob(entry)) || (entry.kind === 'NOTIFICATION_ATTEMPT' && !spanOfAttempt(entry)) || (entry.kind === 'WEBHOOK_DELIVERY' && !spanOfDelivery(entry));
    await expect.poll(() => story.filter(unseen).map((entry) => `${entry.kind} ${entry.id}`)).toEqual([]);
    const traceOf = (what: string, found: ReceivedSpan | undefined) => {
      expect(found, `the span of ${what}`).toBeDefined();
      return found!.traceId;
    };
    const deliveries = collector.spans.filter((span) => span.name === 'webhook deposit-gateway');
    expect(story.filter((entry) => entry.kind === 'EVENT' && entry.type === 'deposit.created').map((entry) => entry.traceId)).toEqual([cashierTrace]);
    for (const entry of story.filter((each) => each.kind === 'WEBHOOK_DELIVERY')) {
      const span = deliveries.find((each) => each.traceId === entry.traceId);
      expect(span?.attributes['payments.webhook.outcome'], `delivery ${entry.id}`).toBe(entry.deliveryOutcome!.toLowerCase());
    }
    const settledBy = story.find((entry) => entry.kind === 'EVENT' && entry.toStatus === 'SUCCEEDED')!;
    const settlingDelivery = deliveries.find((span) => span.traceId === settledBy.traceId);
    expect(settlingDelivery && linkedToCashier(settlingDelivery)).toBe(true);
    expect(settlingDelivery?.attributes['payments.webhook.outcome']).toBe('applied');
    const jobs = story.filter((entry) => entry.kind === 'JOB' && ran(entry));
    expect(jobs.map((entry) => entry.jobKind)).toContain('deposit.fetch_details');
    for (const entry of jobs) expect(entry.traceId).toBe(traceOf(`job ${entry.id}`, spanOfJob(entry)));
    // The details the job fetched are a change of its own, in its run's trace.
    const fetched = story.find((entry) => entry.kind === 'JOB' && entry.jobKind === 'deposit.fetch_details')!;
    expect(story.filter((entry) => entry.kind === 'EVENT' && entry.traceId === fetched.traceId).length).toBeGreaterThan(0);
    const attempts = story.filter((entry) => entry.kind === 'NOTIFICATION_ATTEMPT');
    expect(attempts.length).toBeGreaterThan(0);
    for (const entry of attempts) {
      expect(entry.traceId).toBe(traceOf(`notification of ${entry.eventId}`, spanOfAttempt(entry)));
    }

    // The log lines of the request carry its trace and span.
    const requestLine = t.logs.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.trace_id === cashierTrace);
    expect(requestLine).toMatchObject({ span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });

    // A request that names its document by hash: the span carries the hash, never the text.
    const text = 'query TracedByHash { __typename }';
    const hash = createHash('sha256').update(text).digest('hex');
    const byHash = await fetch(t.gateway.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.keys.admin}` },
      body: JSON.stringify({ query: text, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } }),
    });
    expect(byHash.status).toBe(200);
    await expect.poll(() => collector.spans.find((span) => span.name === 'query TracedByHash')?.attributes).toMatchObject({ 'graphql.operation.type': 'query', 'graphql.operation.name': 'TracedByHash', 'graphql.document.id': hash });

    // What no span may hold: keys, secrets, signatures, the customer's details (the variables), card or account numbers, headers.
    const { merchantAccounts } = t.gateway.config;
    const secrets = [
      ...Object.values(t.keys).filter(Boolean),
      ...backOffice.secrets,
      ...merchantAccounts.flatMap((account) => [account.apiKey, ...account.webhookSecrets]),
      String(settledNotice.headers['webhook-signature']),
    ];
    const customer = CARD_INPUT.customer as Record<string, string>;
    const variables = [customer.email!, customer.phone!, customer.lastName!, customer.address1!, customer.zipCode!];
    expect(secrets.length).toBeGreaterThan(4);
    for (const span of collector.spans) {
      for (const [where, value] of everyValue(span)) {
        for (const secret of secrets) expect(value, `${span.name} ${where} holds a key or secret`).not.toContain(secret);
        for (const variable of variables) expect(value, `${span.name} ${where} holds a variable`).not.toContain(variable);
        expect(value, `${span.name} ${where} holds a card or account number`).not.toMatch(CARD_OR_ACCOUNT_NUMBER);
        expect(value, `${span.name} ${where} holds a credential`).not.toMatch(/bearer|authorization|signature|v1,/i);
        expect(value, `${span.name} ${where} holds the query text`).not.toMatch(/createDeposit\(/);
      }
      expect(Object.keys(span.attributes).filter((key) => key.startsWith('http.request.header') || key.includes('variables') || key === 'graphql.document')).toEqual([]);
    }
  });

  it('makes a client span per attempt of a retried provider call, the second with its resend count', async () => {
    // given: a settled deposit, and a provider whose next lookup answers 503
    const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier });
    const id = created.data!.createDeposit.deposit!.id;
    const feeOf = async () => ((await postRaw(t.gateway.graphqlUrl, { query: 'query ($id: ID!) { deposit(id: $id) { fee { amount } } }', variables: { id } }, t.keys.admin)).body as { data?: { deposit?: { fee: unknown } } }).data?.deposit?.fee ?? null;
    await expect.poll(feeOf).not.toBeNull();
    t.gateway.sandboxes.get('deposit-gateway')!.controls.failNext({ method: 'GET', status: 503, count: 1 });

    // when: an admin reconciles it, in a trace of the admin tool's own
    const adminTrace = hex(16);
    const reconciled = await fetch(t.gateway.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.keys.admin}`, traceparent: `00-${adminTrace}-${hex(8)}-01` },
      body: JSON.stringify({ query: 'mutation ($id: ID!) { reconcileDeposit(id: $id) { outcome userErrors { code } } }', variables: { id } }),
    });
    expect(((await reconciled.json()) as { errors?: unknown }).errors).toBeUndefined();

    // then: the lookup's two attempts, in that trace: a 503, then a resend that succeeds
    const lookups = () => collector.spans.filter((span) => span.traceId === adminTrace && span.attributes['payments.provider.operation'] === 'getDeposit');
    await expect.poll(() => lookups().length).toBe(2);
    const [first, resend] = [lookups().find((span) => span.attributes['http.request.resend_count'] === undefined), lookups().find((span) => span.attributes['http.request.resend_count'] !== undefined)];
    expect(first).toMatchObject({ kind: SPAN_KIND.CLIENT, attributes: expect.objectContaining({ 'http.response.status_code': 503 }) });
    expect(resend).toMatchObject({ kind: SPAN_KIND.CLIENT, attributes: expect.objectContaining({ 'http.response.status_code': 200, 'http.request.resend_count': 1 }) });
    // and the check itself is on the deposit's timeline in that trace
    await t.gateway.services.callRecords.flush();
    expect((await timelineOf(t, 'deposit', id)).filter((entry) => entry.kind === 'RECONCILIATION_CHECK').at(-1)?.traceId).toBe(adminTrace);
  });

  it('links each reconciliation check to the trace of the request that made its payment: an admin\'s check of a deposit, a pass over an account\'s payouts', async () => {
    // given: a deposit and a payout, each made in a trace of its caller's
    const depositTrace = hex(16);
    const deposit = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier, headers: { traceparent: `00-${depositTrace}-${hex(8)}-01` } });
    expect(deposit.errors).toBeUndefined();
    const depositId = deposit.data!.createDeposit.deposit!.id;
    const payoutTrace = hex(16);
    const payout = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: { ...CHILE_INPUT, idempotencyKey: `traced-payout-${hex(8)}` } }, { key: t.keys.admin, headers: { traceparent: `00-${payoutTrace}-${hex(8)}-01` } });
    expect(payout.errors).toBeUndefined();
    expect(payout.data!.createPayout.userErrors).toEqual([]);
    const payoutId = payout.data!.createPayout.payout!.id;
    const stored = async (table: 'deposit' | 'payout', id: string) => {
      const [row] = await t.gateway.db.fork().execute<Array<{ trace_context: string | null }>>(`select trace_context from ${table} where id = ?`, [id]);
      return parseTraceparent(row!.trace_context)!;
    };
    const [depositContext, payoutContext] = [await stored('deposit', depositId), await stored('payout', payoutId)];
    expect([depositContext?.traceId, payoutContext?.traceId]).toEqual([depositTrace, payoutTrace]);
    const linksTo = (span: ReceivedSpan | undefined, target: { traceId: string; spanId: string }) => span?.links.some((link) => link.traceId === target.traceId && link.spanId === target.spanId) ?? false;

    // when: an admin reconciles the deposit, in a trace of the admin tool's own
    const adminTrace = hex(16);
    const reconciled = await fetch(t.gateway.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.keys.admin}`, traceparent: `00-${adminTrace}-${hex(8)}-01` },
      body: JSON.stringify({ query: 'mutation CheckDeposit($id: ID!) { reconcileDeposit(id: $id) { outcome } }', variables: { id: depositId } }),
    });
    expect(((await reconciled.json()) as { errors?: unknown }).errors).toBeUndefined();

    // then: the operation's span, in the admin's trace, links to the deposit's
    await expect.poll(() => collector.spans.find((span) => span.traceId === adminTrace && span.name === 'mutation CheckDeposit')).toBeDefined();
    expect(linksTo(collector.spans.find((span) => span.traceId === adminTrace && span.name === 'mutation CheckDeposit'), depositContext)).toBe(true);

    // when: the background reconciler checks the payout's account (the payout made an hour old, so it is due)
    await t.gateway.db.fork().execute("update payout set created_at = created_at - interval '1 hour' where id = ?", [payoutId]);
    await t.gateway.reconciler!.runOnce();
    await t.gateway.services.callRecords.flush();

    // then: the pass's job run links to the payout's trace, and the payout's check is on its timeline in that run's trace
    const pass = () => collector.spans.find((span) => span.name === 'job reconcile.payouts' && linksTo(span, payoutContext));
    await expect.poll(pass).toBeDefined();
    expect(pass()!.links.find((link) => link.traceId === payoutTrace)!.attributes).toEqual({ 'payments.subject.type': 'payout' });
    const checks = (await timelineOf(t, 'payout', payoutId)).filter((entry) => entry.kind === 'RECONCILIATION_CHECK');
    expect(checks.length).toBeGreaterThan(0);
    expect(checks.at(-1)!.traceId).toBe(pass()!.traceId);
  });

  it('traces graphql-ws operations as over HTTP: a server span each, the child of the traceparent its subscribe message or its connection gave, named by the operation, without variables or text', async () => {
    // given: a cashier's socket whose connection_init names a trace of the cashier app's
    const connectionTrace = hex(16);
    const connectionSpan = hex(8);
    const client = wsClient(t.gateway.graphqlUrl.replace(/^http/, 'ws'), { authorization: `Bearer ${t.keys.webCashier}`, traceparent: `00-${connectionTrace}-${connectionSpan}-01` });
    try {
      // when: a mutation whose subscribe message brings a traceparent of its own
      const operationTrace = hex(16);
      const operationSpan = hex(8);
      const created = await wsResult(client, { query: print(CreateDepositMutation), variables: { input: CARD_INPUT }, extensions: { traceparent: `00-${operationTrace}-${operationSpan}-01` } });
      expect(created.errors).toBeUndefined();
      const depositId = (created.data as { createDeposit: { deposit: { id: string } } }).createDeposit.deposit.id;

      // then: its span is a child of that traceparent, and the deposit keeps it as its request's
      const mutationSpan = () => collector.spans.find((span) => span.traceId === operationTrace && span.name === 'mutation CreateDeposit');
      await expect.poll(mutationSpan).toBeDefined();
      expect(mutationSpan()).toMatchObject({
        kind: SPAN_KIND.SERVER,
        parentSpanId: operationSpan,
        attributes: { 'graphql.operation.type': 'mutation', 'graphql.operation.name': 'CreateDeposit', 'network.protocol.name': 'websocket' },
      });
      const [row] = await t.gateway.db.fork().execute<Array<{ trace_context: string | null }>>('select trace_context from deposit where id = ?', [depositId]);
      expect(row!.trace_context).toBe(`00-${operationTrace}-${mutationSpan()!.spanId}-01`);
      const providerCall = collector.spans.find((span) => span.traceId === operationTrace && span.attributes['payments.provider.operation'] === 'createDeposit');
      expect(providerCall?.kind).toBe(SPAN_KIND.CLIENT);

      // when: a subscription, which brings none: the connection's is its parent
      const messages: Array<{ data?: unknown; errors?: unknown }> = [];
      const dispose = client.subscribe({ query: 'subscription WatchDeposit($id: ID!) { depositUpdated(id: $id) { id status } }', variables: { id: depositId } }, { next: (message) => void messages.push(message), error: () => {}, complete: () => {} });
      try {
        // then: its span covers the subscribe until it is set up: it ends (and is exported) while the subscription lives on
        const subscriptionSpan = () => collector.spans.find((span) => span.traceId === connectionTrace && span.name === 'subscription WatchDeposit');
        await expect.poll(subscriptionSpan).toBeDefined();
        expect(subscriptionSpan()).toMatchObject({ kind: SPAN_KIND.SERVER, parentSpanId: connectionSpan, attributes: { 'graphql.operation.type': 'subscription', 'graphql.operation.name': 'WatchDeposit', 'network.protocol.name': 'websocket' } });
        expect(messages.filter((message) => message.errors !== undefined)).toEqual([]);
      } finally {
        dispose();
      }
      const statusOf = async () => ((await postRaw(t.gateway.graphqlUrl, { query: 'query ($id: ID!) { deposit(id: $id) { status } }', variables: { id: depositId } }, t.keys.admin)).body as { data: { deposit: { status: string } } }).data.deposit.status;
      await expect.poll(statusOf).toBe('SUCCEEDED');

      // when: the cashier app claims the credit with the manifest's document, by its hash alone
      const [hash] = Object.entries(manifest).find(([, text]) => text.startsWith('mutation ClaimDepositCredit('))!;
      const sha256Hash = hash.replace(/^sha256:/, '');
      const claimed = await wsResult(client, { query: '', variables: { input: { depositId } }, extensions: { persistedQuery: { version: 1, sha256Hash } } });
      expect(claimed.errors).toBeUndefined();
      expect((claimed.data as { claimDepositCredit: { userErrors: unknown[] } }).claimDepositCredit.userErrors).toEqual([]);

      // then: the span names the document by its hash, in the connection's trace, and the claim on the deposit's timeline is in that trace
      const claimSpan = () => collector.spans.find((span) => span.traceId === connectionTrace && span.name === 'mutation ClaimDepositCredit');
      await expect.poll(claimSpan).toBeDefined();
      expect(claimSpan()!.attributes).toEqual({ 'graphql.operation.type': 'mutation', 'graphql.operation.name': 'ClaimDepositCredit', 'graphql.document.id': sha256Hash, 'network.protocol.name': 'websocket' });
      const story = await timelineOf(t, 'deposit', depositId);
      expect(story.filter((entry) => entry.kind === 'CREDIT_CLAIM').map((entry) => entry.traceId)).toEqual([connectionTrace]);
      expect(story.filter((entry) => entry.kind === 'EVENT' && entry.type === 'deposit.created').map((entry) => entry.traceId)).toEqual([operationTrace]);

      // when: an operation the server refuses before it runs
      const refused = await wsResult(client, { query: 'query Refused { nope }' });
      expect(refused.errors).toBeDefined();

      // then: a failed span with the refusal's code (unnamed, as over HTTP: no operation was resolved), and none of the operations' variables or text in any ws span
      await expect.poll(() => collector.spans.find((span) => span.traceId === connectionTrace && span.name === 'GraphQL Operation')?.attributes['error.type']).toBe('GRAPHQL_VALIDATION_FAILED');
      const wsSpans = collector.spans.filter((span) => span.attributes['network.protocol.name'] === 'websocket');
      expect(wsSpans.length).toBeGreaterThanOrEqual(4);
      const customer = CARD_INPUT.customer as Record<string, string>;
      for (const span of wsSpans) {
        expect(Object.keys(span.attributes).filter((key) => !['graphql.operation.type', 'graphql.operation.name', 'graphql.document.id', 'network.protocol.name', 'error.type'].includes(key))).toEqual([]);
        for (const [where, value] of everyValue(span)) {
          for (const variable of [customer.email!, customer.lastName!, depositId, t.keys.webCashier]) expect(value, `${span.name} ${where}`).not.toContain(variable);
          expect(value, `${span.name} ${where} holds the query text`).not.toMatch(/depositUpdated\(|claimDepositCredit\(|createDeposit\(/);
        }
      }
    } finally {
      await client.dispose();
    }
  });
});

describe('a webhook and its follow-up job, traced', () => {
  // A gateway of its own: no notification endpoint makes the webhook's commit the start of more work.
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ env: TRACING_ENV() });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('costs a webhook and its follow-up job no statement more than with tracing off: the payment\'s trace context comes with the rows they read anyway', async () => {
    // given: a deposit made in a trace, whose approval webhook was lost
    const { id } = await approvedWithWebhookLost(t);
    const [row] = await t.gateway.db.fork().execute<Array<{ trace_context: string | null }>>('select trace_context from deposit where id = ?', [id]);
    const paymentTrace = parseTraceparent(row!.trace_context)!;
    expect(paymentTrace).toBeDefined();

    // when: the webhook comes, and its fee/net follow-up runs (counted as test/performance/write-path.test.ts counts them, tracing off)
    const statements = await webhookAndFollowUpStatements(t, id);

    // then: as many statements as with tracing off, none reading the deposit, and both spans link to its trace
    expect(statements.length, statements.join('\n---\n')).toBeLessThanOrEqual(5);
    expect(statements.filter((sql) => /\bselect\b[^]*\bfrom deposit\b/i.test(sql) && !/^\s*with inserted as/i.test(sql))).toEqual([]);
    const linked = (name: string) => collector.spans.find((span) => span.name === name && span.links.some((link) => link.spanId === paymentTrace.spanId));
    await expect.poll(() => linked('webhook deposit-gateway')).toBeDefined();
    await expect.poll(() => linked('job deposit.fetch_details')).toBeDefined();
  });
});

describe('a payment\'s trace across a restart', () => {
  it('is linked from the webhook and the follow-up job a gateway started again on the same database handles, reading the context the first one stored', async () => {
    // given: a deposit made through one gateway, in a trace of its request, whose approval webhook was lost
    const database = await createTestDatabase();
    try {
      const first = await startTestGateway({ database, env: { ...FAST_NOTIFICATIONS, ...TRACING_ENV() } });
      let deposit: Awaited<ReturnType<typeof readDeposit>>;
      let paymentTrace: { traceId: string; spanId: string };
      try {
        const { id } = await approvedWithWebhookLost(first);
        deposit = await readDeposit(first, id);
        const [row] = await first.gateway.db.fork().execute<Array<{ trace_context: string | null }>>('select trace_context from deposit where id = ?', [id]);
        paymentTrace = parseTraceparent(row!.trace_context)!;
        expect(paymentTrace.traceId).toMatch(/^[0-9a-f]{32}$/);
      } finally {
        await first.close();
      }

      // when: the provider's webhook reaches a gateway started again on the same database
      const second = await startTestGateway({ database, env: { ...FAST_NOTIFICATIONS, ...TRACING_ENV() } });
      try {
        const sent = await sendWebhook(second, paymentEnvelope(deposit, 'approved'));
        expect(sent.status).toBe(200);

        // then: the deposit is settled, and the new process's webhook and follow-up spans link to the first request's trace
        expect((await readDeposit(second, deposit.id)).status).toBe('SUCCEEDED');
        const linked = (name: string) => collector.spans.find((span) => span.name === name && span.links.some((link) => link.traceId === paymentTrace.traceId && link.spanId === paymentTrace.spanId));
        await expect.poll(() => linked('webhook deposit-gateway')).toBeDefined();
        await expect.poll(() => linked('job deposit.fetch_details')).toBeDefined();
        expect(linked('webhook deposit-gateway')!.traceId).not.toBe(paymentTrace.traceId);
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
    }
  });
});

describe('with no OTEL settings', () => {
  it('sets nothing up and exports nothing, after a traced gateway in the same process', async () => {
    const before = collector.requests.length;
    const t = await startTestGateway();
    try {
      expect(tracingOn()).toBe(false);
      const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier, headers: { traceparent: `00-${hex(16)}-${hex(8)}-01` } });
      expect(created.errors).toBeUndefined();
      const [row] = await t.gateway.db.fork().execute<Array<{ trace_context: string | null }>>('select trace_context from deposit where id = ?', [created.data!.createDeposit.deposit!.id]);
      expect(row!.trace_context).toBeNull();
      expect(t.logs.some((line) => line.includes('"trace_id"'))).toBe(false);
    } finally {
      await t.close();
    }
    expect(collector.requests.length).toBe(before);
  });
});
