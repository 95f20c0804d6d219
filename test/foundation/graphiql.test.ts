// GraphiQL on GET /graphql works offline (the page references no external host), is served
// compressed, and carries the demo admin key only to a client on this machine.

import { networkInterfaces } from 'node:os';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { buildSchema, Kind, parse, print, validate, visit, type ConstValueNode, type OperationDefinitionNode } from 'graphql';
import { readdir, readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_TABS } from '../../src/server/graphiql.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/** One IPv4 address of this machine that is not loopback, if it has one. */
const externalAddress = Object.values(networkInterfaces())
  .flat()
  .find((info) => info && info.family === 'IPv4' && !info.internal)?.address;

/** A JSON variable value as the literal a documented operation writes in its place. */
function literal(value: unknown): ConstValueNode {
  if (value === null) return { kind: Kind.NULL };
  if (typeof value === 'string') return { kind: Kind.STRING, value };
  if (typeof value === 'boolean') return { kind: Kind.BOOLEAN, value };
  if (typeof value === 'number') return Number.isInteger(value) ? { kind: Kind.INT, value: String(value) } : { kind: Kind.FLOAT, value: String(value) };
  if (Array.isArray(value)) return { kind: Kind.LIST, values: value.map(literal) };
  return {
    kind: Kind.OBJECT,
    fields: Object.entries(value as Record<string, unknown>).map(([name, field]) => ({ kind: Kind.OBJECT_FIELD, name: { kind: Kind.NAME, value: name }, value: literal(field) })),
  };
}

/** A tab's operation with its variables written in, printed as the docs' would be. */
function inlined(query: string, variables: string | undefined): string {
  const values = (variables ? JSON.parse(variables) : {}) as Record<string, unknown>;
  const document = visit(parse(query), {
    OperationDefinition: (node) => ({ ...node, variableDefinitions: [] }),
    Variable: (node) => literal(values[node.name.value]),
  });
  return print(document);
}

describe('GraphiQL', () => {
  // One gateway with the default settings for the page's tests that need nothing else, started
  // by the first of them; the others set what they test.
  let defaults: Promise<TestGateway> | undefined;
  const withDefaults = () => (defaults ??= startTestGateway());
  afterAll(async () => (await defaults)?.close());

  it('opens with exactly the documented operations, in the README\'s order of tabs', async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const docs = await Promise.all((await readdir(new URL('../../docs/', import.meta.url))).filter((name) => name.endsWith('.md')).map((name) => readFile(new URL(`../../docs/${name}`, import.meta.url), 'utf8')));
    const blocks = [readme, ...docs].flatMap((text) => [...text.matchAll(/```graphql\n([\s\S]*?)```/g)].map((match) => parse(match[1]!)));
    const readmeOperations = new Map<string, string>();
    for (const document of blocks) {
      for (const definition of document.definitions as OperationDefinitionNode[]) {
        if (definition.name) readmeOperations.set(definition.name.value, print({ kind: Kind.DOCUMENT, definitions: [definition] }));
      }
    }
    const listed = /opens with a tab for each of these operations \(([^)]*)\)/.exec(readme.replace(/\s+/g, ' '))![1]!.match(/`(\w+)`/g)!.map((name) => name.slice(1, -1));
    const tabs = DEFAULT_TABS.map((tab) => ({ name: (parse(tab.query).definitions[0] as OperationDefinitionNode).name!.value, text: inlined(tab.query, tab.variables) }));
    expect(tabs.map((tab) => tab.name)).toEqual(listed);
    for (const tab of tabs) expect(tab.text, `tab ${tab.name}`).toBe(readmeOperations.get(tab.name));
  });

  it('opens with tabs of the documented operations, each valid against the schema', async () => {
    const schema = buildSchema(await readFile(new URL('../../schema/schema.graphql', import.meta.url), 'utf8'));
    const names = DEFAULT_TABS.map((tab) => {
      const document = parse(tab.query);
      expect(validate(schema, document)).toEqual([]);
      return document.definitions.map((definition) => ('name' in definition ? definition.name?.value : undefined));
    });
    expect(names.flat()).toEqual(['Viewer', 'WatchDeposits', 'TakeDeposit', 'Refund', 'ShowQrCode', 'AdminTrail', 'PaymentTimeline']);
  });

  it('serves a self-contained page with the demo admin key ready to use', async () => {
    const t = await withDefaults();
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
  });

  it('is served gzip-compressed, varying on Accept-Encoding', async () => {
    const t = await withDefaults();
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
