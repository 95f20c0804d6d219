// What the gateway serves on /examples/cashier, over plain HTTP: the demo web-cashier key only to a
// client on this machine and never cached, the page's own files and graphql-ws's browser client
// and nothing else (the card form's script and frame come from the card provider's host), and no
// page at all in production.

import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/lib/logger.js';
import { startGateway } from '../../src/server/gateway.js';
import { createTestDatabase } from '../support/database.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/** One IPv4 address of this machine that is not loopback, if it has one. */
const externalAddress = Object.values(networkInterfaces())
  .flat()
  .find((info) => info && info.family === 'IPv4' && !info.internal)?.address;

describe('the example cashier page', () => {
  let t: TestGateway;
  // On every interface, so that the same gateway can be reached over loopback and from outside.
  beforeAll(async () => {
    t = await startTestGateway({ env: { HOST: '0.0.0.0' } });
  });
  afterAll(() => t?.close());

  it('is served with the demo web-cashier key to a loopback client, with its script, operations and graphql-ws client', async () => {
    const page = await fetch(`${t.gateway.url}/examples/cashier`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const policy = page.headers.get('content-security-policy')!;
    expect(policy).toContain("connect-src 'self'");
    // Scripts from the gateway, and the card form's loader and frame from the card provider's host alone.
    const cardHost = new URL(t.gateway.sandboxes.get('deposit-gateway')!.checkoutUrl).origin;
    expect(policy).toContain(`script-src 'self' ${cardHost};`);
    expect(policy).toContain(`frame-src ${cardHost};`);
    const html = await page.text();
    expect(t.keys.webCashier).not.toBe('');
    expect(html).toContain(`<meta name="authorization" content="Bearer ${t.keys.webCashier}">`);
    expect(html).not.toContain(t.keys.admin);

    const script = await fetch(`${t.gateway.url}/examples/cashier/cashier.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    const source = await script.text();
    // Every module the page imports is served, and so is every module those import.
    const imports = [...source.matchAll(/^import .* from '(\.\/[^']+)';$/gm)].map((match) => new URL(match[1]!, script.url).href);
    expect(imports.map((url) => new URL(url).pathname)).toEqual(['/examples/cashier/graphql-ws/client.js', '/examples/cashier/operations.js']);
    for (const url of imports) {
      const module = await fetch(url);
      expect(module.status, url).toBe(200);
      for (const [, nested] of (await module.text()).matchAll(/from '(\.\/[^']+)'/g)) expect((await fetch(new URL(nested!, url))).status, nested).toBe(200);
    }
    expect((await fetch(`${t.gateway.url}/examples/cashier/cashier.css`)).status).toBe(200);
  });

  it('serves no other file of its folder or of the graphql-ws package', async () => {
    for (const path of ['index.html', 'graphql-ws/index.js', 'graphql-ws/server-zBhvXJ_Z.js', 'graphql-ws/..%2Fpackage.json', '..%2F..%2Fpackage.json', 'graphql-ws/client.cjs']) {
      const response = await fetch(`${t.gateway.url}/examples/cashier/${path}`);
      expect(response.status, path).toBe(404);
    }
  });

  it.skipIf(!externalAddress)('carries no key when served to a client that is not on this machine', async () => {
    const port = new URL(t.gateway.url).port;
    const response = await fetch(`http://${externalAddress}:${port}/examples/cashier`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const html = await response.text();
    expect(html).toContain('<meta name="authorization" content="">');
    expect(html).not.toContain(t.keys.webCashier);
    expect(html).not.toContain('Bearer ');
  });

  it('is not served in production', async () => {
    // The gateway as production configures it on this point; the rest of a production
    // configuration (real providers, PUBLIC_URL) plays no part in it.
    const database = await createTestDatabase();
    const config = { ...loadConfig({ NODE_ENV: 'test', HOST: '127.0.0.1', PORT: '0', DEMO_CLIENTS: 'false', ...database.env }), env: 'production' as const };
    const gateway = await startGateway({ config, logger: createLogger({ level: 'silent' }) });
    try {
      for (const path of ['/examples/cashier', '/examples/cashier/cashier.js', '/examples/cashier/graphql-ws/client.js']) {
        expect((await fetch(`${gateway.url}${path}`)).status, path).toBe(404);
      }
      expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    } finally {
      await gateway.close();
      await database.drop();
    }
  });
});
