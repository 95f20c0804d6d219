// Every ```graphql and ```sh example of README.md and docs/*.md runs, as written, against a gateway
// on the default setup, page by page in the order a reader runs them: no GraphQL error, no
// userErrors, every subscription delivers, every shell command exits 0. The placeholders and the
// `<!-- example: … -->` comments are the convention docs/README.md ("The examples run in CI")
// describes; an example this test cannot run and that no comment marks fails, so none rots
// unnoticed. Of the generated reference (docs/reference/), the timeline page's examples run here
// too; the rail pages' are rail-examples.test.ts's. Every relative link of those pages leads to a
// page and heading that exist.

import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Kind, OperationTypeNode, parse, type OperationDefinitionNode } from 'graphql';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_EVENTS_TOPIC } from '../../src/kernel/events/event-notification.js';
import { postRaw, startTestGateway, type TestGateway } from '../support/gateway.js';
import { wsClient } from '../support/ws.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`), 'docs/reference/timeline.md'];

/** Where `npm start` serves the gateway; the examples name it, the test's gateway stands in for it. */
const DOCUMENTED_ADDRESS = '127.0.0.1:4000';
/** Programs a shell example may run here: nothing that installs, builds, starts servers or waits. */
const RUNNABLE_PROGRAMS = new Set(['curl', 'echo', 'printf', 'grep', 'head', 'test']);
/** The statuses a deposit ends in: waiting for another after one of them would wait for ever. */
const FINAL_DEPOSIT_STATUSES = new Set(['SUCCEEDED', 'DECLINED', 'EXPIRED', 'CANCELLED', 'FAILED', 'REFUNDED']);

interface Example {
  page: string;
  line: number;
  language: 'graphql' | 'sh';
  code: string;
  variables?: string;
  /** `not run: <why>`: the reason it cannot run in a test. */
  notRun?: string;
  as: 'admin' | 'web-cashier';
  /** `once dep_… is SUCCEEDED`: the placeholder and the status to wait for first. */
  once?: { placeholder: string; status: string };
}

/** The fenced examples of one page, with the comment right before each and the ```json after a ```graphql. */
function examplesOf(page: string): Example[] {
  const lines = readFileSync(join(ROOT, page), 'utf8').split('\n');
  const examples: Array<Example & { end: number }> = [];
  let index = 0;
  while (index < lines.length) {
    const open = /^(\s*)```(\w*)\s*$/.exec(lines[index]!);
    if (!open) {
      index += 1;
      continue;
    }
    const indent = open[1]!.length;
    const start = index;
    index += 1;
    const body: string[] = [];
    while (index < lines.length && !/^\s*```\s*$/.test(lines[index]!)) body.push(lines[index++]!.slice(indent));
    index += 1;
    const language = open[2]!;
    if (language === 'json' && examples.at(-1)?.language === 'graphql' && lines.slice(examples.at(-1)!.end, start).every((line) => line.trim() === '')) {
      examples.at(-1)!.variables = body.join('\n');
      continue;
    }
    if (!['graphql', 'sh', 'bash', 'shell'].includes(language)) continue;
    let before = start - 1;
    while (before >= 0 && lines[before]!.trim() === '') before -= 1;
    const comment = /^\s*<!-- example: (.*) -->\s*$/.exec(lines[before] ?? '')?.[1];
    examples.push({ page, line: start + 1, language: language === 'graphql' ? 'graphql' : 'sh', code: body.join('\n'), end: index, ...directives(page, start + 1, comment) });
  }
  return examples.map(({ end: _end, ...example }) => example);
}

/** The `<!-- example: … -->` comment's directives, `;`-separated; `not run: why` takes the rest of it. */
function directives(page: string, line: number, comment: string | undefined): Pick<Example, 'notRun' | 'as' | 'once'> {
  const result: Pick<Example, 'notRun' | 'as' | 'once'> = { as: 'admin' };
  const [rest, why] = (comment ?? '').split(/(?:^|;)\s*not run:/) as [string, string | undefined];
  if (why !== undefined) {
    if (!why.trim()) throw new Error(`${page}:${line}: "not run:" without a reason`);
    result.notRun = why.trim();
  }
  for (const directive of rest.split(';').map((part) => part.trim()).filter(Boolean)) {
    const once = /^once (\w+_…) is ([A-Z_]+)$/.exec(directive);
    if (directive === 'as web-cashier') result.as = 'web-cashier';
    else if (once) result.once = { placeholder: once[1]!, status: once[2]! };
    else throw new Error(`${page}:${line}: unknown example directive "${directive}" (docs/README.md lists them)`);
  }
  return result;
}

/** What a page's examples have answered so far: the latest id of each prefix, the subscriptions' messages. */
interface PageState {
  ids: Map<string, string>;
  subscriptions: Array<{ where: string; messages: Array<{ data?: unknown; errors?: unknown; extensions?: Record<string, unknown> }>; error?: unknown; dispose: () => void }>;
}

