import { describe, expect, it } from 'vitest';
import { DatabaseRoleError, roleNotice, type RoleStanding } from './role.js';

const PLAIN: RoleStanding = { role: 'gateway', database: 'payments', schema: 'public', superuser: false, readAllStats: false, canCreate: true, migrated: true };

describe('roleNotice', () => {
  it('names pg_read_all_stats for a role without it, and what the gateway reads instead', () => {
    const notice = roleNotice(PLAIN);
    expect(notice?.fields).toEqual({ role: 'gateway', privilege: 'pg_read_all_stats', reads: ['pg_stat_activity.backend_xid', 'pg_stat_activity.datid'] });
    expect(notice?.message).toMatch(/^database role has no pg_read_all_stats, and the gateway needs none/);
  });

  it('says nothing for a role with pg_read_all_stats, or a superuser (which readRoleStanding counts as having it)', () => {
    expect(roleNotice({ ...PLAIN, readAllStats: true })).toBeUndefined();
    expect(roleNotice({ ...PLAIN, superuser: true, readAllStats: true })).toBeUndefined();
  });
});

describe('DatabaseRoleError', () => {
  it('names the role, the schema, the database and each fix, in one line', () => {
    const error = new DatabaseRoleError({ ...PLAIN, canCreate: false, migrated: false }, 27);
    expect(error.code).toBe('DATABASE_ROLE_CANNOT_MIGRATE');
    expect(error.message).not.toContain('\n');
    expect(error.message).toContain('The database role gateway cannot create tables in schema public of database payments, and 27 migration(s) are pending.');
    expect(error.message).toContain('ALTER DATABASE payments OWNER TO gateway');
    expect(error.message).toContain('ALTER ROLE gateway INHERIT');
    expect(error.message).toContain('GRANT CREATE ON SCHEMA public TO gateway');
  });

  it('says so when no schema of the search path exists', () => {
    expect(new DatabaseRoleError({ ...PLAIN, schema: '', canCreate: false }, 1).message).toContain('in schema (none: no schema of search_path exists)');
  });
});
