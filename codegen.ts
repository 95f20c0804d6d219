// GraphQL Code Generator: typed documents (TypedDocumentNode) checked against the committed
// schema/schema.graphql, for two audiences. Run `npm run codegen` after changing either; CI fails
// when what is committed differs from what this generates.
//
// - client/generated/: the operations of client/operations/*.graphql, for the cashiers and
//   back-office services to import (README: Typed client operations).
// - test/__generated__/: the operations the tests send.

import type { CodegenConfig } from '@graphql-codegen/cli';

const typedDocuments = {
  preset: 'client',
  presetConfig: { fragmentMasking: false },
  config: {
    useTypeImports: true,
    enumsAsTypes: true,
    scalars: { Decimal: 'string', DateTime: 'string', Currency: 'string' },
    strictScalars: true,
  },
} as const;

const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  generates: {
    // Each client document also carries its SHA-256 hash (`__meta__.hash`), and
    // client/generated/persisted-documents.json maps every hash to its text: the gateway's
    // manifest of trusted documents (README: Trusted documents).
    'client/generated/': {
      ...typedDocuments,
      presetConfig: { ...typedDocuments.presetConfig, persistedDocuments: { hashAlgorithm: 'sha256' } },
      documents: ['client/operations/**/*.graphql'],
    },
    'test/__generated__/': { ...typedDocuments, documents: ['test/**/*.ts', '!test/__generated__/**'] },
  },
  ignoreNoDocuments: false,
  // ESM with NodeNext resolution: generated relative imports need their .js extension.
  emitLegacyCommonJSImports: false,
};

export default config;
