// The event log without a database-wide lock: each event row carries, beside its position, the
// horizon that says when it and every lower position are final (docs/kernel.md "Event log order").

import { Migration } from '@mikro-orm/migrations';

/**
 * - `payment_event.position` is no longer an identity column: a BEFORE INSERT trigger draws it from
 *   `payment_event_position_seq` (continuing where the identity stopped), after making sure the
 *   writing transaction has its transaction id, and then records in `horizon` the first transaction
 *   id not yet assigned at that moment (the `xmax` of a snapshot taken after the draw).
 * - A reader trusts the log up to the highest position whose `horizon` is at or below its own
 *   snapshot's `xmin`: every transaction that could hold a lower position had its id before that
 *   position was drawn, so it is below the horizon, so it has ended and its events are visible
 *   (or rolled back for good). Nothing can commit below that position any more.
 * - Rows written before this migration were appended under the old lock, in commit order: they
 *   get horizon 0, final for every reader.
 *
 * The trigger does it for every insert (the event service's single statement and the ORM alike),
 * so no writer can forget the order. It refuses a transaction that is not READ COMMITTED: under
 * REPEATABLE READ the snapshot is the transaction's first, whose xmax is too old to be a horizon.
 * The sequence must keep CACHE 1 (the default): positions then grow in the order they are drawn,
 * across sessions.
 */
export class Migration20261123140000_event_horizon extends Migration {
  override up(): void {
    this.addSql('alter table payment_event add column horizon xid8 not null default \'0\';');
    this.addSql('alter table payment_event alter column horizon drop default;');
    this.addSql('alter table payment_event alter column position drop identity;');
    this.addSql('create sequence payment_event_position_seq owned by payment_event.position;');
    this.addSql("select setval('payment_event_position_seq', coalesce((select max(position) from payment_event), 0) + 1, false);");
    this.addSql(`
      create function payment_event_assign_position() returns trigger language plpgsql volatile as $$
      begin
        if current_setting('transaction_isolation') <> 'read committed' then
          raise exception 'payment events are appended in READ COMMITTED transactions only (their horizon needs a fresh snapshot)';
        end if;
        -- The transaction id first: a reader's horizon must cover every transaction that can hold a position.
        perform pg_current_xact_id();
        new.position := nextval('payment_event_position_seq');
        -- Evaluated with a snapshot taken after the draw (a volatile PL/pgSQL function takes a new one per expression).
        new.horizon := pg_snapshot_xmax(pg_current_snapshot());
        return new;
      end
      $$;
    `);
    this.addSql('create trigger payment_event_assign_position before insert on payment_event for each row execute function payment_event_assign_position();');
  }

  override down(): void {
    this.addSql('drop trigger payment_event_assign_position on payment_event;');
    this.addSql('drop function payment_event_assign_position();');
    this.addSql('alter table payment_event alter column position drop default;');
    this.addSql('drop sequence payment_event_position_seq;');
    this.addSql('alter table payment_event alter column position add generated always as identity;');
    this.addSql("select setval(pg_get_serial_sequence('payment_event', 'position'), coalesce((select max(position) from payment_event), 0) + 1, false);");
    this.addSql('alter table payment_event drop column horizon;');
  }
}
