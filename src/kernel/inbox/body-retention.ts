// Retention of webhook bodies: a verified delivery's body is kept for replay and inspection for a
// window (WEBHOOK_BODY_RETENTION_MS), then erased, because provider bodies carry personal data
// (payer names, emails, document and bank account numbers; docs/operations.md "Retention"). What audits need
// stays: the row with its event id and name, outcome, reason, subject and the body's SHA-256, and
// the change it made, which the event log holds.

import type { SqlEntityManager } from '@mikro-orm/postgresql';

export interface EraseBodiesOptions {
  /** Bodies of deliveries received at or before this time are erased. */
  receivedBefore: Date;
  /** Erased in this one statement at most. */
  limit: number;
  /** Recorded as `body_erased_at`. */
  erasedAt: Date;
}

/**
 * Erases up to `limit` bodies received at or before `receivedBefore`, oldest first, in one
 * statement (its own short transaction), and returns how many: fewer than `limit` when no more
 * are due. The whole body goes, not a list of personal fields: providers add fields without
 * notice (spec: Versioning), and a field list would miss them.
 *
 * - Rejected deliveries never kept a body: untouched.
 * - A `deferred` delivery is still waiting to be decided from its body (a refund that overtook its
 *   payment): kept until it is decided, and erased by the first run after that.
 * - A row another transaction holds (a replay, a deferred release) is skipped and erased next time.
 * - `body_sha256` is set at receipt; rows received before it was are given the hash of the text
 *   kept, which is the bytes received for any body that was valid UTF-8.
 */
export async function eraseWebhookBodies(em: SqlEntityManager, options: EraseBodiesOptions): Promise<number> {
  const erased = await em.execute<Array<{ id: string }>>(
    `update webhook_delivery
       set raw_body = '', body_erased_at = ?,
           body_sha256 = coalesce(body_sha256, encode(sha256(convert_to(raw_body, 'UTF8')), 'hex'))
     where id in (
       select id from webhook_delivery
       where body_erased_at is null and outcome not in ('rejected', 'deferred') and received_at <= ?
       order by received_at, id
       limit ?
       for update skip locked)
     returning id`,
    [options.erasedAt, options.receivedBefore, options.limit],
  );
  return erased.length;
}
