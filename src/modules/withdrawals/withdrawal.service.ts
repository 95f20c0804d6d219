// Reads withdrawals back for admins: one by id, or a page newest first.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { WithdrawalStatus } from '../../providers/provider.js';
import { Withdrawal } from './withdrawal.entity.js';
import { olderThan } from '../../db/keyset.js';
import { maySee, type Viewer } from '../../kernel/visibility.js';

export interface WithdrawalPageInput {
  limit: number;
  after?: { createdAt: Date; id: string };
  filter?: { merchantAccount?: string; status?: WithdrawalStatus; livemode?: boolean };
}

export class WithdrawalService {
  find(em: SqlEntityManager, id: string): Promise<Withdrawal | null> {
    return em.findOne(Withdrawal, { id });
  }

  /** A withdrawal the client may see (admins only: it belongs to no client), or null. */
  async findVisible(em: SqlEntityManager, client: Viewer, id: string): Promise<Withdrawal | null> {
    const withdrawal = await em.findOne(Withdrawal, { id });
    return withdrawal && maySee(client, 'withdrawal', { clientId: null, merchantAccount: withdrawal.merchantAccount }) ? withdrawal : null;
  }

  page(em: SqlEntityManager, input: WithdrawalPageInput): Promise<Withdrawal[]> {
    const { filter = {}, after, limit } = input;
    const where: Record<string, unknown>[] = [];
    if (filter.merchantAccount) where.push({ merchantAccount: filter.merchantAccount });
    if (filter.status) where.push({ status: filter.status });
    if (filter.livemode !== undefined) where.push({ livemode: filter.livemode });
    if (after) where.push(olderThan('createdAt', after.createdAt, after.id));
    return em.find(Withdrawal, where.length ? { $and: where } : {}, { orderBy: { createdAt: 'desc', id: 'desc' }, limit });
  }
}
