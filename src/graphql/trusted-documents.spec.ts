// The manifest's checks and the trusted-documents rule, for every way a request can name its document.

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { httpDocumentRequest, TrustedDocuments, type DocumentResolution } from './trusted-documents.js';

const TEXT = 'query Viewer { viewer { id } }';
const HEX = createHash('sha256').update(TEXT).digest('hex');
const OTHER = 'f'.repeat(64);
const documents = TrustedDocuments.fromManifest({ [`sha256:${HEX}`]: TEXT });
const trusted = { trustedDocumentsOnly: true };
const open = { trustedDocumentsOnly: false };
const http = { automaticPersistedQueries: true };
const ws = { automaticPersistedQueries: false };
const apq = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });
const code = (resolution: DocumentResolution) => (resolution.ok ? resolution.query ?? 'unchanged' : resolution.error.extensions.code);

describe('TrustedDocuments.fromManifest', () => {
  it('refuses an entry whose key is not the SHA-256 of its text', () => {
    expect(() => TrustedDocuments.fromManifest({ [`sha256:${OTHER}`]: TEXT })).toThrow(/not the SHA-256/);
    expect(() => TrustedDocuments.fromManifest({ [`sha1:${HEX}`]: TEXT })).toThrow(/not the SHA-256/);
    expect(() => TrustedDocuments.fromManifest([TEXT])).toThrow(/JSON object/);
  });

  it('takes bare hex keys too', () => {
    expect(TrustedDocuments.fromManifest({ [HEX]: TEXT }).size).toBe(1);
  });
});

describe('TrustedDocuments.resolve', () => {
  it('gives the manifest text for a known hash, in either form, to every client', () => {
    for (const client of [trusted, open, null]) {
      expect(code(documents.resolve({ documentId: `sha256:${HEX}` }, client, http))).toBe(TEXT);
      expect(code(documents.resolve({ extensions: apq(HEX.toUpperCase()) }, client, ws))).toBe(TEXT);
      // The hash decides, whatever text comes with it.
      expect(code(documents.resolve({ query: '{ other }', extensions: apq(HEX) }, client, http))).toBe(TEXT);
    }
  });

  it('refuses a trusted-documents-only client anything outside the manifest', () => {
    expect(code(documents.resolve({ query: '{ viewer { id } }' }, trusted, http))).toBe('PERSISTED_DOCUMENT_REQUIRED');
    expect(code(documents.resolve({}, trusted, http))).toBe('PERSISTED_DOCUMENT_REQUIRED');
    expect(code(documents.resolve({ extensions: apq(OTHER) }, trusted, http))).toBe('PERSISTED_DOCUMENT_NOT_FOUND');
    expect(code(documents.resolve({ documentId: 'sha256:nothex' }, trusted, http))).toBe('PERSISTED_DOCUMENT_NOT_FOUND');
    // An APQ retry: an unknown hash with its full text is judged by the text.
    expect(code(documents.resolve({ query: '{ viewer { id } }', extensions: apq(OTHER) }, trusted, http))).toBe('PERSISTED_DOCUMENT_REQUIRED');
  });

  it("lets a trusted-documents-only client send a manifest document's exact text", () => {
    expect(code(documents.resolve({ query: TEXT }, trusted, http))).toBe('unchanged');
    expect(code(documents.resolve({ query: `${TEXT} ` }, trusted, http))).toBe('PERSISTED_DOCUMENT_REQUIRED');
  });

  it("leaves other clients' full documents and unknown APQ hashes alone over HTTP", () => {
    expect(code(documents.resolve({ query: '{ viewer { id } }' }, open, http))).toBe('unchanged');
    expect(code(documents.resolve({ extensions: apq(OTHER) }, open, http))).toBe('unchanged');
    expect(code(documents.resolve({ query: '{ viewer { id } }', extensions: apq(OTHER) }, open, http))).toBe('unchanged');
  });

  it('finds no unknown document id, nor an unknown hash where no APQ cache answers', () => {
    expect(code(documents.resolve({ documentId: `sha256:${OTHER}` }, open, http))).toBe('PERSISTED_DOCUMENT_NOT_FOUND');
    expect(code(documents.resolve({ query: '', extensions: apq(OTHER) }, open, ws))).toBe('PERSISTED_DOCUMENT_NOT_FOUND');
  });
});

describe('httpDocumentRequest', () => {
  it('reads the POST body, or the GET query string with its JSON extensions', () => {
    expect(httpDocumentRequest({ method: 'POST', body: { documentId: 'sha256:x', query: 'q' }, search: '' })).toEqual({ documentId: 'sha256:x', query: 'q', extensions: undefined });
    const search = `?${new URLSearchParams({ extensions: JSON.stringify(apq(HEX)), documentId: 'sha256:y' })}`;
    expect(httpDocumentRequest({ method: 'GET', body: undefined, search })).toEqual({ query: undefined, documentId: 'sha256:y', extensions: apq(HEX) });
    expect(httpDocumentRequest({ method: 'GET', body: undefined, search: '?extensions=%7Bnot-json' }).extensions).toBeUndefined();
  });
});
