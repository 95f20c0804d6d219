// Admin management of notification endpoints: create (the secret shown once), list, update, rotate
// the secret, delete. Every refusal is a userError that changes nothing. Rows are read and written
// with plain SQL, as the job queue's are; the secret is stored sealed (docs/secrets.md), and never
// opened except to sign or to keep signing with it during a rotation's overlap.

import type { SubjectVisibility } from '../../kernel/visibility.js';
import type { SubjectRows } from '../../kernel/subject-writes.js';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { SealedColumns } from '../../db/sealed-columns.js';
import type { Clock } from '../../lib/clock.js';
import type { SealedPlace, SecretSealer } from '../../lib/sealed-secrets.js';
import { newId } from '../../lib/ids.js';
import type { FieldError } from '../../providers/provider.js';
import { DEPOSIT_DISPUTED } from '../disputes/chargeback-webhooks.js';
import { DEPOSIT_CREDIT_CLAIMED } from '../deposits/deposit-credit.js';
import { DEPOSIT_STATUS_CHANGED } from '../deposits/deposit-transitions.js';
import { PAYOUT_CREATED, PAYOUT_STATUS_CHANGED } from '../payouts/payout-transitions.js';
import { DEPOSIT_REFUND_UPDATED, REFUND_CREATED, REFUND_STATUS_CHANGED } from '../refunds/refund-transitions.js';
import { WITHDRAWAL_CREATED, WITHDRAWAL_STATUS_CHANGED } from '../withdrawals/withdrawal-webhooks.js';
import { checkDestinationUrl } from '../../lib/outbound-http.js';
import { redactionPolicy } from '../../kernel/redaction.js';
import { newSecret } from './notification-signing.js';
import type { NotificationSettings } from './notification-settings.js';

/** Recorded (admin only) when an endpoint's delivery is given up after NOTIFICATION_RETRY_FOR_MS. */
export const NOTIFICATION_ENDPOINT_FAILING = 'notification_endpoint.failing';

const ENDPOINT_TABLE = 'notification_endpoint';

/** An endpoint as its events carry it (the notifier writes it when the endpoint starts failing). */
export interface NotificationEndpointSnapshot {
  id: string;
  clientId: string;
  url: string;
  state: 'healthy' | 'failing';
}

/** The merchant account of an event that belongs to none (an endpoint's): admins alone see those. */
const NO_MERCHANT_ACCOUNT = '-';

/**
 * An endpoint as a subject of the event log, registered with the transition path (`registerRows`):
 * no provider reports its state, the notifier's count of failed deliveries does; its events are
 * written by the path like every subject's. It belongs to no merchant account.
 */
export const notificationEndpointRows: SubjectRows<NotificationEndpointSnapshot> = {
  type: 'endpoint',
  table: ENDPOINT_TABLE,
  idOf: (endpoint) => endpoint.id,
  statusOf: (endpoint) => endpoint.state,
  owner: () => ({ clientId: null, merchantAccount: NO_MERCHANT_ACCOUNT }),
  snapshot: (endpoint) => ({ id: endpoint.id, clientId: endpoint.clientId, url: endpoint.url, state: endpoint.state }),
};

/** No field apart: an endpoint's events are admin-only events, which no other client is sent. */
export const NOTIFICATION_ENDPOINT_REDACTION = redactionPolicy<NotificationEndpointSnapshot>('endpoint', { adminOnly: [] });

/** A notification endpoint is the subject of admin-only events alone. */
export const NOTIFICATION_ENDPOINT_VISIBILITY: SubjectVisibility = { subjectType: 'endpoint' };

/**
 * Event types an endpoint may filter on: every type the event log records. The admin-only ones
 * (`deposit.net_mismatch`, `payout.missing_at_provider`, `notification_endpoint.failing`) reach
 * only an admin client's endpoints, as in `events(after:)`.
 */
export const NOTIFICATION_EVENT_TYPES: readonly string[] = [
  'deposit.created',
  DEPOSIT_STATUS_CHANGED,
  'deposit.details_updated',
  DEPOSIT_DISPUTED,
  DEPOSIT_CREDIT_CLAIMED,
  DEPOSIT_REFUND_UPDATED,
  'deposit.net_mismatch',
  REFUND_CREATED,
  REFUND_STATUS_CHANGED,
  PAYOUT_CREATED,
  PAYOUT_STATUS_CHANGED,
  'payout.missing_at_provider',
  WITHDRAWAL_CREATED,
  WITHDRAWAL_STATUS_CHANGED,
  NOTIFICATION_ENDPOINT_FAILING,
];

