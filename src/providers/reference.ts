// What a provider contributes to the API reference (docs/reference/, `npm run docs:reference`):
// one page per rail it serves, with the rules worth listing (read from its adapter's rule tables,
// never copied) and example inputs. src/docs/ assembles the pages of every registered provider.

import type { Rail } from './provider.js';

/**
 * Stands for a date-time an hour ahead in an example: Ecuador needs a near-future expiry, which no
 * fixed example can hold. The page says so; the example test puts a real time in its place.
 */
export const IN_ONE_HOUR = 'IN_ONE_HOUR';

export interface RailExample {
  /** Heading of the example's section; also, in PascalCase, the operation's name. */
  title: string;
  /** The mutation's `input` variable, exactly as a client sends it. */
  input: Record<string, unknown>;
  /** Said under the example: what to change before sending it. */
  note?: string;
}

export interface RailPage {
  rail: Rail;
  /** File name under docs/reference/, without .md. */
  slug: string;
  title: string;
  mutation: 'createDeposit' | 'createQrCode';
  intro: string;
  /** Rules as label and value, each read from the adapter's tables. */
  rules: Array<[string, string]>;
  examples: RailExample[];
}

/** A provider's part of the reference. */
export interface ProviderReference {
  pages: readonly RailPage[];
  /** The code of a live merchant account that examples name (validated as a live account). */
  liveAccountExample?: string;
}
