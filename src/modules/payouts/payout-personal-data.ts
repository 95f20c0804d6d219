// Retention of a payout's personal data (docs/operations.md "Retention"). The beneficiary's full account, CCI
// and document numbers are kept only so that a payout whose provider call failed can be submitted
// again, and its name for showing the payout; once the payout is final and has not changed for
// PERSONAL_DATA_RETENTION_MS they are erased from the payout and from every event of it, and what
// audits need stays: amounts, statuses, references, country, bank code, account and document types,
// and the identifiers masked to their last four characters (`****1234`).

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { ErasePersonalDataOptions, PersonalDataEraser } from '../../kernel/retention.js';

/**
 * Erases the beneficiary's name and full numbers of up to `limit` payouts that are final (not
 * PENDING: nothing submits them again; a PAID one may still be REVERTED, which needs none of them)
 * and last changed at or before `changedBefore`, oldest change first, in one statement (its own
 * short transaction): the payout rows are taken under `FOR UPDATE SKIP LOCKED` (one a webhook holds
 * waits for the next sweep), their full-number columns emptied, `beneficiary.name` set to null in
 * the row and in each of its event snapshots, and `personal_data_erased_at` recorded. The masked
 * identifiers stay as they were. The payout's `updated_at` is left alone: erasure is not a change
 * of the payout (and the reversal check reads it as the time it was paid).
 */
async function erasePayoutPersonalData(em: SqlEntityManager, { changedBefore, limit, erasedAt }: ErasePersonalDataOptions): Promise<number> {
  const erased = await em.execute<Array<{ id: string }>>(
    `with erased as (
       update payout
          set beneficiary = jsonb_set(beneficiary, '{name}', 'null'::jsonb),
              beneficiary_account_number = null, beneficiary_cci = null, beneficiary_document_number = null,
              personal_data_erased_at = ?
        where id in (
          select id from payout
          where personal_data_erased_at is null and status <> 'PENDING' and updated_at <= ?
          order by updated_at, id
          limit ?
          for update skip locked)
        returning id
     ), events as (
       update payment_event
          set data = jsonb_set(data, '{beneficiary,name}', 'null'::jsonb)
        where subject_type = 'payout' and subject_id in (select id from erased) and data #>> '{beneficiary,name}' is not null
     )
     select id from erased`,
    [erasedAt, changedBefore, limit],
  );
  return erased.length;
}

/** The payouts module's personal data, registered with the retention sweep (src/services.ts). */
export const payoutPersonalData: PersonalDataEraser = { subject: 'payout', erase: erasePayoutPersonalData };
