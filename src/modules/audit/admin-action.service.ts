// Writes and reads the admin audit trail. An action's row is inserted before the action runs and
// completed after it, each as its own statement outside the action's transactions: the record
// survives whatever the action does, a rollback included.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { olderThan } from '../../db/keyset.js';
import { newId } from '../../lib/ids.js';
import { AdminAction, type AdminActionObject } from './admin-action.entity.js';

export interface AdminActionStart {
  action: string;
  clientId: string;
  clientName: string;
  requestId: string;
  /** Objects named by the arguments, known before the action runs. */
  objects: AdminActionObject[];
}

export interface AdminActionFilter {
  action?: string;
  clientId?: string;
  /** Actions that touched this object (by id). */
  objectId?: string;
}

export class AdminActionService {
  /** Records that an action starts; returns the row's id for `finish`. */
  async start(em: SqlEntityManager, start: AdminActionStart): Promise<string> {
    const id = newId('adm');
    await em.insert(AdminAction, { id, ...start, outcome: null, startedAt: new Date(), finishedAt: null });
    return id;
  }

  /** Records how the action ended and every object it touched. */
  async finish(em: SqlEntityManager, id: string, outcome: string, objects: AdminActionObject[]): Promise<void> {
    await em.nativeUpdate(AdminAction, { id }, { outcome, objects, finishedAt: new Date() });
  }

  /** Newest first, `limit` rows after the (startedAt, id) position. */
  page(em: SqlEntityManager, options: { limit: number; after?: { startedAt: Date; id: string }; filter?: AdminActionFilter }): Promise<AdminAction[]> {
    const { filter = {}, after, limit } = options;
    const where: Record<string, unknown>[] = [];
    if (filter.action) where.push({ action: filter.action });
    if (filter.clientId) where.push({ clientId: filter.clientId });
    if (filter.objectId) where.push({ objects: { $contains: [{ id: filter.objectId }] } });
    if (after) where.push(olderThan('startedAt', after.startedAt, after.id));
    return em.find(AdminAction, where.length ? { $and: where } : {}, { orderBy: { startedAt: 'desc', id: 'desc' }, limit });
  }
}
