// The job table: durable follow-up work written in the transaction of the change that needs it.

import { Migration } from '@mikro-orm/migrations';

/**
 * `job`: one row per piece of follow-up work (src/kernel/jobs.ts). A worker on any instance claims
 * due rows with `FOR UPDATE SKIP LOCKED` and a lease (`locked_until`), so a crashed worker's job is
 * taken again once its lease runs out. Finished rows stay: `succeeded` and `superseded` ones are
 * pruned after a retention period, `failed` ones (attempts exhausted) stay for admins with their
 * last error.
 */
export class Migration20261123100000_jobs extends Migration {
  override up(): void {
    this.addSql(`create table job (
      id varchar(40) primary key,
      kind varchar(100) not null,
      payload jsonb not null,
      status varchar(16) not null check (status in ('pending', 'running', 'succeeded', 'failed', 'superseded')),
      attempts integer not null default 0 check (attempts >= 0),
      max_attempts integer not null check (max_attempts >= 1),
      run_at timestamptz not null,
      locked_until timestamptz null,
      locked_by varchar(100) null,
      last_error text null,
      dedupe_key varchar(200) null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      finished_at timestamptz null
    );`);
    // What a worker scans: only rows that may still run are indexed.
    this.addSql(`create index job_due_idx on job (run_at, id) where status in ('pending', 'running');`);
    // At most one waiting job per (kind, key): a second enqueue while one waits is the same work.
    // A running job does not count, so a change made while it runs gets a fresh job after it.
    this.addSql(`create unique index job_dedupe_idx on job (kind, dedupe_key) where status = 'pending';`);
    this.addSql(`create index job_finished_idx on job (finished_at) where status in ('succeeded', 'superseded');`);
  }

  override down(): void {
    this.addSql('drop table job;');
  }
}
