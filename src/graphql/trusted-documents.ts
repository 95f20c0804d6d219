// Trusted documents: the manifest of persisted documents that codegen's client preset writes for the
// cashier apps (client/generated/persisted-documents.json, hash -> document), looked up by hash for
// every client, and the rule for a client an admin marked trusted-documents-only: it runs the
// manifest's documents and nothing else. Used by HTTP (the context step resolves once and refuses,
// the request plugin puts the document in place) and by graphql-ws (before it parses) alike.
//
// A request names a manifest document in either of two standard ways:
// - Apollo's `extensions.persistedQuery: { version: 1, sha256Hash: "<hex>" }`;
// - `documentId: "sha256:<hex>"` (the GraphQL-over-HTTP persisted-documents draft, and the hash
//   codegen embeds in each generated document as `__meta__.hash`).
//
// A trusted-documents-only client sending a full document whose exact text is in the manifest is
// accepted, as Apollo's safelisting does: that text is what the app ships, so it widens nothing.

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { GraphQLRequest, HTTPGraphQLRequest } from '@apollo/server';
import { GraphQLError } from 'graphql';

/** A trusted-documents-only client sent a document that is not in the manifest. */
export const PERSISTED_DOCUMENT_REQUIRED = 'PERSISTED_DOCUMENT_REQUIRED';
/** The hash or document id names no document of the manifest. */
export const PERSISTED_DOCUMENT_NOT_FOUND = 'PERSISTED_DOCUMENT_NOT_FOUND';
/** The codes of this file's refusals, written for clients (errors.ts lets them through). */
export const PERSISTED_DOCUMENT_CODES = [PERSISTED_DOCUMENT_REQUIRED, PERSISTED_DOCUMENT_NOT_FOUND] as const;

const SHA256_HEX = /^[0-9a-f]{64}$/;
const DOCUMENT_ID = /^sha256:([0-9a-f]{64})$/;

/** What a request says about its document, whatever the transport. */
export interface DocumentRequest {
  query?: unknown;
  documentId?: unknown;
  extensions?: unknown;
}

/** The client's rule, as the auth step loaded it; null: no client (the auth checker refuses later). */
export type TrustedDocumentsClient = { trustedDocumentsOnly: boolean } | null;

/**
 * - `ok` with `query`: run this text (the manifest's, when the request named one);
 * - `ok` without `query`: nothing to change (a full document, or an automatic persisted query
 *   that Apollo answers from its own cache);
 * - not `ok`: refused with `error`, before anything is parsed.
 */
export type DocumentResolution = { ok: true; query?: string } | { ok: false; error: GraphQLError };

export interface ResolveOptions {
  /**
   * True over HTTP, where Apollo Server's automatic persisted queries answer a hash it does not
   * know with PERSISTED_QUERY_NOT_FOUND, so the client retries with the full document. graphql-ws
   * has no such cache: a hash outside the manifest is not found there.
   */
  automaticPersistedQueries: boolean;
}

export class TrustedDocuments {
  /** By lower-case hex SHA-256 of the text. */
  private constructor(private readonly documents: ReadonlyMap<string, string>) {}

