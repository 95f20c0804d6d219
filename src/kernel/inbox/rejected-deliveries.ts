// Deliveries the inbox keeps as rejected, without their body: unauthentic ones (a failed signature
// or freshness check), capped per account as anyone can send them, and authentic ones no retry
// could apply, never pruned.

import { createHash } from 'node:crypto';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../lib/ids.js';
import type { MerchantAccount, ProviderName, SignatureRejection } from '../../providers/provider.js';

/**
 * Why an authentic delivery cannot be applied, ever: it is not an event its adapter can read
 * (`PAYLOAD_INVALID`), or it carries text the database cannot store (`TEXT_NOT_STORABLE`).
 */
export type UnprocessableReason = 'PAYLOAD_INVALID' | 'TEXT_NOT_STORABLE';

/** Why a delivery was kept as rejected, without its body: not authentic, or authentic but unprocessable. */
export type RejectedWebhookReason = SignatureRejection | UnprocessableReason;

/** A refused delivery (unverified, or verified but unstorable), kept for admins without its body. */
export interface RejectedWebhookInput {
  provider: ProviderName;
  account: MerchantAccount;
  reason: RejectedWebhookReason;
  body: Buffer;
  receivedAt: Date;
  /**
   * Unauthentic deliveries kept for this account; the oldest beyond it are deleted, so a flood of
   * unsigned requests cannot fill the database. Authentic but unprocessable ones (only the
   * provider can send those) are never pruned, so no flood can push them out of admins' sight.
   * Absent: all are kept.
   */
  keepPerAccount?: number;
}

/** The reasons a delivery is kept as rejected that anyone, not only the provider, can cause. */
const UNAUTHENTIC_REASONS: readonly SignatureRejection[] = ['SIGNATURE_MISSING', 'SIGNATURE_MALFORMED', 'SIGNATURE_MISMATCH', 'TIMESTAMP_OUT_OF_WINDOW'];
const isUnauthentic = (reason: RejectedWebhookReason): reason is SignatureRejection => (UNAUTHENTIC_REASONS as readonly string[]).includes(reason);

/** What `recordRejected` stored and how many older rejected rows of the account it deleted. */
export interface RecordRejectedResult {
  id: string;
  pruned: number;
}

/**
 * Keeps a delivery that failed verification or cannot be processed: its reason, account and
 * time, and the SHA-256 of the bytes, never the bytes (untrusted, or unusable, and never replayed).
 */
export async function recordRejected(em: SqlEntityManager, input: RejectedWebhookInput): Promise<RecordRejectedResult> {
  const id = newId('whd');
  const insert = `insert into webhook_delivery (id, provider, merchant_account, event_id, event_name, outcome, reason, subject_type, subject_id, raw_body, body_sha256, received_at)
     values (?, ?, ?, ?, '', 'rejected', ?, null, null, '', ?, ?)`;
  const values = [id, input.provider, input.account.code, `rejected:${id}`, input.reason, createHash('sha256').update(input.body).digest('hex'), input.receivedAt];
  if (input.keepPerAccount === undefined || !isUnauthentic(input.reason)) {
    await em.execute(insert, values);
    return { id, pruned: 0 };
  }
  // One statement for the record and the cap, as anyone can send these: only this account's
  // unauthentic rows (verified deliveries, authentic rejected ones and other accounts are never
  // touched). The delete does not see the row inserted beside it, so it keeps one fewer.
  const [row] = await em.execute<Array<{ pruned: number }>>(
    `with kept as (${insert} returning id), pruned as (
       delete from webhook_delivery where id in (
         select id from webhook_delivery where merchant_account = ? and outcome = 'rejected' and reason in (${UNAUTHENTIC_REASONS.map(() => '?').join(', ')})
         order by received_at desc, id desc offset ?)
       returning id)
     select (select count(*) from pruned)::int as pruned`,
    [...values, input.account.code, ...UNAUTHENTIC_REASONS, Math.max(input.keepPerAccount - 1, 0)],
  );
  return { id, pruned: Number(row?.pruned ?? 0) };
}
