// The event log without a database-wide lock: positions drawn after the writing transaction has
// its id, and marks that tell readers up to which position the log is final (docs/kernel-reference.md
// "Event log order").

import { Migration } from '@mikro-orm/migrations';

/**
 * - `payment_event.position` is no longer an identity column: a BEFORE INSERT trigger first makes
 *   sure the writing transaction has its transaction id, then draws the position from
 *   `payment_event_position_seq` (continuing where the identity stopped), and keeps that id in
 *   `payment_event.xid` (which transaction wrote the event).
 * - `payment_event_horizon` holds marks (position, horizon): `payment_event_mark()` reads the
 *   highest position drawn so far, then takes a new transaction id as the horizon. Every
 *   transaction holding a position up to the mark's had its id before the mark read it, so its id
 *   is below the horizon: once a reader's snapshot has xmin at or above the horizon, all of them
 *   have ended, and the log is final up to that position (nothing can commit there any more).
 *   The event buses write marks as they read, outside every money transaction.
 * - Rows written before this migration were appended under the old lock, in commit order: a first
 *   mark makes them final for every reader.
 *
 * The trigger does it for every insert (the event service's statements and the ORM alike), so no
 * writer can forget it. The sequence keeps CACHE 1 (the default): its values grow in the order they
 * are drawn, across sessions, which the marks rely on.
 */
export class Migration20261123140000_event_horizon extends Migration {
  override up(): void {
    this.addSql("alter table payment_event add column xid xid8 not null default '0';");
    this.addSql('alter table payment_event alter column xid drop default;');
    this.addSql('alter table payment_event alter column position drop identity;');
    this.addSql('create sequence payment_event_position_seq owned by payment_event.position;');
    this.addSql("select setval('payment_event_position_seq', coalesce((select max(position) from payment_event), 0) + 1, false);");
    this.addSql(`
      create function payment_event_assign_position() returns trigger language plpgsql volatile as $$
      begin
        -- The transaction id first: a mark's horizon must cover every transaction holding a position it covers.
        new.xid := pg_current_xact_id();
        new.position := nextval('payment_event_position_seq');
        return new;
      end
      $$;
    `);
    this.addSql('create trigger payment_event_assign_position before insert on payment_event for each row execute function payment_event_assign_position();');
    this.addSql('create table payment_event_horizon (position bigint not null, horizon xid8 not null);');
    this.addSql('create index payment_event_horizon_position_idx on payment_event_horizon (position);');
    this.addSql(`
      create function payment_event_mark(out mark_position bigint, out mark_horizon xid8) language plpgsql volatile as $$
      begin
        -- In this order: the highest position drawn so far, then a transaction id assigned after that read.
        select case when is_called then last_value else last_value - 1 end into mark_position from payment_event_position_seq;
        mark_horizon := pg_current_xact_id();
      end
      $$;
    `);
    this.addSql("insert into payment_event_horizon (position, horizon) select coalesce(max(position), 0), '0' from payment_event;");
  }

  override down(): void {
    this.addSql('drop function payment_event_mark();');
    this.addSql('drop table payment_event_horizon;');
    this.addSql('drop trigger payment_event_assign_position on payment_event;');
    this.addSql('drop function payment_event_assign_position();');
    this.addSql('drop sequence payment_event_position_seq;');
    this.addSql('alter table payment_event alter column position add generated always as identity;');
    this.addSql("select setval(pg_get_serial_sequence('payment_event', 'position'), coalesce((select max(position) from payment_event), 0) + 1, false);");
    this.addSql('alter table payment_event drop column xid;');
  }
}
