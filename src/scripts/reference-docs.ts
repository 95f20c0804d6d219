// Writes docs/reference/*.md and docs/sandbox.md from the code, or with --check fails when a committed page is stale.

import 'reflect-metadata';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { referencePages } from '../docs/reference.js';
import { sandboxPage } from '../docs/sandbox.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
// The reference pages and the sandbox cheat sheet, by path from the repository root.
const pages = new Map([...referencePages(await readFile(path.join(root, 'schema', 'schema.graphql'), 'utf8')), ['docs/sandbox.md', sandboxPage()]]);

if (process.argv.includes('--check')) {
  const stale: string[] = [];
  for (const [file, content] of pages) {
    if ((await readFile(path.join(root, file), 'utf8').catch(() => '')) !== content) stale.push(file);
  }
  const committed = await readdir(path.join(root, 'docs', 'reference')).catch(() => [] as string[]);
  for (const name of committed) if (!pages.has(`docs/reference/${name}`)) stale.push(`docs/reference/${name} (no longer generated)`);
  if (stale.length) {
    console.error(`Stale reference pages: ${stale.join(', ')}. Run \`npm run docs:reference\` and commit the result.`);
    process.exit(1);
  }
  console.log(`docs/reference and docs/sandbox.md: ${pages.size} pages match the code.`);
} else {
  await mkdir(path.join(root, 'docs', 'reference'), { recursive: true });
  for (const [file, content] of pages) await writeFile(path.join(root, file), content);
  console.log(`wrote ${pages.size} pages to docs/reference/ and docs/sandbox.md`);
}
