// The three demo clients of the embedded development setup (web cashier, mobile cashier, admin).
// Created on first start; their keys are kept in the data directory (git-ignored) so they can be
// printed at every start. Never used in production: config refuses DEMO_CLIENTS there.

import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { ApiClientService } from './api-client.service.js';
import { hashKey } from './key-authentication.js';
import { ApiKey } from './api-key.entity.js';
import type { Role } from '../../kernel/roles.js';

export interface DemoClient {
  id: string;
  name: string;
  roles: Role[];
  /** Null when this data directory no longer holds a working key for it (it was revoked). */
  key: string | null;
  /** When an admin revoked it: it stays revoked, with its history, until the data is deleted. */
  revokedAt: Date | null;
}

const DEMO_CLIENTS: ReadonlyArray<{ name: string; roles: Role[] }> = [
  { name: 'web-cashier (demo)', roles: ['CASHIER'] },
  { name: 'mobile-cashier (demo)', roles: ['CASHIER'] },
  { name: 'admin (demo)', roles: ['ADMIN'] },
];

const FILE_NAME = 'demo-clients.json';

/**
 * Returns the demo clients with their keys, creating whichever are missing (all of them on a
 * fresh data directory, or after the database was reset). A demo client is never deleted: its
 * deposits, payouts and audit trail refer to it. One an admin revoked stays revoked, listed
 * without a key; so does one whose key this directory no longer holds (the key file edited or
 * lost), which is revoked now, since nobody here can use or show its key. One whose stored key an
 * admin revoked, or that expired, while the client itself was not, gets a new key: its other
 * keys stay as they are.
 */
export async function ensureDemoClients(em: SqlEntityManager, clients: ApiClientService, dataDir: string): Promise<DemoClient[]> {
  const file = path.join(dataDir, FILE_NAME);
  const stored = await readStored(file);
  const result: DemoClient[] = [];
  let changed = false;

  for (const demo of DEMO_CLIENTS) {
    const known = stored.find((entry) => entry.name === demo.name);
    if (known?.key && (await clients.authenticate(em, known.key))) {
      result.push({ ...known, revokedAt: null });
      continue;
    }
    const existing = await clients.findByName(em, demo.name);
    if (existing && !existing.revokedAt && known?.key && (await em.count(ApiKey, { clientId: existing.id, hash: hashKey(known.key) })) > 0) {
      const renewed = await clients.createKey(em, { clientId: existing.id });
      if (!renewed.ok) throw new Error(`Could not renew the key of demo client ${demo.name}: ${renewed.errors.map((e) => e.message).join('; ')}`);
      result.push({ id: existing.id, name: demo.name, roles: demo.roles, key: renewed.key, revokedAt: null });
      changed = true;
      continue;
    }
    if (existing) {
      const revoked = existing.revokedAt ? existing : await revokeLost(em, clients, existing.id);
      result.push({ id: existing.id, name: demo.name, roles: demo.roles, key: null, revokedAt: revoked.revokedAt ?? null });
      continue;
    }
    const created = await clients.create(em, { name: demo.name, roles: demo.roles });
    if (!created.ok) throw new Error(`Could not create demo client ${demo.name}: ${created.errors.map((e) => e.message).join('; ')}`);
    result.push({ id: created.client.id, name: demo.name, roles: demo.roles, key: created.key, revokedAt: null });
    changed = true;
  }

  if (changed) {
    await mkdir(dataDir, { recursive: true });
    const keys = result.filter((client) => client.key !== null).map(({ id, name, roles, key }) => ({ id, name, roles, key }));
    await writeFile(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  }
  return result;
}

/** A demo client whose key nobody here holds any more: revoked, so its lost key can never serve. */
async function revokeLost(em: SqlEntityManager, clients: ApiClientService, id: string): Promise<{ revokedAt?: Date | null }> {
  const revoked = await clients.revoke(em, id);
  if (!revoked.ok) throw new Error(`Could not revoke demo client ${id}: ${revoked.errors.map((e) => e.message).join('; ')}`);
  return revoked.client;
}

async function readStored(file: string): Promise<DemoClient[]> {
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    return Array.isArray(parsed) ? (parsed as DemoClient[]) : [];
  } catch {
    return [];
  }
}
