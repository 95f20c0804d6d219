// Recovery: the provider's payment reference beside a deposit's own reference, row leases for
// refund and payout reconciliation, the payout rotation and missing-at-provider bookkeeping, and
// the full beneficiary document number a payout resubmission needs.

import { Migration } from '@mikro-orm/migrations';

/**
 * - `deposit.payment_reference`: the provider's payment reference, which refunds, fee/net lookups
 *   and reconciliation use. It equals `provider_reference` on every rail but hosted checkout, whose
 *   `provider_reference` is the checkout session id (`cs_…`) and whose payment reference is learned
 *   from its webhook, the reconciler or a settle. Backfilled for the other rails.
 * - The deposit reconcile index now also covers PENDING deposits with no provider reference yet
 *   (an unknown outcome or a crash before the provider call): the reconciler resubmits or finds them.
 * - `refund.reconcile_lease_until`: the deposits' row lease, for REQUESTED refunds.
 * - `payout.reconcile_checked_at` / `reconcile_lease_until`: payouts are checked in rotation (least
 *   recently checked first) under a row lease; `missing_checks` counts checks in which the provider's
 *   list did not show the payout, `missing_reported_at` records that the anomaly was raised once.
 * - `payout.beneficiary_document_number`: the full ID document number, admin-only like the account
 *   number, so a payout whose first submission has an unknown outcome can be resubmitted as it was.
 */
export class Migration20261123120000_recovery extends Migration {
  override up(): void {
    this.addSql('alter table deposit add column payment_reference varchar(255) null;');
    this.addSql("update deposit set payment_reference = provider_reference where rail <> 'HOSTED_CHECKOUT' and provider_reference is not null;");
    this.addSql('create index deposit_payment_reference_idx on deposit (provider, payment_reference) where payment_reference is not null;');
    this.addSql('drop index deposit_reconcile_idx;');
    this.addSql(`create index deposit_reconcile_idx on deposit (created_at) where status in ('PENDING', 'AUTHORIZED');`);

    this.addSql('alter table refund add column reconcile_lease_until timestamptz null;');
    this.addSql(`create index refund_reconcile_idx on refund (created_at) where status = 'REQUESTED';`);

    this.addSql('alter table payout add column reconcile_checked_at timestamptz null;');
    this.addSql('alter table payout add column reconcile_lease_until timestamptz null;');
    this.addSql('alter table payout add column missing_checks integer not null default 0 check (missing_checks >= 0);');
    this.addSql('alter table payout add column missing_reported_at timestamptz null;');
    this.addSql('alter table payout add column beneficiary_document_number varchar(64) null;');
    this.addSql(`create index payout_reconcile_idx on payout (reconcile_checked_at asc nulls first, created_at) where status in ('PENDING', 'PAID');`);
  }

  override down(): void {
    this.addSql('drop index payout_reconcile_idx;');
    this.addSql('alter table payout drop column beneficiary_document_number;');
    this.addSql('alter table payout drop column missing_reported_at;');
    this.addSql('alter table payout drop column missing_checks;');
    this.addSql('alter table payout drop column reconcile_lease_until;');
    this.addSql('alter table payout drop column reconcile_checked_at;');
    this.addSql('drop index refund_reconcile_idx;');
    this.addSql('alter table refund drop column reconcile_lease_until;');
    this.addSql('drop index deposit_reconcile_idx;');
    this.addSql(`create index deposit_reconcile_idx on deposit (created_at) where status in ('PENDING', 'AUTHORIZED') and provider_reference is not null;`);
    this.addSql('drop index deposit_payment_reference_idx;');
    this.addSql('alter table deposit drop column payment_reference;');
  }
}
