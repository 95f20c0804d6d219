// The Node.js the gateway needs. package.json's `engines.node` says it, but npm only warns about it
// at install; every entry point checks it first thing instead, before code that an older Node
// would run wrongly or crash in (src/cli/require-node.ts; build-if-stale.mjs for the build).

/** The oldest Node.js the gateway runs on: package.json's `engines.node` (`>=` this), which a test keeps equal. */
export const REQUIRED_NODE_VERSION = '22.17.0';

/** Negative, zero or positive as version `a` (`major.minor.patch`, an optional leading `v`) is older than, equal to or newer than `b`. */
export function compareVersions(a: string, b: string): number {
  const parts = (version: string) => version.replace(/^v/, '').split(/[.-]/).slice(0, 3).map((part) => Number.parseInt(part, 10) || 0);
  const [left, right] = [parts(a), parts(b)];
  for (let index = 0; index < 3; index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/**
 * The one line that refuses a Node.js older than `required`, or undefined when `found` is recent enough.
 *
 * @example
 * nodeVersionProblem('20.20.2') // 'Node.js 20.20.2 is too old: the gateway needs Node.js 22.17.0 or newer …'
 */
export function nodeVersionProblem(found: string, required = REQUIRED_NODE_VERSION): string | undefined {
  if (compareVersions(found, required) >= 0) return undefined;
  return `Node.js ${found.replace(/^v/, '')} is too old: the gateway needs Node.js ${required} or newer (package.json engines.node). Install Node.js 22 (e.g. nvm install 22) and start again.`;
}
