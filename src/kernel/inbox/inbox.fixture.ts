// A fake EntityManager that records statements and transactions, a fake provider adapter, and
// handlers that answer what each case needs: the fixture of the inbox's unit spec (inbox.spec.ts).

import { createHash } from 'node:crypto';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../lib/clock.js';
import type { DepositProvider, MerchantAccount, WebhookEvent, WebhookVerification } from '../../providers/provider.js';
import type { SqlPart } from '../events/event-log.js';
import type { RowLookup } from '../sql-intents.js';
import { WebhookInbox } from './inbox.js';
import type { ReportOutcome } from './report-outcome.js';
import type { InboxContext, WebhookSubjectHandler } from './webhook-handler.js';

/** The lookup of a deposit by its provider's reference. */
export const byReference = (columns: string[], lock: boolean): RowLookup => ({ table: 'deposit', columns, anyOf: [['provider_reference', 'pi_1']], scope: {}, lock });

export const NOW = new Date('2026-01-02T03:04:05.000Z');
const clock: Clock = { now: () => NOW };

export const ACCOUNT: MerchantAccount = { code: 'acct-1', provider: 'deposit-gateway', livemode: false, baseUrl: 'http://provider.test/v1', apiKey: 'svc_test_x', webhookSecrets: ['whsec'] };
const QR_ACCOUNT: MerchantAccount = { ...ACCOUNT, code: 'acct-qr', provider: 'qr-gateway' };

export const depositEvent = (more: Partial<WebhookEvent> = {}): WebhookEvent => ({
  eventId: 'evt_1',
  name: 'payment.approved',
  livemode: false,
  subject: { kind: 'deposit', reference: 'pi_1', status: 'SUCCEEDED', providerStatus: 'approved' },
  ...more,
});

export type Respond = (sql: string, params: unknown[]) => unknown[] | Error;

/**
 * An EntityManager that records its statements and transactions; `respond` answers each statement
 * (an Error rejects it). The inbox's insert answers its id (a fresh delivery) unless told otherwise.
 */
export class FakeEm {
  readonly log: string[] = [];
  readonly executed: SqlPart[] = [];
  readonly config = {};
  private inTx = false;

  constructor(private readonly respond: Respond = () => []) {}

  isInTransaction(): boolean {
    return this.inTx;
  }

  begin(): Promise<void> {
    this.inTx = true;
    this.log.push('begin');
    return Promise.resolve();
  }

  commit(): Promise<void> {
    this.inTx = false;
    this.log.push('commit');
    return Promise.resolve();
  }

  rollback(): Promise<void> {
    this.inTx = false;
    this.log.push('rollback');
    return Promise.resolve();
  }

  async transactional<T>(work: (tx: SqlEntityManager) => Promise<T>): Promise<T> {
    await this.begin();
    try {
      const result = await work(this.asEm());
      await this.commit();
      return result;
    } catch (error) {
      await this.rollback();
      throw error;
    }
  }

  execute(sql: string, params: unknown[] = []): Promise<unknown[]> {
    this.executed.push({ sql, params });
    this.log.push(`execute ${sql.trim().split(/\s+/).slice(0, 2).join(' ')}`);
    const answer = this.respond(sql, params);
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  }

  asEm(): SqlEntityManager {
    return this as unknown as SqlEntityManager;
  }

  /** The statements whose text starts with `start`. */
  statements(start: string): SqlPart[] {
    return this.executed.filter((statement) => statement.sql.trim().startsWith(start));
  }
}

/** Answers the delivery's insert with its id (or nothing: a duplicate), and anything else with `rest`. */
export const inserting = (fresh = true, rest: Respond = () => []): Respond => (sql, params) => {
  if (sql.startsWith('insert into webhook_delivery') || sql.startsWith('with inserted as')) return fresh ? [{ id: params[0], inbox_delivery_id: params[0] }] : [];
  return rest(sql, params);
};

/** An adapter whose verification and parse answer what the case needs, and record the bytes they were given. */
export function fakeAdapter(verification: WebhookVerification, parsed: WebhookVerification = verification) {
  const seen: Buffer[] = [];
  const adapter = {
    name: 'deposit-gateway',
    verifyWebhook: (_account: MerchantAccount, raw: { body: Buffer }) => (seen.push(raw.body), verification),
    parseWebhook: (_account: MerchantAccount, body: Buffer) => (seen.push(body), parsed),
  };
  return { adapter: adapter as unknown as DepositProvider, seen };
}

export function inbox(adapter: DepositProvider) {
  const accounts: Record<string, MerchantAccount> = { 'acct-1': ACCOUNT, 'acct-qr': QR_ACCOUNT };
  return new WebhookInbox({ account: (code) => accounts[code], provider: (name) => (name === 'deposit-gateway' ? adapter : undefined) }, clock);
}

/** A handler that records its calls and answers `decision` (or throws it). */
export function fakeHandler(decide: (context: InboxContext) => (ReportOutcome & { recorded?: boolean }) | Error, find?: RowLookup) {
  const contexts: InboxContext[] = [];
  const handler: WebhookSubjectHandler<'deposit'> = {
    ...(find ? { find: () => find } : {}),
    decide: (_tx, _input, _subject, context) => {
      contexts.push(context);
      const answer = decide(context);
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  };
  return { handler, contexts };
}

export const acceptInput = (body = '{"id":"evt_1"}', account = 'acct-1', provider = 'deposit-gateway') => ({
  provider,
  account,
  body: Buffer.from(body),
  headers: { 'x-signature': 'sig' },
  receivedAt: NOW,
});

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
