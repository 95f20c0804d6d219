// A payment's whole story, read from where each part is kept: its events (the log), the provider
// calls made for it and its reconciliation checks (src/kernel/call-records.ts), the webhook
// deliveries that matched it, the follow-up jobs about it, the notification attempts of its events,
// and a deposit's credit claim. Each source is read with its own keyset query for a batch of
// payments of one kind (one statement per source, whatever the batch), and the sources are merged
// in time order. Positions are (time to the microsecond, kind, id): stable under paging, since each
// source is read strictly after the position of the last entry given. Every entry carries the trace
// id its record keeps (the sampled span that wrote it); a credit claim's is its claim event's.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { PaymentSubjectKind } from '../../kernel/payment-scope.js';
import { DEPOSIT_CREDIT_CLAIMED } from '../deposits/deposit-credit.js';

/** The kinds of entry, in the order that breaks a tie of time. */
export const TIMELINE_KINDS = ['EVENT', 'CREDIT_CLAIM', 'PROVIDER_CALL', 'WEBHOOK_DELIVERY', 'JOB', 'RECONCILIATION_CHECK', 'NOTIFICATION_ATTEMPT'] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

const RANK: Readonly<Record<TimelineKind, number>> = Object.fromEntries(TIMELINE_KINDS.map((kind, rank) => [kind, rank])) as Record<TimelineKind, number>;

/** Where an entry stands: its time as UTC ISO text to the microsecond, its kind, and its id within the kind. */
export type TimelinePosition = readonly [at: string, kind: TimelineKind, key: string];

/** A position as a cursor key holds it, checked. */
export const isTimelinePosition = (value: unknown): value is TimelinePosition =>
  Array.isArray(value) &&
  value.length === 3 &&
  typeof value[0] === 'string' &&
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(value[0]) &&
  typeof value[1] === 'string' &&
  (TIMELINE_KINDS as readonly string[]).includes(value[1]) &&
  typeof value[2] === 'string' &&
  value[2].length <= 64;

/** One entry as read: its position, and the row of its source (column names as selected). */
export interface TimelineRow {
  kind: TimelineKind;
  position: TimelinePosition;
  subjectId: string;
  row: Record<string, unknown>;
}

export interface TimelineQuery {
  subjectType: PaymentSubjectKind;
  subjectIds: readonly string[];
  /** Entries strictly after this position. */
  after?: TimelinePosition | undefined;
  /** Entries per payment at most. */
  limit: number;
  /** Events raised for admins alone are read only for an admin. */
  adminOnlyEvents: boolean;
}

/** One source: a table (or join), its time, id and subject columns, and what it selects. */
interface Source {
  kind: TimelineKind;
  from: string;
  at: string;
  /** What orders entries of one time within the kind: text, compared byte by byte. */
  key: string;
  subjectType: string;
  subjectId: string;
  select: string;
  where?: string;
  /** Payment kinds this source has entries for; all when absent. */
  only?: readonly PaymentSubjectKind[];
}

const SOURCES: readonly Source[] = [
  {
    kind: 'EVENT',
    from: 'payment_event e',
    at: 'e.created_at',
    // The log's position orders events of one time as they were applied.
    key: "lpad(e.position::text, 20, '0')",
    subjectType: 'e.subject_type',
    subjectId: 'e.subject_id',
    select: 'e.position, e.id, e.type, e.subject_type, e.subject_id, e.client_id, e.merchant_account, e.admin_only, e.from_status, e.to_status, e.data, e.created_at, e.trace_id',
  },
  {
    kind: 'CREDIT_CLAIM',
    from: 'deposit c',
    at: 'c.credit_claimed_at',
    key: 'c.id',
    subjectType: "'deposit'",
    subjectId: 'c.id',
    // The claim writes its event in its own transaction: that event keeps the claim's trace.
    select: `c.id, c.credit_claimed_by, (select ce.trace_id from payment_event ce where ce.subject_type = 'deposit' and ce.subject_id = c.id and ce.type = '${DEPOSIT_CREDIT_CLAIMED}' order by ce.position limit 1) as trace_id`,
    where: 'c.credit_claimed_at is not null',
    only: ['deposit'],
  },
  {
    kind: 'PROVIDER_CALL',
    from: 'provider_call p',
    at: 'p.created_at',
    key: 'p.id',
    subjectType: 'p.subject_type',
    subjectId: 'p.subject_id',
    select: 'p.id, p.provider, p.merchant_account, p.operation, p.attempt, p.outcome, p.http_status, p.error, p.duration_ms, p.request_summary, p.response_summary, p.trace_id',
  },
  {
    kind: 'WEBHOOK_DELIVERY',
    from: 'webhook_delivery w',
    at: 'w.received_at',
    key: 'w.id',
    subjectType: 'w.subject_type',
    subjectId: 'w.subject_id',
    select: 'w.id, w.provider, w.merchant_account, w.event_id, w.event_name, w.outcome, w.reason, w.trace_id',
  },
  {
    kind: 'JOB',
    from: 'job j',
    at: 'j.created_at',
    key: 'j.id',
    subjectType: 'j.subject_type',
    subjectId: 'j.subject_id',
    select: 'j.id, j.kind as job_kind, j.status, j.attempts, j.max_attempts, j.last_error, j.run_at, j.finished_at, j.trace_id',
  },
  {
    kind: 'RECONCILIATION_CHECK',
    from: 'reconciliation_check r',
    at: 'r.created_at',
    key: 'r.id',
    subjectType: 'r.subject_type',
    subjectId: 'r.subject_id',
    select: 'r.id, r.outcome, r.reason, r.trace_id',
  },
  {
    kind: 'NOTIFICATION_ATTEMPT',
    from: 'notification_attempt a join notification_delivery d on d.id = a.delivery_id join notification_endpoint n on n.id = d.endpoint_id',
    at: 'a.attempted_at',
    key: 'a.id',
    subjectType: 'd.subject_type',
    subjectId: 'd.subject_id',
    select: 'a.id, a.http_status, a.error_code, a.duration_ms, a.response_excerpt, d.endpoint_id, d.event_id, n.url, a.trace_id',
  },
];

