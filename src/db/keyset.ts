// Keyset pagination over lists ordered newest first by (time, id): the filter for the rows that
// come after a cursor position, ties on the time broken by the id.

/**
 * Rows strictly after (`time`, `id`) in `ORDER BY <field> DESC, id DESC`.
 *
 * @example em.find(Deposit, { $and: [olderThan('createdAt', after.createdAt, after.id)] }, { orderBy: { createdAt: 'desc', id: 'desc' } })
 */
export function olderThan<F extends string>(field: F, time: Date, id: string): { $or: Array<Record<string, unknown>> } {
  return { $or: [{ [field]: { $lt: time } }, { [field]: time, id: { $lt: id } }] };
}
