import { Migration } from '@mikro-orm/migrations';

/**
 * Whether an endpoint's receiver answers (docs/notifications.md "Probing a receiver that fails
 * every attempt"), on the gateway's clock:
 * - `failed_since`: since when every attempt to it has failed; null once one succeeds.
 * - `next_probe_at`: while its receiver has failed every attempt for a probe interval, when the
 *   next probe may go (one delivery; its lanes wait for it); null while its lanes send on their own.
 */
export class Migration20261208110000_notification_endpoint_probe extends Migration {
  override up(): void {
    this.addSql('alter table notification_endpoint add column failed_since timestamptz null, add column next_probe_at timestamptz null;');
  }

  override down(): void {
    this.addSql('alter table notification_endpoint drop column failed_since, drop column next_probe_at;');
  }
}
