// The one visibility policy: which payment records (and events about them) an API client may see,
// answered as an in-memory check and as a SQL filter, both derived from the same list of grants.
// Which roles see a kind of record is declared by the module that owns the kind
// (`declareVisibility`, at composition); admins see every kind.

import type { Role } from './roles.js';

/** The kind of a record the policy covers, as its module names it: a subject of the payment event log. */
export type SubjectType = string;

/**
 * Who besides admins sees the records of one subject kind and the events about them, as the module
 * that owns the kind declares it. A kind that names no role is for admins alone.
 *
 * @example
 * declareVisibility({ subjectType: 'payout', inAccounts: ['PAYOUTS'] });
 */
export interface SubjectVisibility {
  readonly subjectType: SubjectType;
  /** Roles that see the records their holder owns (`clientId`), in any merchant account. */
  readonly owned?: readonly Role[];
  /** Roles that see every record of the merchant accounts their holder may use, whoever owns it. */
  readonly inAccounts?: readonly Role[];
}

const declared = new Map<SubjectType, SubjectVisibility>();

/**
 * Declares who sees one subject kind (at composition, before any request). Declaring a kind again
 * with the same rule does nothing (gateways in one process share the policy); another rule throws.
 */
export function declareVisibility(visibility: SubjectVisibility): void {
  const known = declared.get(visibility.subjectType);
  if (known && JSON.stringify(known) !== JSON.stringify(visibility)) throw new Error(`The ${visibility.subjectType} subject kind's visibility is declared twice, differently`);
  declared.set(visibility.subjectType, visibility);
}

/** Every declared subject kind, in declaration order. */
export function subjectTypes(): SubjectType[] {
  return [...declared.keys()];
}

/**
 * What the policy reads on a record. The same two properties exist on the subjects' rows, on
 * payment-event rows and on their live notifications, so each of them can be passed as it is:
 * - `clientId`: the owner, as the subject's module defines it; null when no client owns it.
 * - `merchantAccount`: the merchant account it belongs to.
 */
export interface VisibilityFacts {
  clientId?: string | null | undefined;
  merchantAccount: string | null;
  /** Only on events: an anomaly the gateway raised about the subject, for admins alone. */
  adminOnly?: boolean | null | undefined;
}

/** A caller, as the policy needs it: `ApiClient` satisfies this. */
export interface Caller {
  id: string;
  roles: readonly Role[];
  /** Merchant accounts the client may use; null or undefined: every account. */
  merchantAccounts?: readonly string[] | null;
}

/**
 * What a caller may see, and nothing of who it is: the policy's answers without the caller. Made by
 * {@link visibilityOf}, equal for every caller of one {@link visibilityClass}; a subscription
 * group executes with it, so no resolver can read one member's identity on another's behalf.
 */
export interface Visibility {
  /** The roles, each once, sorted. */
  readonly roles: readonly Role[];
  /** The merchant accounts, each once, sorted; null: every account. */
  readonly merchantAccounts: readonly string[] | null;
  /**
   * The client whose own records a grant is limited to (a cashier's), else null. It is part of
   * the class: every caller of a class with an owner is that one client.
   */
  readonly owner: string | null;
}

/** Whom the policy answers for: a caller, or a visibility (every caller of its class). */
export type Viewer = Caller | Visibility;

/** The client a viewer's owner-limited grants (a cashier's) are limited to; null for a visibility with none. */
function ownerOf(viewer: Viewer): string | null {
  return 'owner' in viewer ? viewer.owner : viewer.id;
}

/**
 * One reason to see records: every record of one of `subjects` (of every kind when absent) that
 * matches each restriction given. An absent restriction does not restrict; an empty
 * `merchantAccounts` matches nothing.
 */
export interface Grant {
  /** The role this grant comes from. */
  role: Role;
  subjects?: readonly SubjectType[];
  /** Only records this client owns. */
  clientId?: string;
  /** Only records of these merchant accounts. */
  merchantAccounts?: readonly string[];
}

/** The declared kinds `role` sees by `scope`. */
function kindsSeen(role: Role, scope: 'owned' | 'inAccounts'): SubjectType[] {
  return [...declared.values()].filter((kind) => kind[scope]?.includes(role)).map((kind) => kind.subjectType);
}

/**
 * The grants a viewer holds; a client with several roles holds the union. ADMIN sees everything;
 * every other role sees what the subject kinds declare for it (`declareVisibility`).
 */
export function grantsOf(viewer: Viewer): Grant[] {
  const accounts = viewer.merchantAccounts == null ? {} : { merchantAccounts: [...viewer.merchantAccounts] };
  const owner = ownerOf(viewer);
  const grants: Grant[] = [];
  for (const role of new Set(viewer.roles)) {
    if (role === 'ADMIN') {
      grants.push({ role });
      continue;
    }
    const owned = kindsSeen(role, 'owned');
    // A visibility without an owner cannot hold an owner-limited grant: it grants nothing rather than everything.
    if (owned.length > 0 && owner !== null) grants.push({ role, subjects: owned, clientId: owner });
    const inAccounts = kindsSeen(role, 'inAccounts');
    if (inAccounts.length > 0) grants.push({ role, subjects: inAccounts, ...accounts });
  }
  return grants;
}

export interface VisibilityOptions {
  /**
   * Count only the grants of these roles (ADMIN's always counts), to ask "may this client act on
   * the record in that capacity": e.g. a refund is requested as a REFUNDS client, never as a cashier.
   */
  through?: readonly Role[];
}

function grantsFor(viewer: Viewer, options: VisibilityOptions): Grant[] {
  const grants = grantsOf(viewer);
  return options.through ? grants.filter((grant) => grant.role === 'ADMIN' || options.through!.includes(grant.role)) : grants;
}

