// Back-office notifications (docs/notifications.md): endpoints, one delivery row per event and
// endpoint, and every attempt to send it.

import { Migration } from '@mikro-orm/migrations';

const SUBJECTS = "('deposit', 'refund', 'payout', 'withdrawal', 'endpoint')";
const OLD_SUBJECTS = "('deposit', 'refund', 'payout', 'withdrawal')";

/**
 * - `notification_endpoint`: a URL an API client's events are POSTed to, signed with `secret`
 *   (and `previous_secret` until `previous_secret_expires_at`, during a rotation). `cursor`: the
 *   last log position fanned out to it. Secrets are kept as they must be to sign (an HMAC key).
 * - `notification_delivery`: one event for one endpoint. A lane is (endpoint, subject): its
 *   pending rows go out oldest position first. `claimed_by`/`claim_expires_at`: the lease of the
 *   instance sending it now.
 * - `notification_attempt`: each try, with its HTTP status or error code and a short excerpt.
 * - The event log gains the subject type `endpoint`: an endpoint marked failing is an admin-only event.
 */
export class Migration20261128100000_notifications extends Migration {
  override up(): void {
    this.addSql(`create table notification_endpoint (
      id varchar(30) primary key,
      client_id varchar(30) not null references api_client (id),
      url text not null,
      event_types text[] not null default '{}',
      enabled boolean not null default true,
      state varchar(16) not null default 'healthy' check (state in ('healthy', 'failing')),
      secret text not null,
      previous_secret text null,
      previous_secret_expires_at timestamptz null,
      cursor bigint not null default 0,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );`);
    this.addSql('create index notification_endpoint_client_idx on notification_endpoint (client_id);');
    this.addSql(`create table notification_delivery (
      id varchar(30) primary key,
      endpoint_id varchar(30) not null references notification_endpoint (id) on delete cascade,
      event_id varchar(30) not null,
      position bigint not null,
      subject_type varchar(16) not null,
      subject_id varchar(30) not null,
      state varchar(16) not null check (state in ('pending', 'delivered', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz not null,
      first_failed_at timestamptz null,
      delivered_at timestamptz null,
      claimed_by varchar(100) null,
      claim_expires_at timestamptz null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint notification_delivery_event_unique unique (endpoint_id, event_id)
    );`);
    // A lane's head: its oldest pending delivery.
    this.addSql(`create index notification_delivery_lane_idx on notification_delivery (endpoint_id, subject_type, subject_id, position) where state = 'pending';`);
    this.addSql(`create index notification_delivery_due_idx on notification_delivery (next_attempt_at) where state = 'pending';`);
    this.addSql('create index notification_delivery_endpoint_idx on notification_delivery (endpoint_id, position);');
    this.addSql(`create table notification_attempt (
      id varchar(30) primary key,
      delivery_id varchar(30) not null references notification_delivery (id) on delete cascade,
      attempted_at timestamptz not null,
      http_status integer null,
      error_code varchar(40) null,
      duration_ms integer not null,
      response_excerpt text null
    );`);
    this.addSql('create index notification_attempt_delivery_idx on notification_attempt (delivery_id, attempted_at);');
    this.addSql('alter table payment_event drop constraint payment_event_subject_type_check;');
    this.addSql(`alter table payment_event add constraint payment_event_subject_type_check check (subject_type in ${SUBJECTS});`);
  }

  override down(): void {
    this.addSql('alter table payment_event drop constraint payment_event_subject_type_check;');
    this.addSql(`alter table payment_event add constraint payment_event_subject_type_check check (subject_type in ${OLD_SUBJECTS});`);
    this.addSql('drop table notification_attempt;');
    this.addSql('drop table notification_delivery;');
    this.addSql('drop table notification_endpoint;');
  }
}
