// The gateway's PostgreSQL role, read once at start: the gateway needs a role that owns its
// database and nothing more (docs/operations.md "The database role"). A role that cannot create the schema
// is refused before a migration starts, with the fix in one line; a role without
// pg_read_all_stats is told, in one line, that the gateway reads nothing the privilege would show.

import type { SqlEntityManager } from '@mikro-orm/postgresql';

/** What start-up reads of its role on PostgreSQL (`readRoleStanding`). */
export interface RoleStanding {
  role: string;
  database: string;
  /** The schema the migrations create their tables in (the first of `search_path` that exists). */
  schema: string;
  superuser: boolean;
  /** The role has the privileges of pg_read_all_stats (superusers have every privilege). */
  readAllStats: boolean;
  /** The role may create tables in `schema`. */
  canCreate: boolean;
  /** The migrations' own table exists: an earlier start migrated this database. */
  migrated: boolean;
}

const STANDING_SQL = `select current_user::text as role, current_database()::text as database, coalesce(current_schema()::text, '') as schema,
  r.rolsuper as superuser, pg_has_role(current_user, 'pg_read_all_stats', 'USAGE') as read_all_stats,
  coalesce(has_schema_privilege(current_schema(), 'CREATE'), false) as can_create,
  to_regclass('mikro_orm_migrations') is not null as migrated
  from pg_roles r where r.rolname = current_user`;

/** Reads the connected role's standing (PostgreSQL only; one statement, no privilege needed). */
export async function readRoleStanding(em: SqlEntityManager): Promise<RoleStanding> {
  const [row] = await em.execute<Array<{ role: string; database: string; schema: string; superuser: boolean; read_all_stats: boolean; can_create: boolean; migrated: boolean }>>(STANDING_SQL);
  if (!row) throw new Error('The database role was not found in pg_roles');
  return {
    role: row.role,
    database: row.database,
    schema: row.schema,
    superuser: row.superuser,
    readAllStats: row.superuser || row.read_all_stats,
    canCreate: row.can_create,
    migrated: row.migrated,
  };
}

/**
 * The role cannot create the tables of the migrations still to apply: nothing is changed, and the
 * message (one line, no connection string) names the fix. `code` lets the client CLI report it as
 * a database that refuses it.
 */
export class DatabaseRoleError extends Error {
  override name = 'DatabaseRoleError';
  readonly code = 'DATABASE_ROLE_CANNOT_MIGRATE';
  constructor(standing: RoleStanding, pending: number) {
    const schema = standing.schema || '(none: no schema of search_path exists)';
    super(
      `The database role ${standing.role} cannot create tables in schema ${schema} of database ${standing.database}, and ${pending} migration(s) are pending. ` +
        `The gateway's role must own its database (ALTER DATABASE ${standing.database} OWNER TO ${standing.role}) and inherit the owner's rights on schema public ` +
        `(PostgreSQL 15 and later give them through pg_database_owner, which a NOINHERIT role does not use: ALTER ROLE ${standing.role} INHERIT), ` +
        `or be granted them (GRANT CREATE ON SCHEMA public TO ${standing.role}).`,
    );
  }
}

/** The start-up line of a role without pg_read_all_stats, or undefined for a role that has it. */
export function roleNotice(standing: RoleStanding): { fields: Record<string, unknown>; message: string } | undefined {
  if (standing.readAllStats) return undefined;
  return {
    fields: { role: standing.role, privilege: 'pg_read_all_stats', reads: ['pg_stat_activity.backend_xid', 'pg_stat_activity.datid'] },
    message:
      'database role has no pg_read_all_stats, and the gateway needs none: its looks at other sessions (event log finality, notification fan-out) ' +
      'read only backend_xid and datid, which PostgreSQL shows every role for every session; the privilege would add the state and query of ' +
      "other roles' sessions, which the gateway does not read",
  };
}
