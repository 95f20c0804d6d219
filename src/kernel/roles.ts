// The roles an internal API client can hold, and what each one may do (DESIGN.md).

export const ROLES = ['CASHIER', 'PAYOUTS', 'REFUNDS', 'ADMIN'] as const;

/**
 * - CASHIER: create deposits and QR codes; read and subscribe to its own.
 * - PAYOUTS: create and read payouts.
 * - REFUNDS: request and read refunds.
 * - ADMIN: everything, every client's data, introspection.
 */
export type Role = (typeof ROLES)[number];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