let t: TestGateway;
const sockets = new Map<string, Client>();

beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(async () => {
  for (const client of sockets.values()) void client.dispose();
  await t?.close();
});

function keyFor(example: Example): string {
  return example.as === 'web-cashier' ? t.keys.webCashier : t.keys.admin;
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((settle) => setTimeout(settle, 50));
  }
}

/** The text with its placeholders filled from what earlier examples of the page answered. */
async function filled(text: string, state: PageState, where: string): Promise<string> {
  let result = text;
  if (result.includes('"<cursor>"')) {
    const cursor = await until(`${where}: a subscription earlier on the page to deliver a cursor`, () => {
      for (const subscription of state.subscriptions) {
        const found = subscription.messages.find((message) => typeof message.extensions?.cursor === 'string');
        if (found) return found.extensions!.cursor as string;
      }
      return undefined;
    });
    result = result.replaceAll('"<cursor>"', JSON.stringify(cursor));
  }
  return result.replace(/"(\w+)_…"/g, (_whole, prefix: string) => {
    const id = state.ids.get(prefix);
    if (!id) throw new Error(`${where}: "${prefix}_…" but no earlier example on the page answered with a ${prefix}_ id`);
    return JSON.stringify(id);
  });
}

/** Every `userErrors` entry anywhere in an answer. */
function userErrorsIn(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(userErrorsIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, field]) => (key === 'userErrors' && Array.isArray(field) ? field : userErrorsIn(field)));
}

/** Records the first id of each prefix in an answer (`dep_01…`), the one a later `"dep_…"` means. */
function rememberIds(value: unknown, state: PageState, seen = new Set<string>()): void {
  if (typeof value === 'string') {
    const match = /^([a-z]{2,5})_[0-9A-Za-z]{10,}$/.exec(value);
    if (match && !seen.has(match[1]!)) {
      seen.add(match[1]!);
      state.ids.set(match[1]!, value);
    }
  } else if (Array.isArray(value)) for (const item of value) rememberIds(item, state, seen);
  else if (value !== null && typeof value === 'object') for (const field of Object.values(value)) rememberIds(field, state, seen);
}

async function runGraphQL(example: Example, state: PageState, where: string): Promise<void> {
  if (example.once) {
    const [id] = JSON.parse(`[${await filled(`"${example.once.placeholder}"`, state, where)}]`) as [string];
    const wanted = example.once.status;
    await until(`${where}: ${id} to be ${wanted}`, async () => {
      const response = await postRaw(t.gateway.graphqlUrl, { query: 'query($id: ID!) { deposit(id: $id) { status } }', variables: { id } }, t.keys.admin);
      const status = (response.body as { data?: { deposit?: { status?: string } } }).data?.deposit?.status;
      if (status !== wanted && status && FINAL_DEPOSIT_STATUSES.has(status)) throw new Error(`${where}: ${id} ended ${status}, not ${wanted}`);
      return status === wanted ? status : undefined;
    });
  }
  const variables = example.variables === undefined ? undefined : (JSON.parse(await filled(example.variables, state, where)) as Record<string, unknown>);
  const operations = parse(example.code).definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
  expect(operations.length, `${where}: a complete operation, not a selection set alone`).toBeGreaterThan(0);
  for (const operation of operations) {
    const operationName = operation.name?.value;
    const label = `${where}${operationName ? ` (${operationName})` : ''}`;
    // The document as written, this operation's placeholders filled from what the ones before it answered.
    const { start, end } = operation.loc!;
    const query = example.code.slice(0, start) + (await filled(example.code.slice(start, end), state, label)) + example.code.slice(end);
    if (operation.operation === OperationTypeNode.SUBSCRIPTION) {
      const key = keyFor(example);
      const client = sockets.get(key) ?? wsClient(t.gateway.graphqlUrl.replace(/^http/, 'ws'), { authorization: `Bearer ${key}` });
      sockets.set(key, client);
      const subscription: PageState['subscriptions'][number] = { where: label, messages: [], dispose: () => {} };
      const opened = t.gateway.services.pubsub.subscriptionsOpened(PAYMENT_EVENTS_TOPIC);
      subscription.dispose = client.subscribe(
        { query, ...(operationName ? { operationName } : {}), ...(variables ? { variables } : {}) },
        { next: (message) => subscription.messages.push(message as PageState['subscriptions'][number]['messages'][number]), error: (error) => (subscription.error = error), complete: () => {} },
      );
      state.subscriptions.push(subscription);
      // Live before the next example acts, as a reader's first window is: what it does is delivered.
      await until(`${label}: the subscription to be live`, () =>
        t.gateway.services.pubsub.subscriptionsOpened(PAYMENT_EVENTS_TOPIC) > opened || subscription.messages.length > 0 || subscription.error !== undefined ? true : undefined,
      );
      continue;
    }
    const response = await postRaw(t.gateway.graphqlUrl, { query, ...(operationName ? { operationName } : {}), ...(variables ? { variables } : {}) }, keyFor(example));
    const body = response.body as { data?: unknown; errors?: unknown };
    expect(body.errors, `${label}: GraphQL errors`).toBeUndefined();
    expect(response.status, label).toBe(200);
    expect(userErrorsIn(body.data), `${label}: userErrors`).toEqual([]);
    rememberIds(body.data, state);
  }
}

