// What the gateway's database sessions wait on while B3 runs: PostgreSQL's own view of every
// session of the bench database (pg_stat_activity.wait_event, and pg_locks for a lock not granted),
// sampled every few milliseconds from a connection of its own. With several gateway instances on
// one database, a wait on a shared row, an advisory lock or the NOTIFY queue would serialize them;
// waits on the WAL (a commit's flush) are the physical cost every writer shares, as pgbench's do.

import pg from 'pg';

/** Sampling interval: short against a webhook's few milliseconds, long against the sample query. */
const SAMPLE_EVERY_MS = 5;

/**
 * One snapshot's sessions: the busy ones (running a statement or waiting inside one) and, of those,
 * the ones waiting, keyed by what they wait on.
 */
const SAMPLE_SQL = `
  select a.wait_event_type as type, a.wait_event as event, l.locktype, l.mode, l.relation::regclass::text as relation
  from pg_stat_activity a
  left join lateral (select locktype, mode, relation from pg_locks where pid = a.pid and not granted limit 1) l on true
  where a.datname = current_database() and a.pid <> pg_backend_pid() and a.backend_type = 'client backend'
    and a.state in ('active', 'idle in transaction', 'fastpath function call')`;

export interface WaitSummary {
  samples: number;
  /** Sessions seen busy, summed over the samples. */
  busy: number;
  /** Sessions seen waiting, by what they waited on, summed over the samples (most first). */
  waits: Array<{ on: string; count: number }>;
  /** Of `waits`, those that mean one session holds up another: heavyweight locks, the NOTIFY queue. */
  serializing: number;
}

/** A session waiting in the client's own time (idle in transaction: ClientRead) waits on nobody. */
const NOT_WAITS = new Set(['Client:ClientRead', 'Client:ClientWrite']);

/** Waits on a lock another session holds, or on the NOTIFY queue shared by every writer. */
function serializes(on: string): boolean {
  return on.startsWith('Lock:') || /notify/i.test(on);
}

/** Starts sampling `url`'s sessions; `stop` ends it and sums what was seen. */
export async function sampleWaits(url: string): Promise<{ stop(): Promise<WaitSummary> }> {
  const client = new pg.Client({ connectionString: url, application_name: 'gateway-bench-waits' });
  await client.connect();
  const waits = new Map<string, number>();
  let samples = 0;
  let busy = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = Date.now();
      const { rows } = await client.query<{ type: string | null; event: string | null; locktype: string | null; mode: string | null; relation: string | null }>(SAMPLE_SQL);
      samples += 1;
      for (const row of rows) {
        const on = row.type ? `${row.type}:${row.event}` : undefined;
        if (on && NOT_WAITS.has(on)) continue;
        busy += 1;
        if (!on) continue;
        const detail = row.locktype ? ` (${row.locktype}${row.relation ? ` on ${row.relation}` : ''}, ${row.mode})` : '';
        const key = `${on}${detail}`;
        waits.set(key, (waits.get(key) ?? 0) + 1);
      }
      const pause = SAMPLE_EVERY_MS - (Date.now() - started);
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    }
  })();
  return {
    async stop(): Promise<WaitSummary> {
      stopped = true;
      await loop;
      await client.end();
      const sorted = [...waits].map(([on, count]) => ({ on, count })).sort((a, b) => b.count - a.count);
      return { samples, busy, waits: sorted, serializing: sorted.filter((wait) => serializes(wait.on)).reduce((sum, wait) => sum + wait.count, 0) };
    },
  };
}
