// The example cashier on GET /examples/cashier, outside production only: the plain page and ES
// module script of examples/cashier/, and graphql-ws's own browser build for its live updates.
// The demo web-cashier key is written into the page only for a client on this machine, as
// GraphiQL does with the admin key.

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router, type Request, type Response } from 'express';
import { isLoopbackAddress } from './graphiql.js';

/** The page's files, by the name they are served under. Nothing else in the folder is served. */
const PAGE_FILES = ['cashier.js', 'cashier.css', 'operations.js'] as const;

/** The files of graphql-ws's ESM client: `client.js` and the hashed `common-*.js` chunk it imports. */
const GRAPHQL_WS_FILE = /^(?:client|common-[A-Za-z0-9_-]+)\.js$/;

/**
 * The page loads scripts, styles and its socket from the gateway alone; the Thai QR code is a
 * data: image. A key in the page is only ever sent back to the gateway it came from. The one
 * exception is the embedded card form: its provider's loader script and the frame of card fields
 * it places, from the card providers' hosts (`cardFormOrigins`) and nowhere else.
 */
function contentSecurityPolicy(cardFormOrigins: readonly string[]): string {
  const card = cardFormOrigins.map((origin) => ` ${origin}`).join('');
  return [
    "default-src 'none'",
    `script-src 'self'${card}`,
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    // The loader sizes its frame with a style attribute: attributes only, never a style element.
    ...(card ? [`frame-src${card}`, "style-src-attr 'unsafe-inline'"] : []),
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Routes for /examples, or undefined when the page's folder is not there (an image that ships
 * only `dist/`). `webCashierKey` is the demo web-cashier key, when demo clients exist.
 * `cardFormOrigins` says, once the gateway listens, which origins serve the card form's loader
 * script and fields: those of the accounts whose provider offers the card form.
 */
export function examplesRouter(options: { webCashierKey?: string; cardFormOrigins?: () => readonly string[] }): Router | undefined {
  const folder = findExamplesFolder();
  if (!folder) return undefined;
  const template = readFileSync(path.join(folder, 'index.html'), 'utf8');
  const withKey = options.webCashierKey ? render(template, `Bearer ${options.webCashierKey}`) : undefined;
  const withoutKey = render(template, '');
  const graphqlWsFolder = path.dirname(createRequire(import.meta.url).resolve('graphql-ws'));

  const router = Router();
  router.get('/cashier', (req: Request, res: Response) => {
    const keyed = withKey !== undefined && isLoopbackAddress(req.socket.remoteAddress);
    res.set('Content-Security-Policy', contentSecurityPolicy([...new Set(options.cardFormOrigins?.() ?? [])]));
    // A page carrying a key must not sit in any cache.
    res.set('Cache-Control', keyed ? 'no-store' : 'no-cache');
    res.type('html').send(keyed ? withKey : withoutKey);
  });
  for (const file of PAGE_FILES) {
    router.get(`/cashier/${file}`, (_req, res, next) => {
      res.sendFile(path.join(folder, file), { headers: { 'Cache-Control': 'no-cache' } }, (error) => error && next(error));
    });
  }
  router.get('/cashier/graphql-ws/:file', (req, res, next) => {
    const file = req.params.file;
    if (typeof file !== 'string' || !GRAPHQL_WS_FILE.test(file)) return next();
    res.sendFile(path.join(graphqlWsFolder, file), { headers: { 'Cache-Control': 'no-cache' } }, (error) => error && next());
  });
  return router;
}

/** examples/cashier beside package.json, found from here in the sources (src/) and in the build (dist/src/). */
function findExamplesFolder(): string | undefined {
  let directory = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(directory, 'package.json'))) {
      const folder = path.join(directory, 'examples', 'cashier');
      return existsSync(path.join(folder, 'index.html')) ? folder : undefined;
    }
    const parent = path.dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

function render(template: string, authorization: string): string {
  return template.replace('%AUTHORIZATION%', escapeAttribute(authorization));
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
