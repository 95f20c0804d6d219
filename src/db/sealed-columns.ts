// The columns that hold sealed secrets, as each module declares them, and what is done across all
// of them: counting values by the key that sealed them, and sealing again under the current key,
// in batches, safely beside running gateways (docs/secrets.md).

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../lib/logger.js';
import { sealedPrefix, type SecretsKeyring, type SealedPlace } from '../lib/sealed-secrets.js';

/** A table's columns of sealed values: each value is sealed to (table, column, the row's id). */
export interface SealedColumns {
  table: string;
  /** The primary key: the id in each value's place. */
  idColumn: string;
  columns: readonly string[];
}

/** How many values of one column are sealed under one key; `keyId` null: plain values written before sealing. */
export interface SealedCount {
  table: string;
  column: string;
  keyId: string | null;
  count: number;
}

/** A value the keyring could not open, left as it is. */
export interface UnopenedValue {
  table: string;
  column: string;
  id: string;
  keyId: string | null;
  code: string;
}

export interface ResealResult {
  /** Values sealed anew under the current key, plain ones included. */
  resealed: number;
  /** Of those, values that were plain. */
  plain: number;
  unopened: UnopenedValue[];
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
/** A value in a sealed format, SQL: its key id is the second dot-separated part. */
const SEALED_SQL = (column: string) => `${column} ~ '^v[0-9]+[.]'`;

/** Every column's values, counted by the key id they are sealed under (null: plain). */
export async function sealedInventory(em: SqlEntityManager, registry: readonly SealedColumns[]): Promise<SealedCount[]> {
  const counts: SealedCount[] = [];
  for (const entry of checked(registry)) {
    for (const column of entry.columns) {
      const rows = await em.execute<Array<{ key_id: string | null; count: number | string }>>(
        `select case when ${SEALED_SQL(column)} then split_part(${column}, '.', 2) end as key_id, count(*) as count
         from ${entry.table} where ${column} is not null group by 1 order by 1`,
      );
      counts.push(...rows.map((row) => ({ table: entry.table, column, keyId: row.key_id, count: Number(row.count) })));
    }
  }
  return counts;
}

/**
 * Seals every value not yet under the keyring's current key (with `plainOnly`, only plain ones)
 * under it. Rows are taken in id order, `batchSize` at a time, each batch one short transaction
 * holding its rows (`for update`), so a rotation of the same row waits for it or it for the
 * rotation, and a gateway reading a value reads the old sealing or the new one, both of which
 * its keys open. Values the keyring cannot open are left as they are and reported. Idempotent:
 * a second run finds nothing to do.
 */
export async function reseal(fork: () => SqlEntityManager, keyring: SecretsKeyring, registry: readonly SealedColumns[], options: { batchSize: number; plainOnly?: boolean }): Promise<ResealResult> {
  const result: ResealResult = { resealed: 0, plain: 0, unopened: [] };
  const prefix = sealedPrefix(keyring.currentKeyId);
  for (const entry of checked(registry)) {
    const stale = (column: string) => (options.plainOnly ? `not ${SEALED_SQL(column)}` : `not starts_with(${column}, ?)`);
    const staleParams = options.plainOnly ? [] : entry.columns.map(() => prefix);
    const where = entry.columns.map((column) => `(${column} is not null and ${stale(column)})`).join(' or ');
    let after = '';
    for (;;) {
      const taken = await fork().transactional(async (tx) => {
        const rows = await tx.execute<Array<Record<string, string | null>>>(
          `select ${[entry.idColumn, ...entry.columns].join(', ')} from ${entry.table}
           where ${entry.idColumn} > ? and (${where}) order by ${entry.idColumn} limit ? for update`,
          [after, ...staleParams, options.batchSize],
        );
        for (const row of rows) {
          const id = row[entry.idColumn]!;
          const changes: Array<[string, string]> = [];
          for (const column of entry.columns) {
            const stored = row[column];
            if (stored == null || stored.startsWith(prefix)) continue;
            const place: SealedPlace = { table: entry.table, column, id };
            const opened = keyring.open(stored, place);
            if (!opened.ok) {
              result.unopened.push({ table: entry.table, column, id, keyId: opened.keyId, code: opened.code });
              continue;
            }
            if (options.plainOnly && opened.keyId !== null) continue;
            changes.push([column, keyring.seal(opened.plaintext, place)]);
            if (opened.keyId === null) result.plain += 1;
          }
          if (changes.length === 0) continue;
          await tx.execute(`update ${entry.table} set ${changes.map(([column]) => `${column} = ?`).join(', ')} where ${entry.idColumn} = ?`, [...changes.map(([, sealed]) => sealed), id]);
          result.resealed += changes.length;
        }
        return rows;
      });
      if (taken.length < options.batchSize) break;
      after = taken.at(-1)![entry.idColumn]!;
    }
  }
  return result;
}

/**
 * At a gateway's start: seals the plain values an earlier version wrote (so none stays plain past
 * the first start), then says in the log what no configured key opens (error: what they sign
 * cannot be sent) and what an older key still seals (a re-seal would move it).
 */
export async function sealAtStart(fork: () => SqlEntityManager, keyring: SecretsKeyring, registry: readonly SealedColumns[], logger: Logger): Promise<void> {
  const log = logger.child({ component: 'secrets' });
  const sealed = await reseal(fork, keyring, registry, { batchSize: 500, plainOnly: true });
  if (sealed.plain > 0) log.info({ sealed: sealed.plain, keyId: keyring.currentKeyId }, 'sealed the secrets an earlier version kept plain');
  const counts = await sealedInventory(fork(), registry);
  const unknown = counts.filter((count) => count.keyId !== null && !keyring.holds(count.keyId));
  if (unknown.length > 0) {
    log.error(
      { keyIds: [...new Set(unknown.map((count) => count.keyId))], values: unknown.reduce((sum, count) => sum + count.count, 0), configured: keyring.keyIds },
      'secrets in the database are sealed under keys this gateway is not given: what they sign is not sent until GATEWAY_SECRETS_KEY lists those keys again, or the secrets are rotated (docs/secrets.md)',
    );
  }
  const older = counts.filter((count) => count.keyId !== null && count.keyId !== keyring.currentKeyId && keyring.holds(count.keyId));
  if (older.length > 0) {
    log.info({ keyIds: [...new Set(older.map((count) => count.keyId))], values: older.reduce((sum, count) => sum + count.count, 0) }, 'secrets are still sealed under older keys; `secrets reseal` moves them to the current one');
  }
}

function checked(registry: readonly SealedColumns[]): readonly SealedColumns[] {
  for (const entry of registry) {
    for (const name of [entry.table, entry.idColumn, ...entry.columns]) if (!IDENTIFIER.test(name)) throw new Error(`Not a plain SQL identifier: ${name}`);
  }
  return registry;
}
