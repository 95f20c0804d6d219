// Traces as an operator's collector receives them (docs/tracing.md): a gateway with the standard
// OTEL_* settings at 100% sampling, pointed at an OTLP/HTTP receiver of the test's own; a cashier
// that sends a `traceparent`; a card deposit that the sandbox settles by webhook; a back office
// that is notified. The spans, their parents and links, their attributes, and what none may hold.

import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation } from '../deposits/operations.js';
import { execute, postRaw, startTestGateway, type TestGateway } from '../support/gateway.js';
import { clientId, createEndpoint, FAST_NOTIFICATIONS, startReceiver, type Receiver } from '../notifications/support.js';
import { tracingOn } from '../../src/lib/tracing.js';
import { SPAN_KIND, startOtlpReceiver, type AttributeValue, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

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

describe('a deposit traced from the cashier to the back office', () => {
  let t: TestGateway;
  const cashierTrace = hex(16);
  const cashierSpan = hex(8);

  beforeAll(async () => {
    t = await startTestGateway({
      env: {
        ...FAST_NOTIFICATIONS,
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'gateway-under-test',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '1',
        OTEL_BSP_SCHEDULE_DELAY: '50',
      },
    });
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
    const timeline = await postRaw(t.gateway.graphqlUrl, { query: 'query ($id: ID!) { deposit(id: $id) { timeline { edges { node { kind traceId } } } } }', variables: { id: depositId } }, t.keys.admin);
    const entries = (timeline.body as { data: { deposit: { timeline: { edges: Array<{ node: { kind: string; traceId: string | null } }> } } } }).data.deposit.timeline.edges.map((edge) => edge.node);
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
        expect(value, `${span.name} ${where} holds a card or account number`).not.toMatch(/\d{12,19}/);
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
