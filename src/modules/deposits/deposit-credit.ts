// The exactly-once credit hand-off: the first claim of a SUCCEEDED deposit's credit, from any
// instance or transport, is the one answered `firstClaim: true`; every other claim gets the
// original time and `firstClaim: false`. The winning claim records its client's claim key, so the
// same claim retried after its answer was lost (a cashier instance died, a proxy timed out) is
// told again that it won, and the player is still credited once. The deposit's row lock decides
// between racing claims, and the claim commits with its event (`deposit.credit_claimed`), so it is
// in the log and reaches every subscriber.

import { LockMode } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { idempotencyKeyErrors } from '../../kernel/idempotency.js';
import type { TransitionPath } from '../../kernel/transitions.js';
import { maySee } from '../../kernel/visibility.js';
import type { FieldError } from '../../providers/provider.js';
import type { ApiClient } from '../clients/api-client.entity.js';
import { Deposit } from './deposit.entity.js';
import { toDepositSnapshot, type DepositSnapshot } from './deposit-snapshot.js';
import { depositTransitions } from './deposit-transitions.js';

export const DEPOSIT_CREDIT_CLAIMED = 'deposit.credit_claimed';

export interface CreditClaim {
  claimedAt: Date;
  /** True for the one claim that made it (and for that claim retried under its key); false for every other. */
  firstClaim: boolean;
}

export type CreditClaimResult = { deposit: DepositSnapshot | null; claim: CreditClaim | null; errors: FieldError[] };

/**
 * Claims the credit of a deposit for its owning client, the one that credits the player. Only a
 * SUCCEEDED deposit's credit can be claimed; a claim of any other answers its current status and
 * changes nothing. With `claimKey`, a claim by the same client under the key of the claim that won
 * is that claim again. An admin may read the deposit but not claim it: a claim outside the cashier
 * would take the credit for good while no one credits the player.
 */
export async function claimDepositCredit(em: SqlEntityManager, transitions: TransitionPath, client: ApiClient, depositId: string, claimKey?: string): Promise<CreditClaimResult> {
  const invalid = idempotencyKeyErrors(claimKey, 'claimKey');
  if (invalid.length > 0) return { deposit: null, claim: null, errors: invalid };
  return em.transactional(async (tx) => {
    const deposit = await tx.findOne(Deposit, { id: depositId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    // Only its owner credits a player: another client that may read the deposit (a back office)
    // learns nothing here, as for a deposit it cannot see; an admin is told why it cannot claim.
    if (!deposit || !maySee(client, 'deposit', deposit) || !(client.isAdmin() || deposit.clientId === client.id)) {
      return { deposit: null, claim: null, errors: [{ field: ['depositId'], code: 'NOT_FOUND', message: `No deposit ${depositId}` }] };
    }
    if (deposit.clientId !== client.id) {
      const message = 'Only the deposit\'s own client claims its credit (it credits the player); read creditClaimedAt on the deposit instead';
      return { deposit: toDepositSnapshot(deposit), claim: null, errors: [{ field: ['depositId'], code: 'CREDIT_CLAIM_OWNER_ONLY', message }] };
    }
    if (deposit.creditClaimedAt) {
      const sameClaim = claimKey !== undefined && deposit.creditClaimKey === claimKey && deposit.creditClaimedBy === client.id;
      return { deposit: toDepositSnapshot(deposit), claim: { claimedAt: deposit.creditClaimedAt, firstClaim: sameClaim }, errors: [] };
    }
    if (deposit.status !== 'SUCCEEDED') {
      const message = `Only a SUCCEEDED deposit's credit can be claimed; this one is ${deposit.status}`;
      return { deposit: toDepositSnapshot(deposit), claim: null, errors: [{ field: ['depositId'], code: 'DEPOSIT_NOT_SUCCEEDED', message }] };
    }
    const claimedAt = new Date();
    const claim = { creditClaimedAt: claimedAt, creditClaimKey: claimKey ?? null, creditClaimedBy: client.id, updatedAt: claimedAt };
    // The claim and its event, one statement on the path; the entity then takes the row as written,
    // so nothing is left for a flush.
    const { returned } = await transitions.record(tx, depositTransitions, {
      event: DEPOSIT_CREDIT_CLAIMED,
      row: deposit,
      next: Object.assign(deposit, claim),
      update: {
        set: { credit_claimed_at: claim.creditClaimedAt, credit_claim_key: claim.creditClaimKey, credit_claimed_by: claim.creditClaimedBy, updated_at: claim.updatedAt },
        returning: '*',
      },
    });
    if (!returned) throw new Error(`deposit ${deposit.id} vanished under its row lock`);
    const claimed = tx.map(Deposit, returned);
    return { deposit: toDepositSnapshot(claimed), claim: { claimedAt, firstClaim: true }, errors: [] };
  });
}
