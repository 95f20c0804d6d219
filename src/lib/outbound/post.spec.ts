// The outbound client that delivers back-office notifications, against real node:http and
// node:https servers on 127.0.0.1: what reaches a receiver, what never does (private, metadata and
// rebound addresses, redirects), and how a slow, large or broken receiver ends an attempt.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkDestinationUrl, postOnce, type OutboundPolicy, type PostInput, type PostResult, type ResolvedAddress } from '../outbound-http.js';

/** What a receiver saw: every TCP connection and every complete request. */
interface Receiver {
  port: number;
  connections: number;
  requests: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }>;
}

const servers: Array<{ close(): void; closeAllConnections?(): void }> = [];

afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections?.();
    server.close();
  }
});

async function listening(server: Server | ReturnType<typeof createNetServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return (server.address() as AddressInfo).port;
}

/** Records each request, then lets `respond` answer it (or not). */
async function receiver(respond: (request: IncomingMessage, response: ServerResponse) => void, tls?: { key: string; cert: string }): Promise<Receiver> {
  const seen: Receiver = { port: 0, connections: 0, requests: [] };
  const handler: RequestListener = (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      respond(request, response);
    });
  };
  const server = tls ? createHttpsServer(tls, handler) : createServer(handler);
  server.on('connection', () => seen.connections++);
  seen.port = await listening(server);
  return seen;
}

const development: OutboundPolicy = { production: false, allow: [] };
const secret = { header: 'v1,c2lnbmF0dXJlLW5vdC1yZWFsLXNpZw==', body: '{"type":"deposit.paid","token":"body-secret-7781"}', path: 'path-secret-4412' };

function post(url: string, overrides: Partial<PostInput> = {}): Promise<PostResult> {
  return postOnce({ url, headers: { 'content-type': 'application/json', 'webhook-signature': secret.header }, body: secret.body, timeoutMs: 5_000, policy: development, ...overrides });
}