const MAX_URL_LENGTH = 2_000;

/** The endpoint's signing secrets, sealed: what a re-seal goes through. */
export const ENDPOINT_SECRET_COLUMNS: SealedColumns = { table: ENDPOINT_TABLE, idColumn: 'id', columns: ['secret', 'previous_secret'] };

/** Where an endpoint's secret is sealed to: its row and column, so it opens nowhere else. */
export function secretPlace(endpointId: string, column: 'secret' | 'previous_secret'): SealedPlace {
  return { table: ENDPOINT_TABLE, column, id: endpointId };
}

export type EndpointState = 'healthy' | 'failing';

/** Why an endpoint is disabled: by an admin, or because its client was revoked (for good: it cannot be enabled again). */
export type EndpointDisabledReason = 'admin' | 'client_revoked';

/** An endpoint as admins see it: never its secrets. */
export interface NotificationEndpointView {
  id: string;
  clientId: string;
  url: string;
  /** Empty: every type. */
  eventTypes: string[];
  enabled: boolean;
  /** Null while it is enabled. */
  disabledReason: EndpointDisabledReason | null;
  state: EndpointState;
  /** Since when every attempt to it has failed (the gateway's clock); null once one succeeds. */
  failedSince: Date | null;
  /** While its receiver fails every attempt: when the next probe may go (its lanes wait for it). */
  nextProbeAt: Date | null;
  /** The last log position fanned out to it. */
  cursor: string;
  /** Until when the previous secret still signs, after a rotation; null when only one signs. */
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type EndpointResult = { ok: true; endpoint: NotificationEndpointView; /** Only from create and rotate. */ secret?: string } | { ok: false; errors: FieldError[]; endpoint?: NotificationEndpointView };

export const ENDPOINT_COLUMNS =
  'id, client_id, url, event_types, enabled, disabled_reason, state, failed_since, next_probe_at, cursor::text as cursor, previous_secret_expires_at, created_at, updated_at';

interface EndpointRow {
  id: string;
  client_id: string;
  url: string;
  event_types: string[] | string;
  enabled: boolean;
  disabled_reason: EndpointDisabledReason | null;
  state: EndpointState;
  failed_since: Date | string | null;
  next_probe_at: Date | string | null;
  cursor: string;
  previous_secret_expires_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export function endpointView(row: EndpointRow): NotificationEndpointView {
  return {
    id: row.id,
    clientId: row.client_id,
    url: row.url,
    eventTypes: textArray(row.event_types),
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    state: row.state,
    failedSince: row.failed_since == null ? null : new Date(row.failed_since),
    nextProbeAt: row.next_probe_at == null ? null : new Date(row.next_probe_at),
    cursor: row.cursor,
    previousSecretExpiresAt: row.previous_secret_expires_at == null ? null : new Date(row.previous_secret_expires_at),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/** A text[] column as the driver returns it: an array (pg) or its literal (some PGlite paths). */
export function textArray(value: string[] | string): string[] {
  if (Array.isArray(value)) return value;
  const inner = value.replace(/^\{|\}$/g, '');
  return inner === '' ? [] : inner.split(',').map((item) => item.replace(/^"|"$/g, ''));
}

export interface CreateEndpointInput {
  clientId: string;
  url: string;
  eventTypes?: string[] | null;
}

export interface UpdateEndpointInput {
  id: string;
  url?: string | null;
  eventTypes?: string[] | null;
  enabled?: boolean | null;
}

export class NotificationEndpoints {
  constructor(private readonly deps: { clock: Clock; settings: () => NotificationSettings; secrets: SecretSealer }) {}

  /**
   * Registers an endpoint for a client, enabled and healthy, its cursor at the log's current end:
   * it is sent the events recorded from now on (replay sets the cursor back). The secret is
   * returned here and by a rotation only.
   */
  async create(em: SqlEntityManager, input: CreateEndpointInput): Promise<EndpointResult> {
    const errors = [...(await this.checkClient(em, input.clientId)), ...this.checkUrl(input.url), ...checkEventTypes(input.eventTypes)];
    if (errors.length > 0) return { ok: false, errors };
    const id = newId('nep');
    const secret = newSecret();
    const now = new Date();
    const rows = await em.execute<EndpointRow[]>(
      `insert into notification_endpoint (id, client_id, url, event_types, enabled, state, secret, cursor, created_at, updated_at)
       values (?, ?, ?, ?::text[], true, 'healthy', ?, (select coalesce(max(position), 0) from payment_event), ?, ?)
       returning ${ENDPOINT_COLUMNS}`,
      [id, input.clientId, input.url, uniqueTypes(input.eventTypes), this.deps.secrets.seal(secret, secretPlace(id, 'secret')), now, now],
    );
    return { ok: true, endpoint: endpointView(rows[0]!), secret };
  }

  /** Every endpoint, oldest first; only one client's with `clientId`. */
  async list(em: SqlEntityManager, filter: { clientId?: string } = {}): Promise<NotificationEndpointView[]> {
    const rows = await em.execute<EndpointRow[]>(
      `select ${ENDPOINT_COLUMNS} from notification_endpoint ${filter.clientId ? 'where client_id = ?' : ''} order by created_at, id`,
      filter.clientId ? [filter.clientId] : [],
    );
    return rows.map(endpointView);
  }

  async find(em: SqlEntityManager, id: string): Promise<NotificationEndpointView | null> {
    const rows = await em.execute<EndpointRow[]>(`select ${ENDPOINT_COLUMNS} from notification_endpoint where id = ?`, [id]);
    return rows[0] ? endpointView(rows[0]) : null;
  }

  /**
   * Changes the URL, the event types or whether it is enabled; what is not given stays. An
   * endpoint enabled again starts at the log's current end, as a new one does: what happened
   * while it was disabled is not sent (replay sends it). Its pending deliveries go out again. An
   * endpoint of a revoked client is not enabled again (CLIENT_REVOKED): nothing would be sent.
   * A new URL, or enabling it again, while its receiver was being probed probes it at once.
   */
  async update(em: SqlEntityManager, input: UpdateEndpointInput): Promise<EndpointResult> {
    return em.transactional(async (tx) => {
      const current = await this.find(tx, input.id);
      if (!current) return { ok: false, errors: [notFound(['id'])] };
      const reenabled = input.enabled === true && !current.enabled;
      const errors = [
        ...(input.url != null ? this.checkUrl(input.url) : []),
        ...(input.eventTypes != null ? checkEventTypes(input.eventTypes) : []),
        ...(reenabled ? await this.checkClientActive(tx, current.clientId) : []),
      ];
      if (errors.length > 0) return { ok: false, errors, endpoint: current };
      const probeNow = reenabled || (input.url != null && input.url !== current.url);
      const rows = await tx.execute<EndpointRow[]>(
        `update notification_endpoint set
           url = coalesce(?, url),
           event_types = coalesce(?::text[], event_types),
           enabled = coalesce(?, enabled),
           disabled_reason = case when coalesce(?, enabled) then null when enabled then 'admin' else disabled_reason end,
           cursor = case when ? then (select coalesce(max(position), 0) from payment_event) else cursor end,
           next_probe_at = case when ? and next_probe_at is not null then least(next_probe_at, ?) else next_probe_at end,
           updated_at = ?
         where id = ? returning ${ENDPOINT_COLUMNS}`,
        [input.url ?? null, input.eventTypes != null ? uniqueTypes(input.eventTypes) : null, input.enabled ?? null, input.enabled ?? null, reenabled, probeNow, this.deps.clock.now(), new Date(), input.id],
      );
      if (!rows[0]) return { ok: false, errors: [notFound(['id'])] };
      return { ok: true, endpoint: endpointView(rows[0]) };
    });
  }

  /**
   * Disables every endpoint of a client being revoked, in the revocation's transaction, with the
   * reason `client_revoked`: the sweep wakes none of their lanes again, their pending deliveries
   * stay unsent (an admin reads them, and deletes the endpoint), and none can be enabled again.
   */
  async disableForRevokedClient(tx: SqlEntityManager, clientId: string): Promise<void> {
    await tx.execute(
      "update notification_endpoint set enabled = false, disabled_reason = 'client_revoked', updated_at = ? where client_id = ? and disabled_reason is distinct from 'client_revoked'",
      [new Date(), clientId],
    );
  }

  /**
   * A new secret signs from now on; the one it replaces still signs too (a second `v1,` entry)
   * for NOTIFICATION_SECRET_OVERLAP_MS on the gateway's clock, so the receiver can switch without
   * refusing a delivery. A second rotation within the overlap drops the oldest secret.
   *
   * A current secret that no configured key opens (its key lost) cannot sign during an overlap:
   * the new secret then signs alone, at once. That is the way back for an endpoint after a lost key.
   */
  async rotate(em: SqlEntityManager, id: string): Promise<EndpointResult> {
    const secret = newSecret();
    const overlapEnds = new Date(this.deps.clock.now().getTime() + this.deps.settings().secretOverlapMs);
    return em.transactional(async (tx) => {
      // The row held: a re-seal of it waits, and two rotations take turns.
      const [current] = await tx.execute<Array<{ secret: string }>>('select secret from notification_endpoint where id = ? for update', [id]);
      if (!current) return { ok: false, errors: [notFound(['id'])] };
      const opened = this.deps.secrets.open(current.secret, secretPlace(id, 'secret'));
      const previous = opened.ok ? this.deps.secrets.seal(opened.plaintext, secretPlace(id, 'previous_secret')) : null;
      const rows = await tx.execute<EndpointRow[]>(
        `update notification_endpoint set previous_secret = ?, previous_secret_expires_at = ?, secret = ?, updated_at = ?
         where id = ? returning ${ENDPOINT_COLUMNS}`,
        [previous, previous === null ? null : overlapEnds, this.deps.secrets.seal(secret, secretPlace(id, 'secret')), new Date(), id],
      );
      return { ok: true, endpoint: endpointView(rows[0]!), secret };
    });
  }

  /** Deletes the endpoint with its deliveries and their attempts; nothing more is sent to it. */
  async delete(em: SqlEntityManager, id: string): Promise<EndpointResult> {
    const rows = await em.execute<EndpointRow[]>(`delete from notification_endpoint where id = ? returning ${ENDPOINT_COLUMNS}`, [id]);
    if (!rows[0]) return { ok: false, errors: [notFound(['id'])] };
    return { ok: true, endpoint: endpointView(rows[0]) };
  }

  private async checkClient(em: SqlEntityManager, clientId: string): Promise<FieldError[]> {
    const rows = await em.execute<Array<{ revoked_at: Date | null }>>('select revoked_at from api_client where id = ?', [clientId]);
    if (!rows[0]) return [{ field: ['clientId'], code: 'NOT_FOUND', message: `No API client has the id ${JSON.stringify(clientId)}.` }];
    if (rows[0].revoked_at != null) return [{ field: ['clientId'], code: 'CLIENT_REVOKED', message: 'The API client is revoked: nothing would be delivered to it.' }];
    return [];
  }

  /**
   * An endpoint is enabled again only for a client that is not revoked. The client's row is read
   * under a share lock: a revocation committing meanwhile waits for this change, then disables
   * the endpoint again, or is seen here.
   */
  private async checkClientActive(tx: SqlEntityManager, clientId: string): Promise<FieldError[]> {
    const rows = await tx.execute<Array<{ revoked_at: Date | null }>>('select revoked_at from api_client where id = ? for share', [clientId]);
    if (rows[0]?.revoked_at == null) return [];
    return [{ field: ['enabled'], code: 'CLIENT_REVOKED', message: 'The endpoint\'s client is revoked: nothing would be delivered to it, so it stays disabled. Delete it, or create an endpoint for an active client.' }];
  }

  private checkUrl(url: string): FieldError[] {
    if (url.length > MAX_URL_LENGTH) return [{ field: ['url'], code: 'FIELD_TOO_LONG', message: `The URL is longer than ${MAX_URL_LENGTH} characters.` }];
    const checked = checkDestinationUrl(url, this.deps.settings().policy);
    return checked.ok ? [] : [{ field: ['url'], code: checked.code, message: checked.message }];
  }
}

function checkEventTypes(types: readonly string[] | null | undefined): FieldError[] {
  const unknown = (types ?? []).filter((type) => !NOTIFICATION_EVENT_TYPES.includes(type));
  return unknown.length === 0
    ? []
    : [{ field: ['eventTypes'], code: 'INVALID_VALUE', message: `Unknown event type ${unknown.map((type) => JSON.stringify(type)).join(', ')}; the types are: ${NOTIFICATION_EVENT_TYPES.join(', ')}.` }];
}

/** The types, each once, as a text[] literal (a JS array would be expanded into a list of parameters). */
function uniqueTypes(types: readonly string[] | null | undefined): string {
  return `{${[...new Set(types ?? [])].map((type) => `"${type.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

function notFound(field: string[]): FieldError {
  return { field, code: 'NOT_FOUND', message: 'No notification endpoint has this id.' };
}
