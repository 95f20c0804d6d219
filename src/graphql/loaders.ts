// Per-request DataLoaders: list fields batch their lookups, so a page costs the same number of
// SQL statements whatever its size. Created lazily, one set per GraphQL context.

import DataLoader from 'dataloader';
import type { Deposit } from '../modules/deposits/deposit.entity.js';
import type { PaymentEvent } from '../modules/events/payment-event.entity.js';
import type { Refund } from '../modules/refunds/refund.entity.js';
import type { GatewayContext } from './context.js';

export interface Loaders {
  /** Events of each deposit, oldest first. */
  depositEvents: DataLoader<string, PaymentEvent[]>;
  /** Refunds of each deposit, oldest first. */
  depositRefunds: DataLoader<string, Refund[]>;
  /** Deposits by id, for `Refund.deposit` (no visibility check: whoever sees a refund sees its deposit). */
  deposits: DataLoader<string, Deposit>;
}

const perContext = new WeakMap<GatewayContext, Loaders>();

export function loaders(context: GatewayContext): Loaders {
  let existing = perContext.get(context);
  if (!existing) {
    existing = {
      depositEvents: new DataLoader(async (ids) => {
        const grouped = await context.services.events.forSubjects(context.em, 'deposit', [...ids]);
        return ids.map((id) => grouped.get(id) ?? []);
      }),
      depositRefunds: new DataLoader(async (ids) => {
        const grouped = await context.services.refunds.forDeposits(context.em, ids);
        return ids.map((id) => grouped.get(id) ?? []);
      }),
      deposits: new DataLoader(async (ids) => {
        const found = await context.services.refunds.depositsOf(context.em, ids);
        return ids.map((id) => found.get(id) ?? new Error(`No deposit ${id}`));
      }),
    };
    perContext.set(context, existing);
  }
  return existing;
}