/** Whether `grant` covers records of `subjectType`. */
function covers(grant: Grant, subjectType: SubjectType): boolean {
  return grant.subjects === undefined || grant.subjects.includes(subjectType);
}

function matches(grant: Grant, subjectType: SubjectType, record: VisibilityFacts): boolean {
  if (!covers(grant, subjectType)) return false;
  if (record.adminOnly && grant.role !== 'ADMIN') return false;
  if (grant.clientId !== undefined && record.clientId !== grant.clientId) return false;
  if (grant.merchantAccounts !== undefined && (record.merchantAccount == null || !grant.merchantAccounts.includes(record.merchantAccount))) return false;
  return true;
}

/**
 * May `viewer` see this record (or an event about it)? The in-memory form of the policy, for
 * single reads, `node` and live events.
 *
 */
export function maySee(viewer: Viewer, subjectType: SubjectType, record: VisibilityFacts, options: VisibilityOptions = {}): boolean {
  return seenBy(viewer, subjectType, options)(record);
}

/**
 * `maySee` for many records of one subject type: the viewer's grants worked out once, for a list
 * (e.g. a page's events) rather than once per record.
 */
export function seenBy(viewer: Viewer, subjectType: SubjectType, options: VisibilityOptions = {}): (record: VisibilityFacts) => boolean {
  const grants = grantsFor(viewer, options).filter((grant) => covers(grant, subjectType));
  return (record) => grants.some((grant) => matches(grant, subjectType, record));
}

/**
 * Whether `seenBy(viewer, subjectType)` accepts every record of the type whatever its facts, the
 * admin-only events included (an ADMIN grant): a list read for such a viewer need not read the facts.
 */
export function seesEvery(viewer: Viewer, subjectType: SubjectType): boolean {
  return grantsOf(viewer).some((grant) => grant.role === 'ADMIN' && covers(grant, subjectType) && grant.clientId === undefined && grant.merchantAccounts === undefined);
}

/** Whether the viewer holds ADMIN: what admin-only fields (a status reason, full account numbers) ask. */
export function isAdmin(viewer: Pick<Viewer, 'roles'>): boolean {
  return viewer.roles.includes('ADMIN');
}

/**
 * What `viewer` may see, as a frozen {@link Visibility}: the set of roles, the set of merchant
 * accounts (or "every account"), and the viewer's id as the owner only when one of its grants is
 * limited to records it owns (a cashier's); no name, key or other identity. Roles and accounts are
 * read as sets everywhere, so order and repeats do not change it. Every policy question has the
 * same answer for it as for the viewer.
 */
export function visibilityOf(viewer: Viewer): Visibility {
  const roles = Object.freeze([...new Set(viewer.roles)].sort());
  const accounts = viewer.merchantAccounts == null ? null : Object.freeze([...new Set(viewer.merchantAccounts)].sort());
  const owner = grantsOf(viewer).some((grant) => grant.clientId !== undefined) ? ownerOf(viewer) : null;
  return Object.freeze({ roles, merchantAccounts: accounts, owner });
}

/**
 * A key that is equal for two viewers only if every question this module can be asked about them
 * has the same answer, and every other caller-dependent read a GraphQL resolution makes (roles,
 * admin or not) too: so one subscription execution can serve every subscriber of a class. It is
 * their {@link visibilityOf} as text: equal keys, equal visibilities.
 */
export function visibilityClass(viewer: Viewer): string {
  const visibility = visibilityOf(viewer);
  return JSON.stringify([visibility.roles, visibility.merchantAccounts, visibility.owner]);
}

/**
 * A MikroORM condition on `clientId` and `merchantAccount` (and `subjectType` for the event log)
 * matching exactly what {@link maySee} accepts. An empty `$or` is SQL `1 = 0`: nothing.
 */
export type VisibilityWhere = Record<string, unknown>;

function grantWhere(grant: Grant, subjects: readonly SubjectType[] | undefined): VisibilityWhere | undefined {
  const where: VisibilityWhere = {};
  if (subjects) where.subjectType = { $in: [...subjects] };
  if (grant.clientId !== undefined) where.clientId = grant.clientId;
  if (grant.merchantAccounts !== undefined) {
    if (grant.merchantAccounts.length === 0) return undefined;
    where.merchantAccount = { $in: [...grant.merchantAccounts] };
  }
  return where;
}

/**
 * The records of one subject type `viewer` may see, as a condition on a table of that subject
 * (properties `clientId` and `merchantAccount`): the SQL form of {@link maySee}.
 */
export function visibleWhere(viewer: Viewer, subjectType: SubjectType, options: VisibilityOptions = {}): VisibilityWhere {
  const conditions: VisibilityWhere[] = [];
  for (const grant of grantsFor(viewer, options)) {
    if (!covers(grant, subjectType)) continue;
    const where = grantWhere(grant, undefined);
    if (!where) continue;
    if (Object.keys(where).length === 0) return {};
    conditions.push(where);
  }
  return { $or: conditions };
}

/**
 * The payment events `viewer` may see, as a condition on the event log (properties
 * `subjectType`, `clientId`, `merchantAccount`): the SQL form of {@link maySee} over every subject type.
 */
export function visibleEventsWhere(viewer: Viewer, options: VisibilityOptions = {}): VisibilityWhere {
  const conditions: VisibilityWhere[] = [];
  for (const grant of grantsFor(viewer, options)) {
    const where = grantWhere(grant, grant.subjects);
    if (!where) continue;
    if (grant.role !== 'ADMIN') where.adminOnly = false;
    if (Object.keys(where).length === 0) return {};
    conditions.push(where);
  }
  return { $or: conditions };
}
