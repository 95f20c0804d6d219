// Per-request DataLoaders: list fields batch their lookups, so a page costs the same number of
// SQL statements whatever its size. Created lazily, one set per GraphQL context.

import DataLoader from 'dataloader';
import type { PaymentEvent } from '../modules/events/payment-event.entity.js';
import type { GatewayContext } from './context.js';

export interface Loaders {
  /** Events of each deposit, oldest first. */
  depositEvents: DataLoader<string, PaymentEvent[]>;
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
    };
    perContext.set(context, existing);
  }
  return existing;
}