  /**
   * The manifest as codegen writes it: `{ "sha256:<hex>": "<document>" }`. Every key must be the
   * SHA-256 of its text (bare hex is accepted too): a manifest edited by hand, or written with
   * another algorithm, fails here rather than refusing the apps' requests one by one.
   */
  static fromManifest(manifest: unknown): TrustedDocuments {
    if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest)) throw new Error('a persisted-documents manifest is a JSON object of hash -> document');
    const documents = new Map<string, string>();
    for (const [key, text] of Object.entries(manifest)) {
      if (typeof text !== 'string') throw new Error(`manifest entry ${key} is not a document text`);
      const hex = hexOf(key, true);
      if (hex !== sha256(text)) throw new Error(`manifest entry ${key} is not the SHA-256 of its document (codegen: persistedDocuments with hashAlgorithm sha256)`);
      documents.set(hex, text);
    }
    return new TrustedDocuments(documents);
  }

  /** Reads the manifest file; a missing or malformed file fails the start, naming the file. */
  static async load(file: string): Promise<TrustedDocuments> {
    let manifest: unknown;
    try {
      manifest = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      // The message carries the cause's own, for the one line a failed start logs; a `cause` would
      // print it twice there (pino appends a cause's message to the error's).
      // eslint-disable-next-line preserve-caught-error
      throw new Error(`Could not read the persisted-documents manifest ${file} (TRUSTED_DOCUMENTS_FILE): ${error instanceof Error ? error.message : String(error)}`);
    }
    try {
      return TrustedDocuments.fromManifest(manifest);
    } catch (error) {
      // As above: the message carries the cause's.
      // eslint-disable-next-line preserve-caught-error
      throw new Error(`The persisted-documents manifest ${file} (TRUSTED_DOCUMENTS_FILE) is not valid: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** How many documents the manifest holds. */
  get size(): number {
    return this.documents.size;
  }

  /** What to run for `request`, sent by `client`, or why it is refused. */
  resolve(request: DocumentRequest, client: TrustedDocumentsClient, options: ResolveOptions): DocumentResolution {
    const query = typeof request.query === 'string' && request.query !== '' ? request.query : undefined;
    const reference = referenceOf(request);
    const named = reference ? this.documents.get(reference.hex) : undefined;
    if (named !== undefined) return { ok: true, query: named };

    if (client?.trustedDocumentsOnly) {
      // Judged by the text when there is one: an APQ retry (unknown hash, then the full document)
      // is refused as a full document, and so never reaches Apollo's cache.
      if (query !== undefined) return this.documents.has(sha256(query)) ? { ok: true } : { ok: false, error: required() };
      return { ok: false, error: reference ? notFound(reference.given) : required() };
    }
    if (reference && query === undefined && (reference.kind === 'documentId' || !options.automaticPersistedQueries)) {
      return { ok: false, error: notFound(reference.given) };
    }
    return { ok: true };
  }

  /**
   * Over HTTP, once per request, in the context step: a refusal is thrown there (an error thrown
   * from a request hook would be a 500); a manifest document the request named by hash is put in
   * place by the request plugin before Apollo reads the request ({@link putInPlace}), so Apollo
   * parses, validates and runs it as if it had been sent in full (its automatic persisted queries
   * never see a manifest hash).
   */
  forHttp(http: Pick<HTTPGraphQLRequest, 'method' | 'body' | 'search'>, client: TrustedDocumentsClient): DocumentResolution {
    return this.resolve(httpDocumentRequest(http), client, { automaticPersistedQueries: true });
  }
}

/** What an HTTP request says about its document: the POST body's fields, or the GET query string's. */
export function httpDocumentRequest(http: Pick<HTTPGraphQLRequest, 'method' | 'body' | 'search'>): DocumentRequest {
  if (http.method.toUpperCase() === 'GET') {
    const params = new URLSearchParams(http.search);
    return { query: params.get('query') ?? undefined, documentId: params.get('documentId') ?? undefined, extensions: jsonOrUndefined(params.get('extensions')) };
  }
  const body: unknown = http.body;
  if (!body || typeof body !== 'object') return {};
  const { query, documentId, extensions } = body as Record<string, unknown>;
  return { query, documentId, extensions };
}

/** The manifest's text as the request's query, without the hash Apollo would look up in its own cache. */
export function putInPlace(request: GraphQLRequest, query: string): void {
  request.query = query;
  if (request.extensions && 'persistedQuery' in request.extensions) {
    const { persistedQuery: _persistedQuery, ...extensions } = request.extensions;
    request.extensions = extensions;
  }
}

/** The hex SHA-256 a request names its document by (`documentId` first, then `extensions.persistedQuery`), when it names a well-formed one. */
export function documentHashOf(request: DocumentRequest): string | undefined {
  return referenceOf(request)?.hex || undefined;
}

/** The hash a request names, from `documentId` first, then `extensions.persistedQuery.sha256Hash`. */
function referenceOf(request: DocumentRequest): { kind: 'documentId' | 'persistedQuery'; hex: string; given: string } | undefined {
  if (typeof request.documentId === 'string') {
    return { kind: 'documentId', hex: hexOf(request.documentId, false) ?? '', given: request.documentId };
  }
  const extensions = request.extensions;
  if (!extensions || typeof extensions !== 'object' || !('persistedQuery' in extensions)) return undefined;
  const persisted = extensions.persistedQuery;
  if (!persisted || typeof persisted !== 'object' || !('sha256Hash' in persisted) || typeof persisted.sha256Hash !== 'string') return undefined;
  return { kind: 'persistedQuery', hex: hexOf(persisted.sha256Hash, true) ?? '', given: persisted.sha256Hash };
}

/** The hex digest of `sha256:<hex>`, or of bare hex where allowed; undefined for anything else. */
function hexOf(value: string, bareAllowed: boolean): string | undefined {
  const lower = value.toLowerCase();
  const prefixed = DOCUMENT_ID.exec(lower);
  if (prefixed) return prefixed[1];
  return bareAllowed && SHA256_HEX.test(lower) ? lower : undefined;
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function jsonOrUndefined(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Apollo refuses the malformed parameter itself, with its own 400.
    return undefined;
  }
}

function required(): GraphQLError {
  return new GraphQLError('This client may run only trusted documents: send the hash of a document from the persisted-documents manifest (extensions.persistedQuery or documentId)', {
    extensions: { code: PERSISTED_DOCUMENT_REQUIRED, http: { status: 403 } },
  });
}

function notFound(given: string): GraphQLError {
  // The caller's text, cut short: it goes back in the message.
  return new GraphQLError(`No trusted document has the hash ${JSON.stringify(given.slice(0, 80))}`, {
    extensions: { code: PERSISTED_DOCUMENT_NOT_FOUND, http: { status: 400 } },
  });
}
