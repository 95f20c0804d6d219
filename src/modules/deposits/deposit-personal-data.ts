// Retention of a deposit's personal data (docs/operations.md "Retention"). The payer's details are kept in the
// deposit's stored request only so that a deposit whose provider call failed can be submitted again;
// once the deposit is final and has not changed for PERSONAL_DATA_RETENTION_MS they are erased,
// and what audits need stays: the deposit's amounts, statuses, references and events, the payer's
// country and document type, and the last four characters of an identifier.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { plainRows } from '../../db/plain-rows.js';
import type { ErasePersonalDataOptions, PersonalDataEraser } from '../../kernel/retention.js';
import { maskIdentifier } from '../../lib/masking.js';
import type { Customer } from '../../providers/provider.js';
import { Deposit, type DepositRequest } from './deposit.entity.js';

/**
 * The payer's details that stay, as an allow-list: a field added to `Customer` later is erased
 * unless it is named here. Identifiers keep their last four characters (`****4725`), as a payout's
 * do: enough to tell that one was given and to match it with what a payer reads out, not to use it.
 */
const KEPT_CUSTOMER_FIELDS = {
  country: (value: string) => value,
  documentType: (value: string) => value,
  documentNumber: maskIdentifier,
  personalId: maskIdentifier,
} as const satisfies Partial<Record<keyof Customer, (value: string) => string>>;

/**
 * A stored request without its personal data: the customer reduced to `KEPT_CUSTOMER_FIELDS`, a
 * Thai QR payer (name, bank) removed. The rail block's other fields (method, country, expiry) and
 * the client's own addresses (`returnUrl`, success and cancel URLs) stay: they are the client's
 * choices, not the payer's data. Erasing an erased request changes nothing (`****4725` masks to itself).
 */
export function erasedDepositRequest(request: DepositRequest): DepositRequest {
  const customer: Customer = {};
  for (const [field, keep] of Object.entries(KEPT_CUSTOMER_FIELDS) as Array<[keyof typeof KEPT_CUSTOMER_FIELDS, (value: string) => string]>) {
    const value = request.customer?.[field];
    if (typeof value === 'string' && value !== '') customer[field] = keep(value);
  }
  const { payer: _payer, ...details } = request.details as DepositRequest['details'] & { payer?: unknown };
  return { details, customer, ...(request.returnUrl ? { returnUrl: request.returnUrl } : {}) };
}

/**
 * Erases the payer's personal data of up to `limit` deposits that are final (not PENDING or
 * AUTHORIZED: nothing submits them again) and last changed at or before `changedBefore`, oldest
 * change first, in one transaction: the rows are read under `FOR UPDATE SKIP LOCKED` (a deposit a
 * webhook or a refund holds waits for the next sweep), then rewritten in one statement with
 * `personal_data_erased_at`. The deposit's `updated_at` is left alone: erasure is not a change of
 * the payment. Its snapshots and events never held these details.
 */
async function eraseDepositPersonalData(em: SqlEntityManager, { changedBefore, limit, erasedAt }: ErasePersonalDataOptions): Promise<number> {
  return em.transactional(async (tx) => {
    const due = await plainRows<Pick<Deposit, 'id' | 'request'>>(
      tx,
      Deposit,
      `select id, request from deposit
       where personal_data_erased_at is null and status not in ('PENDING', 'AUTHORIZED') and updated_at <= ?
       order by updated_at, id
       limit ?
       for update skip locked`,
      [changedBefore, limit],
    );
    if (due.length === 0) return 0;
    const erased = due.map((row) => ({ id: row.id, request: erasedDepositRequest(row.request) }));
    await tx.execute(
      `update deposit set request = erased.request, personal_data_erased_at = ?
       from jsonb_to_recordset(cast(? as jsonb)) as erased(id text, request jsonb)
       where deposit.id = erased.id`,
      [erasedAt, JSON.stringify(erased)],
    );
    return due.length;
  });
}

/** The deposits module's personal data, registered with the retention sweep (src/services.ts). */
export const depositPersonalData: PersonalDataEraser = { subject: 'deposit', erase: eraseDepositPersonalData };
