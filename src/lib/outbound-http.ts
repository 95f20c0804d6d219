// The safe outbound HTTP client for back-office notifications (docs/security.md): where the
// gateway may connect (src/lib/outbound/destination.ts) and one bounded POST (src/lib/outbound/post.ts).

export { checkDestinationUrl, MAX_URL_LENGTH, parseAllowEntry, type DestinationRefusal, type OutboundPolicy, type ResolvedAddress } from './outbound/destination.js';
export {
  DEFAULT_MAX_RESPONSE_BYTES,
  MAX_REQUEST_BODY_BYTES,
  MAX_REQUEST_HEADER_BYTES,
  MAX_RESPONSE_HEADER_BYTES,
  MAX_RESPONSE_READ_BYTES,
  postOnce,
  type PostInput,
  type PostResult,
} from './outbound/post.js';
