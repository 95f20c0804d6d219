import { Migration } from '@mikro-orm/migrations';

/**
 * Why an endpoint is disabled (docs/notifications.md): `admin` (updateNotificationEndpoint) or
 * `client_revoked` (its client was revoked, which disables every endpoint of the client for good);
 * null exactly while it is enabled. The endpoints of clients revoked before this column existed are
 * disabled here: until now the sweep woke their lanes every NOTIFICATION_SWEEP_INTERVAL_MS, for a
 * job that could send nothing.
 */
export class Migration20261208100000_notification_endpoint_disabled_reason extends Migration {
  override up(): void {
    this.addSql("alter table notification_endpoint add column disabled_reason varchar(16) null check (disabled_reason in ('admin', 'client_revoked'));");
    this.addSql(`update notification_endpoint e set enabled = false, disabled_reason = 'client_revoked'
      from api_client c where c.id = e.client_id and c.revoked_at is not null;`);
    this.addSql("update notification_endpoint set disabled_reason = 'admin' where not enabled and disabled_reason is null;");
    this.addSql('alter table notification_endpoint add constraint notification_endpoint_disabled_exactly_check check (enabled = (disabled_reason is null));');
  }

  override down(): void {
    this.addSql('alter table notification_endpoint drop constraint notification_endpoint_disabled_exactly_check;');
    this.addSql('alter table notification_endpoint drop column disabled_reason;');
  }
}
