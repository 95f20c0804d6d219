// Apollo reads GET operations from the query string the handler hands it: the same string the
// Express integration gave it (Node's legacy `url.parse(url).search`), fragment left out.

import { parse } from 'node:url';
import { describe, expect, it } from 'vitest';
import { urlSearch } from './apollo-http.js';

describe('the query string Apollo is given', () => {
  it.each(['/graphql', '/graphql?', '/graphql?query=%7B__typename%7D', '/graphql?query={__typename}&operationName=x', '/graphql?a=1#x', '/graphql#x?a=1', '/graphql?a=%20b+c&d'])(
    'is url.parse(%j).search',
    (url) => {
      const expected = parse(url).search ?? '';
      expect(new URLSearchParams(urlSearch(url)).toString()).toBe(new URLSearchParams(expected).toString());
      if (!url.includes('{')) expect(urlSearch(url)).toBe(expected);
    },
  );
});
