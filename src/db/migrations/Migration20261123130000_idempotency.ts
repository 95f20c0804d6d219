// The idempotency layer's table: one row per (client, key) for every money-moving mutation, with
// the request's fingerprint, the lease of the request working on it, the subject it created and,
// once definite, the response replayed to every later request with that key.

import { Migration } from '@mikro-orm/migrations';

const OPERATIONS = "('deposit', 'refund', 'payout')";

export class Migration20261123130000_idempotency extends Migration {
  override up(): void {
    this.addSql(`
      create table idempotency_key (
        client_id varchar(30) not null,
        key varchar(255) not null,
        operation varchar(16) not null check (operation in ${OPERATIONS}),
        fingerprint varchar(64) not null check (fingerprint ~ '^[0-9a-f]{64}$'),
        attempt integer not null default 1 check (attempt >= 1),
        locked_until timestamptz null,
        subject_id varchar(30) null,
        response text null,
        response_final boolean not null default false,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        primary key (client_id, key),
        constraint idempotency_key_final_has_response check (not response_final or response is not null)
      );
    `);
    // Keys used before this table existed: their subjects are known and are resumed (not
    // recreated) when the key comes back; a resumed subject answers with its current state.
    for (const [operation, table] of [
      ['deposit', 'deposit'],
      ['refund', 'refund'],
      ['payout', 'payout'],
    ] as const) {
      this.addSql(`
        insert into idempotency_key (client_id, key, operation, fingerprint, attempt, subject_id, created_at, updated_at)
        select client_id, idempotency_key, '${operation}', idempotency_fingerprint, 1, id, created_at, updated_at
        from ${table}
        where idempotency_key is not null and client_id is not null
        on conflict do nothing;
      `);
    }
  }

  override down(): void {
    this.addSql('drop table idempotency_key;');
  }
}
