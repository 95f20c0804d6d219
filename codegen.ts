// GraphQL Code Generator: typed documents (TypedDocumentNode) for the operations the tests send,
// checked against the committed schema/schema.graphql. Run `npm run codegen` after changing either.

import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  documents: ['test/**/*.ts', '!test/__generated__/**'],
  generates: {
    'test/__generated__/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { Decimal: 'string', DateTime: 'string', Currency: 'string' },
        strictScalars: true,
      },
    },
  },
  ignoreNoDocuments: false,
  // ESM with NodeNext resolution: generated relative imports need their .js extension.
  emitLegacyCommonJSImports: false,
};

export default config;
