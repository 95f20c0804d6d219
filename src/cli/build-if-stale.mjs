// `npm start`'s first step, and every script's that runs compiled code: compiles with tsc only when a
// source changed since the last build, so a second start goes straight to the gateway. Plain
// JavaScript with no dependencies: it runs before anything is compiled.
//
// `--all` compiles every TypeScript file of the project, tests included (tsconfig.json), whether
// stale or not: CI's one compile, which type-checks everything and leaves the dist/ that every
// later step runs.
//
// `--quiet` says nothing when the build is up to date: `npm run client` runs it before every
// command, whose output is what the user asked for.
//
// `--no-check` emits without type-checking (tsc's `--noCheck`): the same JavaScript, decorator
// metadata included, in about a third of the CPU time. For the tests that run the compiled gateway
// in a process of its own: they need its code, not a second verdict on its types, which CI's
// `--all` compile and `npm run typecheck` give.
//
// A build is stale when any file or directory under the compiled folders, or a file tsc reads its
// settings or types from, is newer than the stamp the last successful build left in dist/. A
// directory's time changes when an entry is added, removed or renamed, so deleting a source counts.

import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const COMPILED = ['src', 'bench'];
const SETTINGS = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];
export const STAMP = path.join('dist', '.build-stamp');

/**
 * The line refusing a Node.js older than package.json's `engines.node` (`>=x.y.z`), or undefined.
 * The same words as src/lib/node-version.ts, which the compiled entry points check: this runs
 * first under npm start, before tsc or the gateway would run on a Node.js they do not support.
 */
export function nodeVersionProblem(root, found = process.versions.node) {
  const { engines } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const required = /^>=\s*v?(\d+\.\d+\.\d+)$/.exec(engines?.node?.trim() ?? '')?.[1];
  if (!required) return undefined;
  const parts = (version) => version.replace(/^v/, '').split(/[.-]/).slice(0, 3).map((part) => Number.parseInt(part, 10) || 0);
  const [have, need] = [parts(found), parts(required)];
  const older = have[0] !== need[0] ? have[0] < need[0] : have[1] !== need[1] ? have[1] < need[1] : have[2] < need[2];
  if (!older) return undefined;
  return `Node.js ${found.replace(/^v/, '')} is too old: the gateway needs Node.js ${required} or newer (package.json engines.node). Install Node.js 22 (e.g. nvm install 22) and start again.`;
}

/** Newest modification time (ms) of `target` and, for a directory, everything below it. */
function newest(target) {
  let stat;
  try {
    stat = statSync(target);
  } catch {
    return 0;
  }
  let time = stat.mtimeMs;
  if (stat.isDirectory()) {
    for (const entry of readdirSync(target)) time = Math.max(time, newest(path.join(target, entry)));
  }
  return time;
}

/** True when `root` has no successful build yet, or a source or setting changed after it. */
export function buildIsStale(root) {
  let built;
  try {
    built = statSync(path.join(root, STAMP)).mtimeMs;
  } catch {
    return true;
  }
  const sources = Math.max(...[...COMPILED, ...SETTINGS].map((name) => newest(path.join(root, name))));
  return sources > built;
}

/**
 * Builds `root` if stale (or always, with `all`, type-checking the tests too); returns tsc's exit
 * code (0 when nothing had to be done).
 */
export function buildIfStale(root, log = (line) => process.stderr.write(`${line}\n`), { all = false, quiet = false, check = true } = {}) {
  if (!all && !buildIsStale(root)) {
    if (!quiet) log('Build is up to date.');
    return 0;
  }
  log(all ? 'Compiling every source, tests included (tsc)…' : 'Sources changed since the last build; compiling (tsc)…');
  const started = Date.now();
  const project = all ? 'tsconfig.json' : 'tsconfig.build.json';
  const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project, ...(check ? [] : ['--noCheck'])], { cwd: root, stdio: 'inherit' });
  if (tsc.status !== 0) return tsc.status ?? 1;
  // Stamped after the build, with the build's start time: a source saved while tsc ran is newer
  // than the stamp and is compiled on the next start.
  mkdirSync(path.join(root, 'dist'), { recursive: true });
  const stamp = path.join(root, STAMP);
  writeFileSync(stamp, `${new Date(started).toISOString()}\n`);
  utimesSync(stamp, new Date(started), new Date(started));
  log(`Compiled in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const problem = nodeVersionProblem(root);
  if (problem) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
  process.exitCode = buildIfStale(root, undefined, {
    all: process.argv.includes('--all'),
    quiet: process.argv.includes('--quiet'),
    check: !process.argv.includes('--no-check'),
  });
}
