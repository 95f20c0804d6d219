// The example cashier page (examples/cashier/) sends the typed documents of client/generated, printed
// into examples/cashier/operations.js. This keeps that file equal to what client/generated prints:
// after `npm run codegen` changes them, regenerate it with
//   npx vitest run test/examples/cashier-operations.test.ts -u
// (in CI, where snapshots are never written, a stale file fails here).

import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { buildSchema, parse, print, validate } from 'graphql';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CardSessionDocument, CashierContextDocument, ClaimDepositCreditDocument, CreateDepositDocument, CreateQrCodeDocument, DepositDocument, DepositUpdatedDocument } from '../../client/generated/graphql.js';

/** What the page imports, by the operation's name. */
const OPERATIONS: Record<string, TypedDocumentNode<unknown, never>> = {
  CardSession: CardSessionDocument,
  CashierContext: CashierContextDocument,
  ClaimDepositCredit: ClaimDepositCreditDocument,
  CreateDeposit: CreateDepositDocument,
  CreateQrCode: CreateQrCodeDocument,
  Deposit: DepositDocument,
  DepositUpdated: DepositUpdatedDocument,
};

function operationsModule(): string {
  const exports = Object.entries(OPERATIONS).map(([name, document]) => {
    const text = print(document);
    // Written as template literals, for a served file one can read.
    if (/[`\\]|\$\{/.test(text)) throw new Error(`${name} cannot be written as a template literal`);
    return `export const ${name} = \`${text}\`;\n`;
  });
  return [
    '// Generated from client/generated (npm run codegen) by test/examples/cashier-operations.test.ts:',
    '// the example cashier\'s typed operations, printed. Do not edit; regenerate with',
    '//   npx vitest run test/examples/cashier-operations.test.ts -u',
    '',
    exports.join('\n'),
  ].join('\n');
}

describe('the example cashier\'s operations', () => {
  it('are the generated documents, printed', async () => {
    await expect(operationsModule()).toMatchFileSnapshot('../../examples/cashier/operations.js');
  });

  it('are valid against the schema', async () => {
    const schema = buildSchema(await readFile(new URL('../../schema/schema.graphql', import.meta.url), 'utf8'));
    const served = await readFile(new URL('../../examples/cashier/operations.js', import.meta.url), 'utf8');
    const texts = [...served.matchAll(/^export const (\w+) = `([^`]*)`;$/gm)];
    expect(texts.map((match) => match[1])).toEqual(Object.keys(OPERATIONS));
    for (const [, , text] of texts) expect(validate(schema, parse(text!))).toEqual([]);
  });
});
