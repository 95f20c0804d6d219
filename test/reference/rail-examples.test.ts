// Every example mutation on the rail reference pages (docs/reference/*.md), exactly as committed,
// is accepted by a gateway running on the sandboxes: no GraphQL errors, no userErrors, and a
// deposit on the page's rail. And each page's field table says true: the example without a field
// marked required is refused, without any other field it gives is accepted. The gateway runs on the
// default setup (no MERCHANT_ACCOUNTS), as a reader who tries the pages does: the hosted checkout
// example's live account is the sandbox's own.

import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IN_ONE_HOUR, RAIL_PAGES } from '../../src/docs/rails.js';
import { postRaw, startTestGateway, type TestGateway } from '../support/gateway.js';

interface PageExample {
  query: string;
  variables: string;
  /** Field paths (e.g. customer.email) and whether the table above the example marks them required. */
  fields: Array<{ path: string; required: boolean }>;
}

/** Each example of a page: its field table, its ```graphql block and the ```json variables block after it. */
function examplesOf(markdown: string): PageExample[] {
  const pattern = /((?:^\| `[^`]+` \|.*\n)+)[\s\S]*?```graphql\n([\s\S]*?)```[\s\S]*?```json\n([\s\S]*?)```/gm;
  return [...markdown.matchAll(pattern)].map((match) => ({
    query: match[2]!,
    variables: match[3]!,
    fields: [...match[1]!.matchAll(/^\| `([^`]+)` \| `[^`]+` \| (yes|no) \|/gm)].map((row) => ({ path: row[1]!, required: row[2] === 'yes' })),
  }));
}

function without(value: Record<string, unknown>, path: string[]): Record<string, unknown> | undefined {
  const copy = structuredClone(value);
  let parent: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof parent[key] !== 'object' || parent[key] === null) return undefined;
    parent = parent[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1]!;
  if (!(last in parent)) return undefined;
  delete parent[last];
  return copy;
}

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

describe.each(RAIL_PAGES.map((page) => [page.slug, page] as const))('docs/reference/%s.md', (slug, page) => {
  it('has examples the gateway accepts', async () => {
    const examples = examplesOf(await readFile(new URL(`../../docs/reference/${slug}.md`, import.meta.url), 'utf8'));
    expect(examples).toHaveLength(page.examples.length);
    for (const example of examples) {
      const variables = JSON.parse(example.variables.replaceAll(IN_ONE_HOUR, new Date(Date.now() + 3_600_000).toISOString())) as Record<string, unknown>;
      const response = await postRaw(t.gateway.graphqlUrl, { query: example.query, variables }, t.keys.webCashier);
      expect(response.body.errors).toBeUndefined();
      const payload = response.body.data[page.mutation];
      expect(payload.userErrors).toEqual([]);
      expect(payload.deposit).toMatchObject({ rail: page.rail });
      expect(['PENDING', 'AUTHORIZED', 'SUCCEEDED']).toContain(payload.deposit.status);
    }
  });

  it('marks required exactly the fields whose absence the gateway refuses', async () => {
    const examples = examplesOf(await readFile(new URL(`../../docs/reference/${slug}.md`, import.meta.url), 'utf8'));
    let checked = 0;
    for (const example of examples) {
      const variables = JSON.parse(example.variables.replaceAll(IN_ONE_HOUR, new Date(Date.now() + 3_600_000).toISOString())) as Record<string, unknown>;
      for (const field of example.fields) {
        const reduced = without(variables, ['input', ...field.path.split('.')]);
        if (!reduced) {
          expect(field.required, `${field.path} is not in the example, so it cannot be required by it`).toBe(false);
          continue;
        }
        checked++;
        const response = await postRaw(t.gateway.graphqlUrl, { query: example.query, variables: reduced }, t.keys.webCashier);
        const refused = response.body.errors !== undefined || response.body.data[page.mutation].userErrors.length > 0;
        expect(refused, `without ${field.path}`).toBe(field.required);
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});
