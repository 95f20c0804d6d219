// ESLint (flat config) with typescript-eslint's type-aware rules. `npm run lint` runs it with
// --max-warnings 0: any finding fails the run, an unused eslint-disable comment included.
//
// - TypeScript: ESLint's and typescript-eslint's recommended rules, type-checked
//   (recommendedTypeChecked: no-floating-promises, no-misused-promises, await-thenable, the
//   no-unsafe-* family...). Types come from tsconfig.json, which covers every TypeScript file
//   linted here, through the project service.
// - JavaScript (the build script that runs before anything is compiled, the example cashier's
//   page): ESLint's recommended rules with the globals of where each runs.
//
// Every rule switched off or adjusted below says why it does not fit this code; so does every
// eslint-disable comment in the sources.

import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    ignores: [
      'dist/',
      'coverage/',
      '.data/',
      'test-results/',
      // Written by GraphQL Code Generator (`npm run codegen`); CI checks they are current.
      'test/__generated__/',
      'client/generated/',
      // Printed from client/generated (test/examples/cashier-operations.test.ts keeps it current).
      'examples/cashier/operations.js',
    ],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  {
    files: ['**/*.ts', '**/*.mts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A leading underscore names what is there only to be left out: a property destructured
      // away from the rest (`const { secret: _secret, ...shown } = row`), or a parameter an
      // interface passes that this implementation does not read.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // Off: an `async` function without `await` here implements an interface that takes a
      // Promise (Apollo Server's plugin hooks, job handlers, async iterators, unsubscribe
      // functions). `async` is what turns a throw into a rejection the caller handles; dropping
      // it to satisfy this rule would make such throws synchronous. Promises that are not awaited
      // are caught by no-floating-promises and no-misused-promises, which stay on.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    rules: {
      // A `let` that closures read before its one assignment (a server's handler reading the
      // service set once the server listens) stays a `let`: as a `const` declared at that
      // assignment, an early read would throw (temporal dead zone) instead of seeing undefined.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // The tests read what the gateway, the sandboxes and the providers send (JSON bodies, GraphQL
    // responses, webhook payloads) as untyped data on purpose: the test's assertions are what
    // check its shape, and Vitest's asymmetric matchers (expect.any, expect.stringMatching...)
    // are typed `any` by design so they fit any expected value. The no-unsafe-* rules and
    // no-explicit-any would flag every such read without catching a bug in the gateway; they
    // stay on for the gateway's own code (src/, bench/), spec files excepted.
    files: ['test/**/*.ts', 'src/**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['examples/cashier/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
);
