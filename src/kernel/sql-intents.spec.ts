// Unit spec of statements as data (sql-intents.ts): conditions, a row's update and a lookup, rendered as SQL
// with bound values, and refused when a name is not a plain SQL name.

import { describe, expect, it } from 'vitest';
import { renderConditions, renderInsert, renderLookup, renderUpdate } from './sql-intents.js';

describe('renderConditions', () => {
  it('writes each condition as an exists or not exists, values bound, joined by and', () => {
    expect(
      renderConditions([
        { exists: { table: 'notification_endpoint', where: { enabled: true } } },
        { none: { table: 'job', where: { kind: 'notifications.fanout', status: 'pending', dedupe_key: null } } },
      ]),
    ).toEqual({
      sql: 'exists (select from notification_endpoint where enabled = ?) and not exists (select from job where kind = ? and status = ? and dedupe_key is null)',
      params: [true, 'notifications.fanout', 'pending'],
    });
  });

  it('is true for no condition, and any row for no column', () => {
    expect(renderConditions([])).toEqual({ sql: 'true', params: [] });
    expect(renderConditions([{ exists: { table: 'job', where: {} } }])).toEqual({ sql: 'exists (select from job)', params: [] });
  });

  it('refuses a name that is not a plain SQL name', () => {
    expect(() => renderConditions([{ exists: { table: 'job; drop table job', where: {} } }])).toThrow('Not a plain SQL name');
    expect(() => renderConditions([{ exists: { table: 'job', where: { 'kind = kind or true': 1 } } }])).toThrow('Not a plain SQL name');
  });
});

describe('renderUpdate', () => {
  it('sets the columns given, by id, and returns every column or the ones asked with the row\'s version', () => {
    const at = new Date('2026-01-02T00:00:00.000Z');
    expect(renderUpdate('deposit', 'dep_1', { set: { status: 'SUCCEEDED', updated_at: at }, returning: '*' })).toEqual({
      sql: 'update deposit set status = ?, updated_at = ? where id = ? returning *',
      params: ['SUCCEEDED', at, 'dep_1'],
    });
    expect(renderUpdate('deposit', 'dep_1', { set: { fee: null }, returning: { columns: ['id', 'status'], version: true } }).sql).toBe(
      'update deposit set fee = ? where id = ? returning id, status, xmin::text as row_version',
    );
  });

  it('writes only the row at the version read before (`ifVersion`), and returns nothing when asked for nothing', () => {
    expect(renderUpdate('deposit', 'dep_1', { set: { fee: '1.00' }, returning: { columns: ['id'] }, ifVersion: '812' })).toEqual({
      sql: 'update deposit set fee = ? where id = ? and xmin = cast(? as xid) returning id',
      params: ['1.00', 'dep_1', '812'],
    });
    expect(renderUpdate('webhook_delivery', 'whd_1', { set: { outcome: 'applied' } })).toEqual({ sql: 'update webhook_delivery set outcome = ? where id = ?', params: ['applied', 'whd_1'] });
  });

  it('writes only a row still holding the values of `only`', () => {
    expect(renderUpdate('notification_endpoint', 'nep_1', { set: { state: 'failing' }, returning: { columns: ['id'] }, only: { state: 'healthy', failed_since: null }, ifVersion: '9' })).toEqual({
      sql: 'update notification_endpoint set state = ? where id = ? and state = ? and failed_since is null and xmin = cast(? as xid) returning id',
      params: ['failing', 'nep_1', 'healthy', '9'],
    });
    expect(() => renderUpdate('notification_endpoint', 'nep_1', { set: { state: 'failing' }, only: { 'state or true': 'x' } })).toThrow('Not a plain SQL name');
  });

  it('refuses an update that sets nothing, or a name that is not a plain SQL name', () => {
    expect(() => renderUpdate('deposit', 'dep_1', { set: {}, returning: '*' })).toThrow('An update of deposit dep_1 sets no column');
    expect(() => renderUpdate('deposit', 'dep_1', { set: { 'status = status, fee': 1 }, returning: '*' })).toThrow('Not a plain SQL name');
  });
});

describe('renderInsert', () => {
  it('inserts the values given, JSON columns as jsonb (null kept), and returns the columns asked', () => {
    expect(renderInsert('deposit', { values: { id: 'dep_1', metadata: { a: 1 }, request: null, note: undefined }, json: ['metadata', 'request'], returning: ['id'] })).toEqual({
      sql: 'insert into deposit (id, metadata, request, note) values (?, cast(? as jsonb), cast(? as jsonb), ?) returning id',
      params: ['dep_1', '{"a":1}', null, null],
    });
  });

  it('keeps a row already holding the key of `ifAbsent`, and returns every column when asked `*`', () => {
    expect(renderInsert('withdrawal', { values: { id: 'wdr_1', provider: 'qr' }, ifAbsent: ['provider', 'provider_reference'], returning: '*' })).toEqual({
      sql: 'insert into withdrawal (id, provider) values (?, ?) on conflict (provider, provider_reference) do nothing returning *',
      params: ['wdr_1', 'qr'],
    });
    expect(() => renderInsert('withdrawal', { values: { id: 'wdr_1' }, ifAbsent: [], returning: ['id'] })).toThrow('if absent names no key');
    expect(() => renderInsert('withdrawal', { values: { id: 'wdr_1' }, ifAbsent: ['provider; drop'], returning: ['id'] })).toThrow('Not a plain SQL name');
  });

  it('refuses an insert of nothing, returning nothing, a JSON column without a value, or a name that is not a plain SQL name', () => {
    expect(() => renderInsert('deposit', { values: {}, returning: ['id'] })).toThrow('An insert into deposit names no column');
    expect(() => renderInsert('deposit', { values: { id: 'dep_1' }, returning: [] })).toThrow('An insert into deposit returns no column');
    expect(() => renderInsert('deposit', { values: { id: 'dep_1' }, json: ['metadata'], returning: ['id'] })).toThrow('has no value for its JSON column metadata');
    expect(() => renderInsert('deposit', { values: { 'id) values (1); --': 1 }, returning: ['id'] })).toThrow('Not a plain SQL name');
  });
});

describe('renderLookup', () => {
  it('finds one row by any of its candidates within its scope, the earlier candidates first, locked when asked', () => {
    const lookup = renderLookup({ table: 'deposit', columns: ['id', 'status'], anyOf: [['id', null], ['provider_reference', 'pi_1']], scope: { provider: 'acme' }, lock: true });
    expect(lookup.sql.replace(/\s+/g, ' ')).toBe('select id, status from deposit where (id = ? or provider_reference = ?) and provider = ? order by (id = ?) desc nulls last limit 1 for update');
    expect(lookup.params).toEqual([null, 'pi_1', 'acme', null]);
    expect(renderLookup({ table: 'payout', columns: ['id'], anyOf: [['provider_reference', 'po_1']], scope: {}, lock: false }).sql.replace(/\s+/g, ' ')).toBe(
      'select id from payout where (provider_reference = ?) limit 1',
    );
  });

  it('refuses a lookup by nothing', () => {
    expect(() => renderLookup({ table: 'deposit', columns: ['id'], anyOf: [], scope: {}, lock: false })).toThrow('A lookup of deposit names no column to find it by');
  });
});
