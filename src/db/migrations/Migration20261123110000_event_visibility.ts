// Events carry the merchant account of their subject, so the one visibility policy
// (src/kernel/visibility.ts) filters the catch-up log in SQL for back-office clients limited to
// some accounts, exactly as it filters their lists and live events.

import { Migration } from '@mikro-orm/migrations';

export class Migration20261123110000_event_visibility extends Migration {
  override up(): void {
    this.addSql('alter table payment_event add column merchant_account varchar(64) null;');
    // A refund belongs to its deposit's account (as its event's client_id is the deposit's owner).
    this.addSql(`update payment_event e set merchant_account = d.merchant_account from deposit d where e.subject_type = 'deposit' and d.id = e.subject_id;`);
    this.addSql(`update payment_event e set merchant_account = d.merchant_account from refund r join deposit d on d.id = r.deposit_id where e.subject_type = 'refund' and r.id = e.subject_id;`);
    this.addSql(`update payment_event e set merchant_account = p.merchant_account from payout p where e.subject_type = 'payout' and p.id = e.subject_id;`);
    this.addSql(`update payment_event e set merchant_account = w.merchant_account from withdrawal w where e.subject_type = 'withdrawal' and w.id = e.subject_id;`);
    // Every subject has an account: an event without one would be hidden from every back office.
    this.addSql('alter table payment_event alter column merchant_account set not null;');
    // Anomalies the gateway raises about a subject (e.g. a payout its provider never shows) are for
    // admins, not for the clients that see the subject.
    this.addSql('alter table payment_event add column admin_only boolean not null default false;');
    // events(after:) for a back office: its accounts, in log order (cashiers use the client_id index).
    this.addSql('create index payment_event_account_position_idx on payment_event (merchant_account, position);');
    // deposits(...) for a refunds back office limited to some accounts, newest first.
    this.addSql('create index deposit_account_created_idx on deposit (merchant_account, created_at desc, id desc);');
  }

  override down(): void {
    this.addSql('drop index deposit_account_created_idx;');
    this.addSql('drop index payment_event_account_position_idx;');
    this.addSql('alter table payment_event drop column admin_only;');
    this.addSql('alter table payment_event drop column merchant_account;');
  }
}
