import { Migration } from '@mikro-orm/migrations';

/**
 * The trace context (a W3C `traceparent`) of the request that created a payment, when tracing was
 * on (docs/tracing.md): the webhook that settles it, its reconciliation checks, follow-up jobs and
 * notifications link their spans to that trace, on any instance and after any restart. Null for
 * payments made with tracing off, or before this column.
 */
export class Migration20261210100000_payment_trace_context extends Migration {
  override up(): void {
    this.addSql('alter table deposit add column trace_context varchar(55) null;');
    this.addSql('alter table refund add column trace_context varchar(55) null;');
    this.addSql('alter table payout add column trace_context varchar(55) null;');
  }

  override down(): void {
    this.addSql('alter table deposit drop column trace_context;');
    this.addSql('alter table refund drop column trace_context;');
    this.addSql('alter table payout drop column trace_context;');
  }
}
