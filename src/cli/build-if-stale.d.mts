// Types of build-if-stale.mjs, which stays plain JavaScript because it runs before anything is compiled.

/** Where the last successful build leaves its stamp, relative to the project root. */
export const STAMP: string;

/** True when `root` has no successful build yet, or a source or setting changed after it. */
export function buildIsStale(root: string): boolean;

/**
 * Builds `root` if stale (or always, with `all`, type-checking the tests too); returns tsc's exit
 * code (0 when nothing had to be done). `quiet` logs nothing when the build is up to date.
 */
export function buildIfStale(root: string, log?: (line: string) => void, options?: { all?: boolean; quiet?: boolean }): number;

/** The line refusing a Node.js (`found`, default this one) older than `root`'s package.json `engines.node`, or undefined. */
export function nodeVersionProblem(root: string, found?: string): string | undefined;
