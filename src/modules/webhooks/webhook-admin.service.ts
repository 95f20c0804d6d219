// Admin views of the webhook inbox: listing deliveries (never their bodies) and replaying a stored, verified one.

import type { Loaded } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { FieldError, ProviderName } from '../../providers/provider.js';
import { WebhookDelivery, type WebhookOutcome } from '../../kernel/inbox/webhook-delivery.entity.js';
import type { WebhookInbox } from '../../kernel/inbox/inbox.js';
import type { WebhookDecision } from '../../kernel/inbox/report-outcome.js';
import { olderThan } from '../../db/keyset.js';

export interface WebhookDeliveryFilter {
  outcome?: WebhookOutcome;
  provider?: ProviderName;
  merchantAccount?: string;
  subjectId?: string;
}

/** A delivery as admins see it: every column but the body, which is not even read. */
export type DeliveryListing = Loaded<WebhookDelivery, never, never, 'rawBody'>;

export interface ReplayResult {
  delivery: DeliveryListing | null;
  /** The decision of the replay itself (the row keeps `applied` if it already was). */
  decision: WebhookDecision | null;
  errors: FieldError[];
}

export class WebhookAdminService {
  constructor(
    private readonly deps: {
      webhooks: WebhookInbox;
    },
  ) {}

  /** Newest first, `limit` rows after the (receivedAt, id) position; the body is not even read. */
  page(em: SqlEntityManager, options: { limit: number; after?: { receivedAt: Date; id: string }; filter?: WebhookDeliveryFilter }): Promise<DeliveryListing[]> {
    const { filter = {}, after, limit } = options;
    const where: Record<string, unknown>[] = [];
    if (filter.outcome) where.push({ outcome: filter.outcome });
    if (filter.provider) where.push({ provider: filter.provider });
    if (filter.merchantAccount) where.push({ merchantAccount: filter.merchantAccount });
    if (filter.subjectId) where.push({ subjectId: filter.subjectId });
    if (after) where.push(olderThan('receivedAt', after.receivedAt, after.id));
    return em.find(WebhookDelivery, where.length ? { $and: where } : {}, { orderBy: { receivedAt: 'desc', id: 'desc' }, limit, exclude: ['rawBody'] });
  }

  /**
   * Re-applies a stored, verified delivery; a rejected one is refused (it was never trusted and
   * kept no body). It goes through the inbox's decision code, so an applied deposit status writes
   * its follow-up work (details fetch, deferred refunds) in the replay's own transaction.
   */
  async replay(em: SqlEntityManager, deliveryId: string): Promise<ReplayResult> {
    const result = await this.deps.webhooks.replay(em, deliveryId);
    if (!result.ok) {
      const delivery = result.code === 'DELIVERY_NOT_FOUND' ? null : await this.find(em, deliveryId);
      return { delivery, decision: null, errors: [{ field: ['id'], code: result.code, message: result.message }] };
    }
    const { ok: _ok, deliveryId: _id, ...decision } = result;
    return { delivery: await this.find(em, deliveryId), decision, errors: [] };
  }

  private find(em: SqlEntityManager, id: string): Promise<DeliveryListing | null> {
    return em.findOne(WebhookDelivery, { id }, { exclude: ['rawBody'], refresh: true });
  }
}