/** A resolver that answers from a table, as a hostile or misconfigured DNS would. */
function resolver(table: Record<string, string[]>): OutboundPolicy['resolve'] {
  return async (hostname): Promise<ResolvedAddress[]> => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

/** A port nothing listens on: one that was free a moment ago. */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  const port = await listening(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('postOnce delivers to a receiver', () => {
  it('sends one POST with the headers and body and reads a 2xx', async () => {
    const hook = await receiver((_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
    const result = await post(`http://127.0.0.1:${hook.port}/hooks/back-office?x=1`);
    expect(result).toMatchObject({ kind: 'response', status: 200, body: 'ok', truncated: false, remoteAddress: '127.0.0.1' });
    expect(hook.requests).toEqual([
      expect.objectContaining({ method: 'POST', url: '/hooks/back-office?x=1', body: secret.body, headers: expect.objectContaining({ 'webhook-signature': secret.header, 'content-type': 'application/json', connection: 'close' }) }),
    ]);
  });

  it('reads a non-2xx as a response with its status and excerpt', async () => {
    const hook = await receiver((_request, response) => response.writeHead(503).end('try later'));
    expect(await post(`http://127.0.0.1:${hook.port}/`)).toMatchObject({ kind: 'response', status: 503, body: 'try later', truncated: false });
  });

  it('does not follow a redirect: the 3xx is the answer and its target receives nothing', async () => {
    const target = await receiver((_request, response) => response.writeHead(200).end());
    const hook = await receiver((_request, response) => response.writeHead(307, { location: `http://127.0.0.1:${target.port}/elsewhere` }).end());
    expect(await post(`http://127.0.0.1:${hook.port}/`)).toMatchObject({ kind: 'response', status: 307 });
    expect(target.connections).toBe(0);
  });

  it('reaches a loopback receiver through a name outside production (a developer machine)', async () => {
    const hook = await receiver((_request, response) => response.writeHead(204).end());
    const policy = { ...development, resolve: resolver({ 'receiver.dev.test': ['127.0.0.1'] }) };
    expect(await post(`http://receiver.dev.test:${hook.port}/`, { policy })).toMatchObject({ kind: 'response', status: 204, remoteAddress: '127.0.0.1' });
    expect(hook.requests[0]?.headers.host).toBe(`receiver.dev.test:${hook.port}`);
  });

  it('sends plain http only to this machine: a name that resolves elsewhere is refused before connecting', async () => {
    const policy = { ...development, allow: ['10.0.0.0/8'], resolve: resolver({ 'hooks.example.test': ['93.184.215.14'], 'ledger.internal.test': ['10.1.2.3'] }) };
    for (const url of ['http://hooks.example.test/', 'http://ledger.internal.test/']) {
      expect(await post(url, { policy })).toMatchObject({ kind: 'refused', code: 'URL_SCHEME_NOT_ALLOWED' });
    }
  });
});

describe('postOnce bounds what a receiver can make it wait for or read', () => {
  it('times out on a receiver that never answers', async () => {
    const hook = await receiver(() => undefined);
    expect(await post(`http://127.0.0.1:${hook.port}/`, { timeoutMs: 300 })).toMatchObject({ kind: 'failed', code: 'TIMEOUT' });
    expect(hook.requests).toHaveLength(1);
  });

  it('times out on a receiver that trickles its response head', async () => {
    const trickle = createNetServer((socket: Socket) => {
      // A valid head, one byte at a time, whose last header never ends.
      const head = 'HTTP/1.1 200 OK\r\nX-Slow: ';
      let sent = 0;
      const timer = setInterval(() => socket.write(head[sent++] ?? 'a'), 20);
      socket.on('close', () => clearInterval(timer));
      socket.on('error', () => clearInterval(timer));
    });
    const port = await listening(trickle);
    expect(await post(`http://127.0.0.1:${port}/`, { timeoutMs: 300 })).toMatchObject({ kind: 'failed', code: 'TIMEOUT' });
  });

  it('times out on a receiver that answers 200 and trickles the body', async () => {
    const hook = await receiver((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => response.write('.'), 20);
      response.on('close', () => clearInterval(timer));
    });
    expect(await post(`http://127.0.0.1:${hook.port}/`, { timeoutMs: 300 })).toMatchObject({ kind: 'failed', code: 'TIMEOUT' });
  });

  it('keeps the status and an excerpt of a large body, and stops reading it', async () => {
    const hook = await receiver((_request, response) => response.writeHead(200).end('a'.repeat(1024 * 1024)));
    const result = await post(`http://127.0.0.1:${hook.port}/`);
    expect(result).toMatchObject({ kind: 'response', status: 200, truncated: true });
    expect(result.kind === 'response' && result.body).toBe('a'.repeat(4096));
    expect(await post(`http://127.0.0.1:${hook.port}/`, { maxResponseBytes: 10 })).toMatchObject({ kind: 'response', body: 'a'.repeat(10), truncated: true });
  });

  it('refuses response headers over 16 KiB', async () => {
    const hook = await receiver((_request, response) => response.writeHead(200, { 'x-padding': 'p'.repeat(20_000) }).end());
    expect(await post(`http://127.0.0.1:${hook.port}/`)).toMatchObject({ kind: 'failed', code: 'RESPONSE_TOO_LARGE' });
  });

  it('cuts the excerpt before a character the limit would split', async () => {
    const hook = await receiver((_request, response) => response.writeHead(400).end('abcd€€'));
    // 'abcd' is 4 bytes and '€' 3: a 5- or 6-byte cut would split the first euro sign.
    expect(await post(`http://127.0.0.1:${hook.port}/`, { maxResponseBytes: 6 })).toMatchObject({ kind: 'response', body: 'abcd', truncated: true });
    expect(await post(`http://127.0.0.1:${hook.port}/`, { maxResponseBytes: 7 })).toMatchObject({ kind: 'response', body: 'abcd€', truncated: true });
    expect(await post(`http://127.0.0.1:${hook.port}/`, { maxResponseBytes: 10 })).toMatchObject({ kind: 'response', body: 'abcd€€', truncated: false });
  });

  it('reports a refused connection, a failed lookup and a receiver that is not HTTP', async () => {
    expect(await post(`http://127.0.0.1:${await closedPort()}/`)).toMatchObject({ kind: 'failed', code: 'CONNECTION_FAILED' });
    expect(await post('http://missing.test/', { policy: { ...development, resolve: resolver({}) } })).toMatchObject({ kind: 'failed', code: 'DNS_FAILED' });
    const garbage = createNetServer((socket: Socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n\r\n'));
    expect(await post(`http://127.0.0.1:${await listening(garbage)}/`)).toMatchObject({ kind: 'failed', code: 'PROTOCOL_ERROR' });
  });

  it('refuses, as a programming error, a body over 256 KiB or a header it sets itself', async () => {
    const hook = await receiver((_request, response) => response.writeHead(200).end());
    const url = `http://127.0.0.1:${hook.port}/`;
    const refusal = post(url, { body: `"${'x'.repeat(300 * 1024)}"` });
    await expect(refusal).rejects.toThrow(/body is 307202 bytes, over the limit of 262144/);
    await expect(post(url, { headers: { Host: 'internal.example' } })).rejects.toThrow(/Host header is set by postOnce/);
    expect(hook.connections).toBe(0);
  });

  it('rejects with the reason when the caller aborts', async () => {
    const hook = await receiver(() => undefined);
    const controller = new AbortController();
    const pending = post(`http://127.0.0.1:${hook.port}/`, { signal: controller.signal });
    await expect.poll(() => hook.requests.length).toBe(1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('postOnce never connects where it must not', () => {
  it.each([
    ['loopback in production', 'https://127.0.0.1/', true],
    ['IPv6 loopback in production', 'https://[::1]/', true],
    ['private 10/8', 'http://10.0.0.1/', false],
    ['private 172.16/12', 'http://172.16.5.4/', false],
    ['private 192.168/16', 'http://192.168.1.1/', false],
    ['unique local fc00::/7', 'http://[fd12:3456::1]/', false],
    ['link-local', 'http://169.254.10.20/', false],
    ['metadata', 'http://169.254.169.254/latest/meta-data/', false],
    ['IPv6 link-local', 'http://[fe80::1]/', false],
    ['unspecified', 'http://0.0.0.0/', false],
    ['IPv6 unspecified', 'http://[::]/', false],
    ['carrier-grade NAT', 'http://100.64.0.1/', false],
    ['multicast', 'http://224.0.0.1/', false],
    ['broadcast', 'http://255.255.255.255/', false],
    ['reserved 240/4', 'http://240.0.0.1/', false],
    ['documentation', 'http://192.0.2.1/', false],
    ['IPv4-mapped private', 'http://[::ffff:10.0.0.1]/', false],
    ['IPv4-mapped metadata', 'http://[::ffff:a9fe:a9fe]/', false],
    ['NAT64 of a private address', 'http://[64:ff9b::10.0.0.1]/', false],
    ['decimal spelling of loopback in production', 'https://2130706433/', true],
  ])('refuses %s by its literal address', async (_name, url, production) => {
    const result = await post(url, { policy: { production, allow: [] } });
    expect(result).toMatchObject({ kind: 'refused', code: 'ADDRESS_NOT_ALLOWED' });
    expect(checkDestinationUrl(url, { production, allow: [] })).toMatchObject({ ok: false, code: 'ADDRESS_NOT_ALLOWED' });
  });

  it('refuses a literal address that reaches a listening receiver, which sees no connection', async () => {
    const hook = await receiver((_request, response) => response.writeHead(200).end());
    // 0.0.0.0 and ::ffff:127.0.0.1 both reach 127.0.0.1 on Linux: exactly what a check by text would miss.
    expect(await post(`http://0.0.0.0:${hook.port}/`)).toMatchObject({ kind: 'refused', code: 'ADDRESS_NOT_ALLOWED' });
    expect(await post(`https://[::ffff:127.0.0.1]:${hook.port}/`, { policy: { production: true, allow: [] } })).toMatchObject({ kind: 'refused', code: 'ADDRESS_NOT_ALLOWED' });
    expect(hook.connections).toBe(0);
  });

  it.each([
    ['loopback (production)', ['127.0.0.1']],
    ['IPv6 loopback (production)', ['::1']],
    ['private 10/8', ['10.0.0.1']],
    ['private 172.16/12', ['172.20.0.1']],
    ['private 192.168/16', ['192.168.0.10']],
    ['unique local', ['fd00::1']],
    ['metadata', ['169.254.169.254']],
    ['link-local', ['169.254.1.1']],
    ['IPv6 link-local', ['fe80::1']],
    ['unspecified', ['0.0.0.0']],
    ['IPv6 unspecified', ['::']],
    ['carrier-grade NAT', ['100.64.0.1']],
    ['multicast', ['239.1.2.3']],
    ['broadcast', ['255.255.255.255']],
    ['reserved', ['240.0.0.1']],
    ['IPv4-mapped loopback (production)', ['::ffff:127.0.0.1']],
    ['NAT64 of the metadata address', ['64:ff9b::a9fe:a9fe']],
    ['public and private mixed', ['93.184.216.34', '192.168.0.10']],
  ])('refuses a name that resolves to %s at delivery, though its URL passed at registration', async (_name, addresses) => {
    const policy: OutboundPolicy = { production: true, allow: [], resolve: resolver({ 'hooks.partner.example': addresses }) };
    const url = 'https://hooks.partner.example/notify';
    expect(checkDestinationUrl(url, policy)).toMatchObject({ ok: true });
    expect(await post(url, { policy })).toMatchObject({ kind: 'refused', code: 'ADDRESS_NOT_ALLOWED' });
  });

  it('refuses http and credentials in the URL', async () => {
    const hook = await receiver((_request, response) => response.writeHead(200).end());
    expect(await post(`http://127.0.0.1:${hook.port}/`, { policy: { production: true, allow: ['127.0.0.0/8'] } })).toMatchObject({ kind: 'refused', code: 'URL_SCHEME_NOT_ALLOWED' });
    expect(await post(`http://user:hunter2@127.0.0.1:${hook.port}/`)).toMatchObject({ kind: 'refused', code: 'URL_CREDENTIALS_NOT_ALLOWED' });
    expect(await post(`ftp://127.0.0.1:${hook.port}/`)).toMatchObject({ kind: 'refused', code: 'URL_SCHEME_NOT_ALLOWED' });
    expect(hook.connections).toBe(0);
  });

  it('puts nothing the caller sent in a refusal', async () => {
    const secretHost = 'rebind-secret-9930.example';
    const policy: OutboundPolicy = { production: true, allow: [], resolve: resolver({ [secretHost]: ['10.20.30.40'] }) };
    const urls = [
      `https://${secretHost}/${secret.path}?token=query-secret-1`,
      `https://10.20.30.40/${secret.path}?token=query-secret-1`,
      `http://${secretHost}/${secret.path}?token=query-secret-1`,
      `https://user-secret:pass-secret@${secretHost}/${secret.path}`,
      `https://${secretHost}/${'p'.repeat(2100)}`,
      `notaurl-secret ${secret.path}`,
    ];
    for (const url of urls) {
      const result = await post(url, { policy });
      expect(result.kind).toBe('refused');
      const text = JSON.stringify(result);
      for (const sent of [secretHost, '10.20.30.40', secret.path, 'query-secret', 'user-secret', 'pass-secret', secret.header, 'body-secret', 'notaurl']) {
        expect(text).not.toContain(sent);
      }
    }
  });
});

// https cases need a certificate: one made at test time with openssl, or they are skipped.
const openssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!openssl)('postOnce over https', () => {
  let tls: { key: string; cert: string };
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'outbound-tls-'));
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=hooks.test', '-addext', 'subjectAltName=DNS:hooks.test,DNS:other.test,DNS:meta.test,IP:127.0.0.1', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')],
      { stdio: 'ignore' },
    );
    tls = { key: readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const names = resolver({ 'hooks.test': ['127.0.0.1'], 'other.test': ['127.0.0.1'], 'meta.test': ['169.254.169.254'] });

  it('delivers in production to a loopback receiver that a CIDR allowlists', async () => {
    const hook = await receiver((_request, response) => response.writeHead(202).end('queued'), tls);
    const policy: OutboundPolicy = { production: true, allow: ['127.0.0.0/8'], ca: tls.cert, resolve: names };
    expect(await post(`https://127.0.0.1:${hook.port}/`, { policy })).toMatchObject({ kind: 'response', status: 202, body: 'queued', remoteAddress: '127.0.0.1' });
    expect(await post(`https://hooks.test:${hook.port}/`, { policy })).toMatchObject({ kind: 'response', status: 202 });
    expect(hook.requests.map((request) => request.body)).toEqual([secret.body, secret.body]);
  });

  it('delivers in production to an allowlisted host name only, and never to a metadata address through a name', async () => {
    const hook = await receiver((_request, response) => response.writeHead(200).end(), tls);
    const policy: OutboundPolicy = { production: true, allow: ['hooks.test', 'meta.test'], ca: tls.cert, resolve: names };
    expect(await post(`https://hooks.test:${hook.port}/`, { policy })).toMatchObject({ kind: 'response', status: 200 });
    expect(await post(`https://other.test:${hook.port}/`, { policy })).toMatchObject({ kind: 'refused', code: 'ADDRESS_NOT_ALLOWED' });
    expect(await post(`https://meta.test:${hook.port}/`, { policy })).toMatchObject({ kind: 'refused', code: 'ADDRESS_NOT_ALLOWED', message: expect.stringContaining('metadata') });
    expect(hook.connections).toBe(1);
  });

  it('refuses loopback in production without an allowlist, before connecting', async () => {
    const hook = await receiver((_request, response) => response.writeHead(200).end(), tls);
    const policy: OutboundPolicy = { production: true, allow: [], ca: tls.cert, resolve: names };
    expect(await post(`https://hooks.test:${hook.port}/`, { policy })).toMatchObject({ kind: 'refused', code: 'ADDRESS_NOT_ALLOWED' });
    expect(await post(`https://localhost:${hook.port}/`, { policy })).toMatchObject({ kind: 'refused', code: 'ADDRESS_NOT_ALLOWED' });
    expect(hook.connections).toBe(0);
  });

  it('fails on a certificate it does not trust, sending nothing', async () => {
    const hook = await receiver((_request, response) => response.writeHead(200).end(), tls);
    expect(await post(`https://127.0.0.1:${hook.port}/`)).toMatchObject({ kind: 'failed', code: 'TLS_FAILED' });
    expect(await post(`https://other.test:${hook.port}/`, { policy: { ...development, resolve: resolver({ 'other.test': ['127.0.0.1'] }), ca: tls.cert } })).toMatchObject({ kind: 'response', status: 200 });
    expect(await post(`https://wrong.test:${hook.port}/`, { policy: { ...development, resolve: resolver({ 'wrong.test': ['127.0.0.1'] }), ca: tls.cert } })).toMatchObject({ kind: 'failed', code: 'TLS_FAILED' });
    expect(hook.requests).toHaveLength(1);
  });
});
