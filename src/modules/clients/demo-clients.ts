// The three demo clients of the embedded development setup (web cashier, mobile cashier, admin).
// Created on first start; their keys are kept in the data directory (git-ignored) so they can be
// printed at every start. Never used in production: config refuses DEMO_CLIENTS there.

import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { ApiClientService } from './api-client.service.js';
import type { Role } from '../../kernel/roles.js';

export interface DemoClient {
  id: string;
  name: string;
  roles: Role[];
  key: string;
}

const DEMO_CLIENTS: ReadonlyArray<{ name: string; roles: Role[] }> = [
  { name: 'web-cashier (demo)', roles: ['CASHIER'] },
  { name: 'mobile-cashier (demo)', roles: ['CASHIER'] },
  { name: 'admin (demo)', roles: ['ADMIN'] },
];

const FILE_NAME = 'demo-clients.json';

/**
 * Returns the demo clients with their keys, creating whichever are missing (or whose stored key
 * no longer authenticates, e.g. after the database was reset).
 */
export async function ensureDemoClients(em: SqlEntityManager, clients: ApiClientService, dataDir: string): Promise<DemoClient[]> {
  const file = path.join(dataDir, FILE_NAME);
  const stored = await readStored(file);
  const result: DemoClient[] = [];
  let changed = false;

  for (const demo of DEMO_CLIENTS) {
    const known = stored.find((entry) => entry.name === demo.name);
    if (known && (await clients.authenticate(em, known.key))) {
      result.push(known);
      continue;
    }
    // A stale entry (database reset, or key revoked): replace the client under the same name.
    const existing = await clients.findByName(em, demo.name);
    if (existing) {
      em.remove(existing);
      await em.flush();
    }
    const created = await clients.create(em, { name: demo.name, roles: demo.roles });
    if (!created.ok) throw new Error(`Could not create demo client ${demo.name}: ${created.errors.map((e) => e.message).join('; ')}`);
    result.push({ id: created.client.id, name: demo.name, roles: demo.roles, key: created.key });
    changed = true;
  }

  if (changed) {
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, `${JSON.stringify(result, null, 2)}\n`, { mode: 0o600 });
  }
  return result;
}

async function readStored(file: string): Promise<DemoClient[]> {
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    return Array.isArray(parsed) ? (parsed as DemoClient[]) : [];
  } catch {
    return [];
  }
}
