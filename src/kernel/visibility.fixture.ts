// The subject kinds' visibility as the modules declare it at composition (src/services.ts), for
// specs of the policy and of what reads it: they check the kernel's rules against the product's.

import { DEPOSIT_VISIBILITY } from '../modules/deposits/deposit-snapshot.js';
import { NOTIFICATION_ENDPOINT_VISIBILITY } from '../modules/notifications/notification-endpoints.js';
import { PAYOUT_VISIBILITY } from '../modules/payouts/payout-snapshot.js';
import { REFUND_VISIBILITY } from '../modules/refunds/refund-snapshot.js';
import { WITHDRAWAL_VISIBILITY } from '../modules/withdrawals/withdrawal-snapshot.js';
import { declareVisibility, type SubjectType, type SubjectVisibility } from './visibility.js';

export const SUBJECT_KINDS: readonly SubjectVisibility[] = [DEPOSIT_VISIBILITY, REFUND_VISIBILITY, PAYOUT_VISIBILITY, WITHDRAWAL_VISIBILITY, NOTIFICATION_ENDPOINT_VISIBILITY];

export const SUBJECT_TYPES: readonly SubjectType[] = SUBJECT_KINDS.map((kind) => kind.subjectType);

/** Declares every kind, as the gateway's start does. */
export function declareSubjectKinds(): void {
  for (const kind of SUBJECT_KINDS) declareVisibility(kind);
}
