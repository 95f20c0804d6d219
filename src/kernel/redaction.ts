// What of a subject only admins may read: one redaction policy per subject kind, declared by its
// module beside the kind's snapshot and registered at composition (src/services.ts). Every path
// that shows a snapshot asks it: the GraphQL types that show a kind (so queries, `events(after:)`
// and subscriptions alike, src/graphql/redaction.ts) and back-office notifications. Which records
// a client may see at all is the visibility policy's (visibility.ts), not this one's.

import { isAdmin, subjectTypes, type SubjectType, type Viewer } from './visibility.js';

/** Who reads: only whether it is an admin matters here, so a caller, a visibility or an endpoint's client. */
export type Reader = Pick<Viewer, 'roles'>;

/**
 * One subject kind's fields for admins alone.
 *
 * @example
 * export const DEPOSIT_REDACTION = redactionPolicy<DepositSnapshot>('deposit', { adminOnly: ['statusReason'] });
 */
export interface RedactionPolicy {
  readonly subjectType: SubjectType;
  /**
   * Fields of the snapshot only admins may read: every other reader is given null for each, on
   * every path (a GraphQL field of the same name answers null, a notification's `data` has null).
   */
  readonly adminOnly: readonly string[];
  /**
   * Values the snapshot carries masked for every reader (the event log and notifications never hold
   * them in full) whose full form admins alone are shown, read by the API from the subject's row:
   * dotted paths of GraphQL fields, e.g. `beneficiary.accountNumber`.
   */
  readonly unmaskedForAdmins: readonly string[];
}

/** A subject kind's policy, typed by its snapshot so that a misspelt field does not compile. */
export function redactionPolicy<S extends object>(
  subjectType: SubjectType,
  policy: { adminOnly: ReadonlyArray<keyof S & string>; unmaskedForAdmins?: readonly string[] },
): RedactionPolicy {
  return Object.freeze({ subjectType, adminOnly: Object.freeze([...policy.adminOnly]), unmaskedForAdmins: Object.freeze([...(policy.unmaskedForAdmins ?? [])]) });
}

/** May `reader` read this field of the policy's snapshots (a field the policy does not name: yes)? */
export function mayRead(reader: Reader, policy: RedactionPolicy, field: string): boolean {
  return isAdmin(reader) || !policy.adminOnly.includes(field);
}

/** Is `reader` shown the full form of this masked value (`unmaskedForAdmins`)? */
export function readsUnmasked(reader: Reader, policy: RedactionPolicy, path: string): boolean {
  return isAdmin(reader) && policy.unmaskedForAdmins.includes(path);
}

/** The snapshot as `reader` may read it: itself for an admin, else a copy with each admin-only field null. */
export function redact<T extends object>(reader: Reader, policy: RedactionPolicy, snapshot: T): T {
  if (isAdmin(reader) || policy.adminOnly.length === 0) return snapshot;
  const redacted: Record<string, unknown> = { ...(snapshot as Record<string, unknown>) };
  for (const field of policy.adminOnly) if (field in redacted) redacted[field] = null;
  return redacted as T;
}

/** Every subject kind's policy, as the modules register them; complete once every kind has one. */
export class Redactions {
  private readonly policies = new Map<string, RedactionPolicy>();

  /** @param policies each subject kind's policy (`register`), as the modules declare them. */
  constructor(policies: readonly RedactionPolicy[] = []) {
    for (const policy of policies) this.register(policy);
  }

  register(policy: RedactionPolicy): void {
    if (this.policies.has(policy.subjectType)) throw new Error(`The ${policy.subjectType} subject kind has a redaction policy already`);
    this.policies.set(policy.subjectType, policy);
  }

  /**
   * Throws unless every subject kind declared to the visibility policy has a policy: called once
   * registration is done, so a kind added without one stops the gateway's start instead of being
   * sent whole.
   */
  assertComplete(): void {
    const missing = subjectTypes().filter((type) => !this.policies.has(type));
    if (missing.length > 0) throw new Error(`No redaction policy is registered for ${missing.join(', ')} (src/services.ts)`);
  }

  /** The policy of a subject type. Throws for a type without one: nothing is shown unredacted by default. */
  of(subjectType: string): RedactionPolicy {
    const policy = this.policies.get(subjectType);
    if (!policy) throw new Error(`No redaction policy is registered for the ${subjectType} subject kind`);
    return policy;
  }

  /** Every registered policy, in registration order. */
  all(): RedactionPolicy[] {
    return [...this.policies.values()];
  }

  /** A snapshot of `subjectType` as `reader` may read it (see {@link redact}). */
  redact<T extends object>(reader: Reader, subjectType: string, snapshot: T): T {
    return redact(reader, this.of(subjectType), snapshot);
  }
}
