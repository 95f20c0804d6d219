// Masking of identifiers (account, CCI, document and UPI/CPF numbers): what the gateway shows of them
// to every reader, and what it keeps of them once their full value has been erased.

/**
 * `****1234`: the last four characters behind a fixed-width mask, so the length is not told either.
 * Counted in code points, never UTF-16 units: cutting a surrogate pair in half would leave text
 * that PostgreSQL refuses to store.
 */
export function maskIdentifier(value: string): string {
  const characters = Array.from(value);
  return `****${characters.length > 4 ? characters.slice(-4).join('') : ''}`;
}
