// What a payment's timeline (docs/timeline.md) reads beside the event log, webhook deliveries and
// notifications: every provider call attempt made for one payment, every reconciliation check of
// one, and which payment a follow-up job is about.

import { Migration } from '@mikro-orm/migrations';

/**
 * - `provider_call`: one row per attempt of a provider call made for one payment, written after the
 *   call by the recorder (src/kernel/call-records.ts), never in the payment's transaction. The
 *   summaries are masked (field names and the provider's shown fields only): no key, secret, card
 *   or account number. Kept for the window of webhook bodies (WEBHOOK_BODY_RETENTION_MS).
 * - `reconciliation_check`: one row per check of one payment by the reconciler, with its outcome
 *   and reason; kept for the same window.
 * - `job.subject_type`/`subject_id`: the payment a job is about, set at enqueue; null for the rest
 *   (sweeps, fan-outs). Indexed for those rows alone, so other jobs' writes pay nothing for it.
 * - `notification_delivery` gains an index on its subject, for every state (the lane index covers
 *   pending rows only, endpoint first).
 */
export class Migration20261210110000_payment_timeline extends Migration {
  override up(): void {
    this.addSql(`create table provider_call (
      id varchar(30) primary key,
      subject_type varchar(16) not null,
      subject_id varchar(30) not null,
      provider varchar(32) not null,
      merchant_account varchar(64) null,
      operation varchar(64) not null,
      attempt integer not null,
      outcome varchar(20) not null,
      http_status integer null,
      error text null,
      duration_ms integer not null,
      request_summary text null,
      response_summary text null,
      trace_id varchar(64) null,
      created_at timestamptz not null
    );`);
    this.addSql('create index provider_call_subject_idx on provider_call (subject_type, subject_id, created_at);');
    this.addSql('create index provider_call_created_at_idx on provider_call (created_at);');
    this.addSql(`create table reconciliation_check (
      id varchar(30) primary key,
      subject_type varchar(16) not null,
      subject_id varchar(30) not null,
      outcome varchar(20) not null,
      reason text null,
      trace_id varchar(32) null,
      created_at timestamptz not null
    );`);
    this.addSql('create index reconciliation_check_subject_idx on reconciliation_check (subject_type, subject_id, created_at);');
    this.addSql('create index reconciliation_check_created_at_idx on reconciliation_check (created_at);');
    this.addSql('alter table job add column subject_type varchar(16) null, add column subject_id varchar(30) null;');
    this.addSql('create index job_subject_idx on job (subject_type, subject_id, created_at) where subject_id is not null;');
    this.addSql('create index notification_delivery_subject_idx on notification_delivery (subject_type, subject_id);');
  }

  override down(): void {
    this.addSql('drop index notification_delivery_subject_idx;');
    this.addSql('drop index job_subject_idx;');
    this.addSql('alter table job drop column subject_type, drop column subject_id;');
    this.addSql('drop table reconciliation_check;');
    this.addSql('drop table provider_call;');
  }
}
