import { describe, expect, it } from 'vitest';
import { asConnectError, databaseTarget } from './connect-error.js';

const URL_WITH_PASSWORD = 'postgres://gateway:s3cret-Pa55@db.example.internal:6543/payments';

function systemError(code: string, message = `connect ${code}`): Error {
  return Object.assign(new Error(message), { code });
}

function postgresError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, severity: 'FATAL' });
}

describe('databaseTarget', () => {
  it('reads host, port, database and user, never the password', () => {
    const target = databaseTarget(URL_WITH_PASSWORD);
    expect(target).toEqual({ host: 'db.example.internal', port: 6543, database: 'payments', user: 'gateway' });
    expect(JSON.stringify(target)).not.toContain('s3cret');
  });

  it('takes the default port, the user as the database, and a ?host= socket directory as pg does', () => {
    expect(databaseTarget('postgres://postgres@localhost')).toEqual({ host: 'localhost', port: 5432, database: 'postgres', user: 'postgres' });
    expect(databaseTarget('postgres://app@localhost/gateway?host=/var/run/postgresql')).toMatchObject({ host: '/var/run/postgresql', port: 5432, database: 'gateway' });
    expect(databaseTarget('postgres://app@[::1]:5433/gateway')).toMatchObject({ host: '::1', port: 5433 });
  });
});

describe('asConnectError', () => {
  it.each([
    ['connection-refused', systemError('ECONNREFUSED'), /connection refused: no PostgreSQL listens on db\.example\.internal:6543\. Start PostgreSQL there/],
    ['timed-out', new Error('Connection terminated due to connection timeout', { cause: new Error('Connection terminated unexpectedly') }), /no answer from db\.example\.internal:6543 within 5000 ms \(DATABASE_CONNECT_TIMEOUT_MS\)/],
    ['timed-out', new Error('timeout exceeded when trying to connect'), /within 5000 ms/],
    ['timed-out', systemError('ETIMEDOUT'), /within 5000 ms/],
    ['host-not-found', systemError('ENOTFOUND', 'getaddrinfo ENOTFOUND db.example.internal'), /host db\.example\.internal not found \(ENOTFOUND\)\. Correct the host/],
    ['unreachable', systemError('EHOSTUNREACH'), /cannot be reached \(EHOSTUNREACH\)/],
    ['authentication-failed', postgresError('28P01', 'password authentication failed for user "gateway"'), /authentication failed for user gateway \(password authentication failed for user "gateway"\)\. Correct the user and password/],
    ['authentication-failed', postgresError('28000', 'no pg_hba.conf entry for host "10.0.0.1", user "gateway", database "payments", no encryption'), /pg_hba\.conf/],
    ['database-missing', postgresError('3D000', 'database "payments" does not exist'), /database payments does not exist .*createdb -O gateway payments/],
    ['database-missing', postgresError('42501', 'permission denied to create database'), /database payments does not exist/],
  ] as const)('%s: one line naming DATABASE_URL, the place, the failure and the fix, without the password', (failure, error, says) => {
    const connectError = asConnectError(error, URL_WITH_PASSWORD, 5_000);
    expect(connectError?.failure).toBe(failure);
    expect(connectError?.message).toMatch(/^DATABASE_URL \(db\.example\.internal:6543, database payments\): /);
    expect(connectError?.message).toMatch(says);
    expect(connectError?.message).not.toContain('\n');
    expect(connectError?.message).not.toContain('s3cret');
    expect(connectError?.logFields).toEqual({ code: 'DATABASE_UNAVAILABLE', setting: 'DATABASE_URL', host: 'db.example.internal', port: 6543, database: 'payments', failure });
  });

  it('tells a closed connection after the whole connect time-out (pg reports its own timer so) from one closed at once', () => {
    const closed = () => new Error('Connection terminated unexpectedly');
    expect(asConnectError(closed(), URL_WITH_PASSWORD, 1_000, 1_003)?.failure).toBe('timed-out');
    expect(asConnectError(closed(), URL_WITH_PASSWORD, 1_000, 12)?.failure).toBe('unreachable');
  });

  it('leaves every other error to be reported as it is', () => {
    expect(asConnectError(postgresError('42P01', 'relation "deposit" does not exist'), URL_WITH_PASSWORD, 5_000)).toBeUndefined();
    expect(asConnectError(postgresError('42501', 'permission denied for table deposit'), URL_WITH_PASSWORD, 5_000)).toBeUndefined();
    expect(asConnectError(new TypeError('a bug'), URL_WITH_PASSWORD, 5_000)).toBeUndefined();
    expect(asConnectError('not an error', URL_WITH_PASSWORD, 5_000)).toBeUndefined();
  });
});
