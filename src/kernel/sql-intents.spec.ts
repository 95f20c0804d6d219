// Unit spec of conditions as data (sql-intents.ts): rendered as SQL with bound values, and refused
// when a name is not a plain SQL name.

import { describe, expect, it } from 'vitest';
import { renderConditions } from './sql-intents.js';

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
