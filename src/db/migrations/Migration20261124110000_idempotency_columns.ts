// The idempotency layer's table is the one record of idempotency keys: the keys that deposits,
// refunds and payouts still carried in columns of their own are copied into it where it lacks them,
// then those columns and their per-table unique constraints go.

import { Migration } from '@mikro-orm/migrations';

/** Operation and table, in the order Migration20261123130000_idempotency copied them. */
const SUBJECTS = [
  ['deposit', 'deposit'],
  ['refund', 'refund'],
  ['payout', 'payout'],
] as const;

/**
 * - Every key found in a row's `idempotency_key` / `idempotency_fingerprint` gets a row of
 *   `idempotency_key` naming that row as its subject: client, key, operation, fingerprint, attempt
 *   1, no lease, no response. Migration20261123130000 copied the keys of its day and every request
 *   since wrote both, so this finds only what slipped past: keys written by a request whose
 *   idempotency lease ran out before it recorded its subject (the table's row then holds no
 *   subject, or the later request's). A table row with no subject, the same operation and
 *   fingerprint and no final response is given the old column's subject; any other table row wins.
 * - The response a client got before the upgrade was never stored with the row and cannot be
 *   rebuilt, so none is recorded. A replay of such a key (same client, key and input) finds the
 *   subject and no response, takes the key and resumes the subject as the idempotency layer does
 *   after an unknown outcome: a row that already has its provider answer is not submitted again,
 *   and the replay answers the subject as it stands now (with the refusal's userError for a row
 *   refused at submission); a row whose provider outcome is still unknown is submitted again under
 *   its own id (the provider's idempotency key: no second payment). That answer is stored as final
 *   and every later replay gets it byte for byte. Other input under the key is
 *   IDEMPOTENCY_KEY_REUSED, as before.
 * - A key the same client used for two kinds of operation before the table existed (the old
 *   columns were unique per table only) stays with the first copied (deposit, then refund, then
 *   payout); a replay of the other answers IDEMPOTENCY_KEY_REUSED and creates nothing.
 * - Then `idempotency_key`, `idempotency_fingerprint` and the unique constraints
 *   `<table>_client_idempotency_key_unique` are dropped from deposit, refund and payout. Instances
 *   of an earlier release write those columns: stop them before this migration runs.
 */
export class Migration20261124110000_idempotency_columns extends Migration {
  override up(): void {
    for (const [operation, table] of SUBJECTS) {
      this.addSql(`
        insert into idempotency_key (client_id, key, operation, fingerprint, attempt, subject_id, created_at, updated_at)
        select client_id, idempotency_key, '${operation}', idempotency_fingerprint, 1, id, created_at, now()
        from ${table}
        where idempotency_key is not null and client_id is not null
        on conflict (client_id, key) do update set subject_id = excluded.subject_id, updated_at = now()
          where idempotency_key.subject_id is null
            and idempotency_key.operation = excluded.operation
            and idempotency_key.fingerprint = excluded.fingerprint
            and not idempotency_key.response_final;
      `);
    }
    for (const [, table] of SUBJECTS) {
      this.addSql(`alter table ${table} drop constraint ${table}_client_idempotency_key_unique;`);
      this.addSql(`alter table ${table} drop constraint ${table}_idempotency_fingerprint_with_key;`);
      this.addSql(`alter table ${table} drop column idempotency_key, drop column idempotency_fingerprint;`);
    }
  }

  override down(): void {
    for (const [operation, table] of SUBJECTS) {
      this.addSql(`alter table ${table} add column idempotency_key varchar(255) null, add column idempotency_fingerprint varchar(64) null check (idempotency_fingerprint ~ '^[0-9a-f]{64}$');`);
      // Each subject's key back on its row (the table names one subject per key).
      this.addSql(`
        update ${table} set idempotency_key = k.key, idempotency_fingerprint = k.fingerprint
        from idempotency_key k
        where k.subject_id = ${table}.id and k.operation = '${operation}' and k.client_id = ${table}.client_id;
      `);
      this.addSql(`alter table ${table} add constraint ${table}_idempotency_fingerprint_with_key check ((idempotency_key is null) = (idempotency_fingerprint is null));`);
      this.addSql(`alter table ${table} add constraint ${table}_client_idempotency_key_unique unique (client_id, idempotency_key);`);
    }
  }
}
