// Writes schema/schema.graphql from the code, or with --check fails when the committed file is stale.

import 'reflect-metadata';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildGatewaySchema, printGatewaySchema } from '../graphql/schema/schema.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const target = path.join(root, 'schema', 'schema.graphql');

const sdl = printGatewaySchema(await buildGatewaySchema());
if (process.argv.includes('--check')) {
  const committed = await readFile(target, 'utf8').catch(() => '');
  if (committed !== sdl) {
    console.error('schema/schema.graphql is stale: run `npm run schema:emit` and commit the result.');
    process.exit(1);
  }
  console.log('schema/schema.graphql matches the code.');
} else {
  await writeFile(target, sdl);
  console.log(`wrote ${path.relative(root, target)}`);
}
