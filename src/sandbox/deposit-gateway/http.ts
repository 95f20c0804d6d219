// Small node:http helpers for the sandbox server: bounded body reading and JSON, HTML and redirect answers.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody as readBytes, sendJson as sendJsonAnswer } from '../../lib/http.js';

const MAX_BODY_BYTES = 1024 * 1024;

export { BodyTooLarge } from '../../lib/http.js';

export async function readBody(request: IncomingMessage): Promise<string> {
  return (await readBytes(request, MAX_BODY_BYTES)).toString('utf8');
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  sendJsonAnswer(response, status, body, { 'cache-control': 'no-store' });
}

/** `scriptHashes`: CSP hashes of the page's own inline scripts, the only scripts it may run. */
export function sendHtml(response: ServerResponse, status: number, html: string, options: { scriptHashes?: string[] } = {}): void {
  const scripts = options.scriptHashes?.length ? `; script-src ${options.scriptHashes.join(' ')}` : '';
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    // The pages load nothing from anywhere; say so to the browser too.
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action *${scripts}`,
  });
  response.end(html);
}

export function sendText(response: ServerResponse, status: number, contentType: string, text: string): void {
  response.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  response.end(text);
}

/** 303 so the browser follows a form POST with a GET. */
export function redirect(response: ServerResponse, location: string): void {
  response.writeHead(303, { location, 'content-length': 0 });
  response.end();
}
