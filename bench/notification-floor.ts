// B6's floor: the least durable work of a back-office notification's delivery, written by hand in
// the baselines' process on a plain `pg` pool, against the gateway's database and the harness's
// receiver. Its rows live in a copy of `notification_delivery` (columns, defaults, constraints,
// indexes; the gateway's job worker never sees them), one per event, in lanes per subject as the
// gateway's. Each delivery is two statements, each its own transaction:
//
// 1. the claim: the oldest due pending row whose lane has no older pending row, locked with
//    `for update skip locked` and leased (`claimed_by`, `claim_expires_at`) as the gateway's
//    claim is, joined with its event in the log (type, time, data) in the same statement;
// 2. the POST's answer recorded in the row: the state, the attempt count, the status, the time.
//
// Between them it builds the body `{ id, type, createdAt, data }`, signs it with the gateway's own
// Standard Webhooks signing (src/modules/notifications/notification-signing.ts) and POSTs it on a
// connection of its own, as the gateway sends each notification. What it leaves out: the fan-out
// (its rows are written before the clock starts), the job queue, the endpoint's read (its URL and
// plaintext secret are handed in), opening the sealed secret, redaction, the attempt's own row,
// the endpoint's health, the outbound policy's checks, tracing and logging.

import { request } from 'node:http';
import { signedHeaders } from '../src/modules/notifications/notification-signing.js';
import { BENCH_SQL_MARK } from './process-tools.js';

/** Runs one statement with `$n` placeholders (its own transaction) and returns its rows. */
export type FloorQuery = (sql: string, params: unknown[]) => Promise<Array<Record<string, unknown>>>;

export const NOTIFICATION_FLOOR_TABLE = 'bench_floor_notification_delivery';
const T = NOTIFICATION_FLOOR_TABLE;
const CLAIMED_BY = 'bench-floor';
/** The gateway's lease at its default 10 s POST time-out (claimLeaseMs). */
const LEASE_SECONDS = 15;

/** The floor's table (if missing): a copy of the gateway's, with a column for the last answer's status. */
async function createNotificationFloorTable(query: FloorQuery): Promise<void> {
  await query(`create table if not exists ${T} (like notification_delivery including all) ${BENCH_SQL_MARK}`, []);
  await query(`alter table ${T} add column if not exists last_status integer ${BENCH_SQL_MARK}`, []);
}

/**
 * A round's rows, written before its clock starts: one pending delivery for each event of `type`
 * after log position `after`, in log order. Returns how many.
 */
export async function prepareNotificationFloor(query: FloorQuery, input: { endpointId: string; after: string; eventType: string }): Promise<number> {
  await createNotificationFloorTable(query);
  await query(`delete from ${T} ${BENCH_SQL_MARK}`, []);
  const rows = await query(
    `insert into ${T} (id, endpoint_id, event_id, position, subject_type, subject_id, state, next_attempt_at, created_at, updated_at)
     select ev.id, $1, ev.id, ev.position, ev.subject_type, ev.subject_id, 'pending', now(), now(), now()
     from payment_event ev where ev.position > $2 and ev.type = $3 order by ev.position
     returning id ${BENCH_SQL_MARK}`,
    [input.endpointId, input.after, input.eventType],
  );
  await query(`analyze ${T} ${BENCH_SQL_MARK}`, []);
  return rows.length;
}

const CLAIM = `update ${T} d set claimed_by = $1, claim_expires_at = now() + make_interval(secs => $2), updated_at = now()
  from payment_event ev
  where d.id = (
      select c.id from ${T} c
      where c.state = 'pending' and c.next_attempt_at <= now() and (c.claim_expires_at is null or c.claim_expires_at <= now())
        and not exists (select from ${T} p where p.endpoint_id = c.endpoint_id and p.subject_type = c.subject_type and p.subject_id = c.subject_id and p.state = 'pending' and p.position < c.position)
      order by c.position limit 1
      for update of c skip locked)
    and ev.id = d.event_id
  returning d.id, d.event_id, ev.type, ev.created_at, ev.data`;

/** `$3`: the answer was a 2xx (delivered; otherwise pending again after a back-off, as a failed attempt's row is). */
const RECORD = `update ${T} set state = case when $3::boolean then 'delivered' else 'pending' end, attempts = attempts + 1, last_status = $4,
    delivered_at = case when $3::boolean then now() end,
    first_failed_at = case when $3::boolean then first_failed_at else coalesce(first_failed_at, now()) end,
    next_attempt_at = case when $3::boolean then next_attempt_at else now() + interval '5 seconds' end,
    claimed_by = null, claim_expires_at = null, updated_at = now()
  where id = $1 and claimed_by = $2`;

interface Claimed {
  id: string;
  event_id: string;
  type: string;
  created_at: Date | string;
  data: unknown;
}

/**
 * Delivers every due row, `inFlight` at once, each lane's in position order (one in flight per
 * lane: a lane's next row is claimable only once its head is no longer pending). A sender that
 * finds nothing claimable while others are still sending waits for the next of them to finish
 * (its lane's next row may then be due), not for a timer. Returns the deliveries made.
 */
export async function runNotificationFloor(query: FloorQuery, input: { url: string; secret: string; inFlight: number }): Promise<{ delivered: number; failed: number }> {
  const target = new URL(input.url);
  let delivered = 0;
  let failed = 0;
  let sending = 0;
  let wake: Array<() => void> = [];
  const finished = (): void => {
    const waiting = wake;
    wake = [];
    for (const resolve of waiting) resolve();
  };
  const sender = async (): Promise<void> => {
    for (;;) {
      const [row] = (await query(CLAIM, [CLAIMED_BY, LEASE_SECONDS])) as unknown as Claimed[];
      if (!row) {
        if (sending === 0) return;
        await new Promise<void>((resolve) => wake.push(resolve));
        continue;
      }
      sending += 1;
      try {
        const data = typeof row.data === 'string' ? (JSON.parse(row.data) as unknown) : row.data;
        const body = JSON.stringify({ id: row.event_id, type: row.type, createdAt: new Date(row.created_at).toISOString(), data });
        const headers = signedHeaders([input.secret], row.event_id, Math.floor(Date.now() / 1000), body);
        const status = await post(target, headers, body);
        const ok = status >= 200 && status < 300;
        await query(RECORD, [row.id, CLAIMED_BY, ok, status]);
        if (ok) delivered += 1;
        else failed += 1;
      } finally {
        sending -= 1;
        finished();
      }
    }
  };
  await Promise.all(Array.from({ length: input.inFlight }, () => sender()));
  return { delivered, failed };
}

/** One POST on a connection of its own (as the gateway sends each notification); the answer's status, 0 if none came. */
function post(url: URL, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve) => {
    const outgoing = request(url, { method: 'POST', agent: false, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', () => resolve(0));
    });
    outgoing.on('error', () => resolve(0));
    outgoing.end(body);
  });
}
