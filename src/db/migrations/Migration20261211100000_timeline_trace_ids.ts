import { Migration } from '@mikro-orm/migrations';

/**
 * The trace id (32 hex digits) each record of a payment's timeline keeps of the sampled span that
 * wrote it (docs/timeline.md), beside the provider call and reconciliation check records' own:
 * an event (the request, webhook or job that made the change), a webhook delivery (its delivery
 * span), a job (its last run's span) and a notification attempt (its job run's trace). Written by
 * the statement that writes the record anyway; null while tracing is off or the span unsampled, and
 * for records written before this column. Nullable without a default: adding it rewrites no table.
 */
export class Migration20261211100000_timeline_trace_ids extends Migration {
  override up(): void {
    this.addSql('alter table payment_event add column trace_id varchar(32) null;');
    this.addSql('alter table webhook_delivery add column trace_id varchar(32) null;');
    this.addSql('alter table job add column trace_id varchar(32) null;');
    this.addSql('alter table notification_attempt add column trace_id varchar(32) null;');
  }

  override down(): void {
    this.addSql('alter table notification_attempt drop column trace_id;');
    this.addSql('alter table job drop column trace_id;');
    this.addSql('alter table webhook_delivery drop column trace_id;');
    this.addSql('alter table payment_event drop column trace_id;');
  }
}