/** The programs a shell example runs: the first word of each command, past variable assignments. */
function programsOf(code: string): string[] {
  const lines = code.replace(/\\\n/g, ' ').split('\n').map((line) => line.replace(/(^|\s)#.*$/, ''));
  const commands = lines.flatMap((line) => line.split(/&&|\|\||\||;/)).map((command) => command.trim()).filter(Boolean);
  return commands.map((command) => command.split(/\s+/).find((word) => !/^\w+=/.test(word)) ?? '');
}

/** The JSON objects a command printed, one after another with or without a line between (curl adds none). */
function jsonObjectsIn(text: string): unknown[] {
  const objects: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"' && depth > 0) inString = true;
    else if (char === '{') {
      if (depth === 0) start = index;
      depth += 1;
    } else if (char === '}' && depth > 0) {
      depth -= 1;
      if (depth === 0) objects.push(JSON.parse(text.slice(start, index + 1)));
    }
  }
  return objects;
}

async function runShell(example: Example, where: string): Promise<void> {
  const outside = programsOf(example.code).filter((program) => !RUNNABLE_PROGRAMS.has(program));
  expect(outside, `${where}: runs ${outside.join(', ')}, which this test does not; make the example runnable, or mark it <!-- example: not run: why -->`).toEqual([]);
  const address = new URL(t.gateway.url).host;
  const script = example.code.replaceAll(DOCUMENTED_ADDRESS, address);
  const { stdout } = await promisify(execFile)('bash', ['-e', '-o', 'pipefail', '-c', script], {
    cwd: ROOT,
    timeout: 15_000,
    // The whole environment: bash started with PATH alone spends seconds looking itself up.
    env: { ...process.env, ADMIN_KEY: t.keys.admin, CASHIER_KEY: t.keys.webCashier },
  }).catch((error: Error & { stdout?: string; stderr?: string }) => {
    throw new Error(`${where}: ${error.message}\n${error.stdout ?? ''}${error.stderr ?? ''}`);
  });
  for (const answer of jsonObjectsIn(stdout) as Array<{ errors?: unknown; data?: unknown }>) {
    expect(answer.errors, `${where}: GraphQL errors`).toBeUndefined();
    expect(userErrorsIn(answer.data), `${where}: userErrors`).toEqual([]);
  }
}

describe.each(PAGES)('the examples of %s', (page) => {
  it('run as written, in order', async () => {
    const state: PageState = { ids: new Map(), subscriptions: [] };
    const examples = examplesOf(page);
    // Every fence of a language this test runs is one of its examples: none slips past the parser.
    const fences = readFileSync(join(ROOT, page), 'utf8').match(/^\s*```(?:graphql|sh|bash|shell)\s*$/gm) ?? [];
    expect(examples).toHaveLength(fences.length);
    try {
      for (const example of examples) {
        const where = `${page}:${example.line}`;
        if (example.notRun !== undefined) continue;
        if (example.language === 'graphql') await runGraphQL(example, state, where);
        else await runShell(example, where);
      }
      // A subscription delivers: what the examples after it did reaches it.
      for (const subscription of state.subscriptions) {
        await until(`${subscription.where}: a message`, () => (subscription.error !== undefined || subscription.messages.length > 0 ? true : undefined));
        expect(subscription.error, `${subscription.where}: subscription error`).toBeUndefined();
        for (const message of subscription.messages) expect(message.errors, `${subscription.where}: errors`).toBeUndefined();
      }
    } finally {
      for (const subscription of state.subscriptions) subscription.dispose();
    }
  });
});

/** GitHub's anchor of a heading. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}_\- ]/gu, '').replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (heading) {
      let anchor = slug(heading[1]!);
      for (let n = 1; anchors.has(anchor); n += 1) anchor = `${slug(heading[1]!)}-${n}`;
      anchors.add(anchor);
    }
  }
  return anchors;
}

describe('the links of README.md and docs/*.md', () => {
  it('lead to files and headings that exist', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const file = path ? resolve(dirname(join(ROOT, page)), path) : join(ROOT, page);
        if (!existsSync(file)) broken.push(`${page}: ${target} (no such file)`);
        else if (anchor && file.endsWith('.md') && !anchorsOf(file).has(anchor)) broken.push(`${page}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});
