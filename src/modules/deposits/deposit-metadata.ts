// A deposit's metadata: the client's own key/value pairs, kept on the deposit, shown back on it and
// sent to the provider where it takes them. Small and flat by design: it labels a deposit for the
// client's own systems (a cashier session, a campaign), it is not a document store, and whatever
// is in it also travels to the provider and into every event snapshot.

import type { FieldError } from '../../providers/provider.js';

/** The gateway's limits on metadata, whatever the provider. */
export const METADATA_LIMITS = {
  /** Entries per deposit. */
  entries: 20,
  /** A key: letters, digits, `_`, `-` and `.`, 1 to 40 of them. */
  key: /^[A-Za-z0-9_.-]{1,40}$/,
  /** Characters of one value. */
  valueChars: 500,
  /** Bytes of all keys and values together, as UTF-8. */
  totalBytes: 4096,
} as const;

export interface MetadataEntryInput {
  key: string;
  value: string;
}

/**
 * The entries as one object, or the errors that keep them out. Each error names the entry by its
 * index (`metadata.<i>.key` / `.value`), as the client sent it.
 *
 * @example
 * metadataOf([{ key: 'session', value: 'cs-42' }]) // { ok: true, metadata: { session: 'cs-42' } }
 */
export function metadataOf(entries: readonly MetadataEntryInput[]): { ok: true; metadata: Record<string, string> } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  if (entries.length > METADATA_LIMITS.entries) {
    return { ok: false, errors: [{ field: ['metadata'], code: 'METADATA_TOO_LARGE', message: `metadata has ${entries.length} entries; at most ${METADATA_LIMITS.entries} are kept.` }] };
  }
  const metadata: Record<string, string> = {};
  let bytes = 0;
  entries.forEach(({ key, value }, index) => {
    if (!METADATA_LIMITS.key.test(key)) {
      errors.push({ field: ['metadata', String(index), 'key'], code: 'INVALID_FORMAT', message: `metadata key ${JSON.stringify(key.slice(0, 60))} must be 1 to 40 letters, digits, "_", "-" or ".".` });
    } else if (Object.hasOwn(metadata, key)) {
      errors.push({ field: ['metadata', String(index), 'key'], code: 'INVALID_VALUE', message: `metadata key ${JSON.stringify(key)} is given twice.` });
    }
    if (value.length > METADATA_LIMITS.valueChars) {
      errors.push({ field: ['metadata', String(index), 'value'], code: 'METADATA_TOO_LARGE', message: `metadata value of ${JSON.stringify(key.slice(0, 40))} is ${value.length} characters; at most ${METADATA_LIMITS.valueChars}.` });
    }
    bytes += Buffer.byteLength(key) + Buffer.byteLength(value);
    Object.defineProperty(metadata, key, { value, enumerable: true, writable: true, configurable: true });
  });
  if (errors.length === 0 && bytes > METADATA_LIMITS.totalBytes) {
    errors.push({ field: ['metadata'], code: 'METADATA_TOO_LARGE', message: `metadata is ${bytes} bytes in all; at most ${METADATA_LIMITS.totalBytes}.` });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, metadata };
}
