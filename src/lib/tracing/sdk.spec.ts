import { describe, expect, it } from 'vitest';
import { sqlWithoutValues } from './sdk.js';

describe('a statement as a span shows it', () => {
  it('keeps no literal: strings, numbers and dollar-quoted text become ?', () => {
    expect(sqlWithoutValues("select * from deposit where id = 'dep_01' and amount > 25.00 and note = 'it''s' limit 10")).toBe('select * from deposit where id = ? and amount > ? and note = ? limit ?');
    expect(sqlWithoutValues("insert into t (a) values (E'4111111111111111', $$secret$$, -3e5)")).toBe('insert into t (a) values (?, ?, ?)');
    // Placeholders, identifiers with digits and casts are kept.
    expect(sqlWithoutValues('select $1::int4, col2 from "t1" where x = $2')).toBe('select $1::int4, col2 from "t1" where x = $2');
  });
});
