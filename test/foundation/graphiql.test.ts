// GraphiQL on GET /graphql works offline: the page references no external host.

import { describe, expect, it } from 'vitest';
import { startTestGateway } from '../support/gateway.js';

describe('GraphiQL', () => {
  it('serves a self-contained page with the demo admin key ready to use', async () => {
    const t = await startTestGateway();
    try {
      const response = await fetch(t.gateway.graphqlUrl, { headers: { accept: 'text/html' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/text\/html/);
      const html = await response.text();
      expect(html).toMatch(/graphiql/i);
      expect(html).toContain(`Bearer ${t.keys.admin}`);

      // No element loads anything from another host: scripts, styles, images, fonts, frames.
      const references = [...html.matchAll(/(?:src|href|action)\s*=\s*["']([^"']+)["']/gi)].map((match) => match[1]!);
      const cssUrls = [...html.matchAll(/url\(\s*["']?([^"')]+)["']?\s*\)/gi)].map((match) => match[1]!);
      const imports = [...html.matchAll(/@import\s+["']([^"']+)["']/gi)].map((match) => match[1]!);
      const external = [...references, ...cssUrls, ...imports].filter((ref) => /^(https?:)?\/\//i.test(ref) && !/^(https?:)?\/\/(127\.0\.0\.1|localhost)/i.test(ref));
      expect(external).toEqual([]);
      expect(html).not.toMatch(/<script[^>]+src=["']https?:/i);
      expect(html).not.toMatch(/<link[^>]+href=["']https?:/i);
    } finally {
      await t.close();
    }
  });

  it('is not served when disabled', async () => {
    const t = await startTestGateway({ env: { GRAPHIQL: 'false' } });
    try {
      const response = await fetch(t.gateway.graphqlUrl, { headers: { accept: 'text/html' } });
      expect(await response.text()).not.toMatch(/graphiql/i);
    } finally {
      await t.close();
    }
  });
});
