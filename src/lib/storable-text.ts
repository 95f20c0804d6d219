// Text PostgreSQL cannot store as `text`: the NUL character, which it refuses, and lone UTF-16
// surrogates, which have no UTF-8 form and would be silently replaced on the way in.

/** Why a string cannot be stored (`TOO_LONG` only when a length limit was asked for). */
export type UnstorableProblem = 'NUL' | 'LONE_SURROGATE' | 'TOO_LONG';

/** Where the first unstorable string was found, as a path of keys from the value given. */
export interface UnstorableText {
  path: Array<string | number>;
  problem: UnstorableProblem;
}

// Without the `u` flag a regular expression sees UTF-16 code units, so a surrogate not paired
// with its partner can be matched on its own. NUL is a control character, and matching it is the point:
// PostgreSQL's text cannot hold it.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What is wrong with `text` for PostgreSQL, or undefined when it can be stored as it is. */
export function unstorableProblem(text: string): UnstorableProblem | undefined {
  const match = UNSTORABLE.exec(text);
  if (!match) return undefined;
  return match[0] === '\u0000' ? 'NUL' : 'LONE_SURROGATE';
}

/** True when PostgreSQL stores `text` exactly as given. */
export function isStorableText(text: string): boolean {
  return unstorableProblem(text) === undefined;
}

/**
 * The first string inside `value` (itself, an array item, an object's own property, a property
 * name) that cannot be stored, with its path below `base`; undefined when there is none. With
 * `maxLength`, a longer string (in UTF-16 units, at least as many as PostgreSQL's characters)
 * counts too, for values bound for `varchar(n)` columns. Dates, buffers and other binary values
 * are not text and are skipped.
 */
export function findUnstorableText(value: unknown, base: Array<string | number> = [], options: { maxLength?: number } = {}): UnstorableText | undefined {
  const { maxLength } = options;
  const seen = new Set<object>();
  const walk = (current: unknown, path: Array<string | number>): UnstorableText | undefined => {
    if (typeof current === 'string') {
      const problem = unstorableProblem(current) ?? (maxLength !== undefined && current.length > maxLength ? 'TOO_LONG' : undefined);
      return problem ? { path, problem } : undefined;
    }
    if (typeof current !== 'object' || current === null || current instanceof Date || ArrayBuffer.isView(current) || current instanceof ArrayBuffer) return undefined;
    if (seen.has(current)) return undefined;
    seen.add(current);
    if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index++) {
        const found = walk(current[index], [...path, index]);
        if (found) return found;
      }
      return undefined;
    }
    for (const [key, item] of Object.entries(current)) {
      const keyProblem = unstorableProblem(key);
      if (keyProblem) return { path: [...path, key], problem: keyProblem };
      const found = walk(item, [...path, key]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(value, base);
}

/** A sentence for the caller: which text, and what is wrong with it. */
export function describeUnstorable(found: UnstorableText, what = 'Text'): string {
  const where = found.path.length ? ` at ${found.path.join('.')}` : '';
  const why =
    found.problem === 'NUL' ? 'contains a NUL character (U+0000)' : found.problem === 'LONE_SURROGATE' ? 'contains a lone UTF-16 surrogate (not valid Unicode)' : 'is too long';
  return `${what}${where} cannot be accepted: it ${why}`;
}