/** UTC ISO text to the microsecond: sorts as the times do, and reads back as the same timestamptz. */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The SQL condition "after `position`" for one source, and its parameters. */
function afterCondition(source: Source, position: TimelinePosition | undefined): { sql: string; params: unknown[] } {
  if (!position) return { sql: '', params: [] };
  const [at, kind, key] = position;
  const rank = RANK[source.kind];
  const other = RANK[kind];
  if (rank > other) return { sql: ` and ${source.at} >= ?::timestamptz`, params: [at] };
  if (rank < other) return { sql: ` and ${source.at} > ?::timestamptz`, params: [at] };
  return { sql: ` and (${source.at} > ?::timestamptz or (${source.at} = ?::timestamptz and ${source.key} collate "C" > ?))`, params: [at, at, key] };
}

async function readSource(em: SqlEntityManager, source: Source, query: TimelineQuery): Promise<TimelineRow[]> {
  const after = afterCondition(source, query.after);
  const ids = query.subjectIds.map(() => '?').join(', ');
  const events = source.kind === 'EVENT' && !query.adminOnlyEvents ? ' and e.admin_only = false' : '';
  const rows = await em.execute<Array<Record<string, unknown>>>(
    `select * from (
       select ${source.select}, ${source.subjectId} as tl_subject, ${iso(source.at)} as tl_at, ${source.key} as tl_key,
              row_number() over (partition by ${source.subjectId} order by ${source.at}, ${source.key} collate "C") as tl_n
       from ${source.from}
       where ${source.subjectType} = ? and ${source.subjectId} in (${ids})${source.where ? ` and ${source.where}` : ''}${events}${after.sql}
     ) entries
     where tl_n <= ?`,
    [query.subjectType, ...query.subjectIds, ...after.params, query.limit],
  );
  return rows.map((row) => ({ kind: source.kind, position: [String(row.tl_at), source.kind, String(row.tl_key)] as const, subjectId: String(row.tl_subject), row }));
}

/** -1, 0 or 1 as `a` stands before, at or after `b`. */
export function comparePositions(a: TimelinePosition, b: TimelinePosition): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  if (a[1] !== b[1]) return RANK[a[1]] - RANK[b[1]];
  return a[2] === b[2] ? 0 : a[2] < b[2] ? -1 : 1;
}

/**
 * The first `limit` entries of each payment after `after`, oldest first, by payment id: one
 * statement per source for the whole batch, each source read no further than `limit` entries
 * per payment (no more of one can be in the page).
 */
export async function readTimelines(em: SqlEntityManager, query: TimelineQuery): Promise<Map<string, TimelineRow[]>> {
  const byPayment = new Map<string, TimelineRow[]>(query.subjectIds.map((id) => [id, []]));
  if (query.subjectIds.length === 0) return byPayment;
  const sources = SOURCES.filter((source) => !source.only || source.only.includes(query.subjectType));
  // One after the other: a request holds one connection at a time, as everywhere else.
  for (const source of sources) {
    for (const row of await readSource(em, source, query)) byPayment.get(row.subjectId)?.push(row);
  }
  for (const [id, rows] of byPayment) byPayment.set(id, rows.sort((a, b) => comparePositions(a.position, b.position)).slice(0, query.limit));
  return byPayment;
}
