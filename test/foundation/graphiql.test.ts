// GraphiQL on GET /graphql works offline (the page references no external host), is served
// compressed, and carries the demo admin key only to a client on this machine.

import { networkInterfaces } from 'node:os';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { buildSchema, parse, validate } from 'graphql';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TABS } from '../../src/server/graphiql.js';
import { startTestGateway } from '../support/gateway.js';

/** One IPv4 address of this machine that is not loopback, if it has one. */
const externalAddress = Object.values(networkInterfaces())
  .flat()
  .find((info) => info && info.family === 'IPv4' && !info.internal)?.address;

describe('GraphiQL', () => {
  it('opens with tabs of the README\'s operations, each valid against the schema', async () => {
    const schema = buildSchema(await readFile(new URL('../../schema/schema.graphql', import.meta.url), 'utf8'));
    const names = DEFAULT_TABS.map((tab) => {
      const document = parse(tab.query);
      expect(validate(schema, document)).toEqual([]);
      return document.definitions.map((definition) => ('name' in definition ? definition.name?.value : undefined));
    });
    expect(names.flat()).toEqual(['Viewer', 'WatchDeposits', 'TakeDeposit', 'Refund', 'ShowQrCode', 'AdminTrail']);
  });

  it('serves a self-contained page with the demo admin key ready to use', async () => {
    const t = await startTestGateway();
    try {
      const response = await fetch(t.gateway.graphqlUrl, { headers: { accept: 'text/html' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/text\/html/);
      const html = await response.text();
      expect(html).toMatch(/graphiql/i);
      expect(html).toContain(`Bearer ${t.keys.admin}`);
      expect(html).toContain('mutation TakeDeposit');

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

  it('is served gzip-compressed, varying on Accept-Encoding', async () => {
    const t = await startTestGateway();
    try {
      // node:http, not fetch: fetch would decompress and hide what was on the wire.
      const { headers, body } = await get(t.gateway.graphqlUrl, { accept: 'text/html', 'accept-encoding': 'gzip' });
      expect(headers['content-encoding']).toBe('gzip');
      expect(headers.vary).toMatch(/accept-encoding/i);
      const html = gunzipSync(body).toString('utf8');
      expect(html).toContain(`Bearer ${t.keys.admin}`);
      expect(body.length).toBeLessThan(html.length / 2);

      const plain = await get(t.gateway.graphqlUrl, { accept: 'text/html', 'accept-encoding': 'identity' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString('utf8')).toBe(html);
    } finally {
      await t.close();
    }
  });

  it.skipIf(!externalAddress)('carries no key when served to a client that is not on this machine', async () => {
    const t = await startTestGateway({ env: { HOST: '0.0.0.0' } });
    try {
      const port = new URL(t.gateway.url).port;
      const response = await fetch(`http://${externalAddress}:${port}/graphql`, { headers: { accept: 'text/html' } });
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toMatch(/graphiql/i);
      expect(t.keys.admin).not.toBe('');
      expect(html).not.toContain(t.keys.admin);
      expect(html).not.toContain('Bearer ');
      // The same gateway still fills it in for a loopback client.
      expect(await (await fetch(`http://127.0.0.1:${port}/graphql`, { headers: { accept: 'text/html' } })).text()).toContain(`Bearer ${t.keys.admin}`);
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

function get(url: string, headers: Record<string, string>): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}
