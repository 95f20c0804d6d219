import { describe, expect, it } from 'vitest';
import { numbered } from './prepared.js';

describe('numbered', () => {
  it('numbers each placeholder in order', () => {
    expect(numbered('update t set a = ?, b = cast(? as jsonb) where id = ? returning id', 3)).toBe('update t set a = $1, b = cast($2 as jsonb) where id = $3 returning id');
  });

  it('keeps a placeholder right after a word apart from it', () => {
    // `select?` would read as the identifier `select$1`.
    expect(numbered("insert into t (a, b) select?, 'x' where ?", 2)).toBe("insert into t (a, b) select $1, 'x' where $2");
  });

  it('leaves a text with no placeholder as it is', () => {
    expect(numbered('select 1', 0)).toBe('select 1');
  });

  it('refuses a text whose placeholders are not as many as its values', () => {
    expect(numbered('select ?, ?', 1)).toBeUndefined();
    expect(numbered('select ?', 2)).toBeUndefined();
  });

  it('refuses a text holding a $ (a dollar-quoted string, a numbered parameter) or the ORM\'s ?? (an identifier)', () => {
    expect(numbered("select $$a?b$$, ?", 1)).toBeUndefined();
    expect(numbered('select $1, ?', 1)).toBeUndefined();
    expect(numbered('select ?? from t where a = ?', 2)).toBeUndefined();
  });
});
