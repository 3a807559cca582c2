// Lint: ESLint's recommended rules and typescript-eslint's type-aware recommended set on every
// TypeScript file of the project (types from tsconfig.json through the project service).
// Formatting is Prettier's (npm run format, .prettierrc), so the one stylistic rule here is the
// line length Prettier cannot keep alone: it never splits a string, a comment or a template.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['dist/', 'coverage/']),
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Prettier's printWidth, kept where Prettier cannot wrap (long strings, comments, templates):
      // split them. URLs and regular expressions may run over, since splitting them hides them.
      // ESLint's core rule (frozen since 8.53, in core until 11); @stylistic/eslint-plugin's max-len
      // takes the same options when core drops it.
      'max-len': ['error', { code: 140, tabWidth: 2, ignoreUrls: true, ignoreRegExpLiterals: true }],
      // `async` marks every implementation of a Promise-returning contract (StateStore, adapters,
      // payment handlers, Fastify handlers, repository callbacks), with or without an await: it
      // keeps their throws rejections. The rules that catch real promise mistakes stay on
      // (no-floating-promises, no-misused-promises, await-thenable).
      '@typescript-eslint/require-await': 'off',
      // The code drops members by destructuring them into `_`-named bindings (`{ handle: _old, ...rest }`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    // Files a reader can hold: a function over 100 lines is broken into named steps, a file over 500
    // into modules (blank and comment lines not counted).
    files: ['src/**/*.ts', 'adapters/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 100, skipBlankLines: true, skipComments: true }],
      'max-lines': ['error', { max: 500, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Plain JavaScript (this file, docker's health check) runs on Node and has no type information.
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // The Medusa store (examples/medusa-store) is a Medusa project: CommonJS files that Medusa
    // loads with require (its config, seed script and payment provider module).
    files: ['examples/medusa-store/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', exports: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The example host page runs in the browser.
    files: ['examples/*/public/**/*.js'],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'location',
          'URL',
          'URLSearchParams',
          'fetch',
          'FormData',
          'MessageChannel',
          'HTMLInputElement',
          'HTMLSelectElement',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
  {
    // Tests and benchmarks drive the gateway with hand-built, deliberately loose payloads and read
    // its JSON answers without declaring their shape: the `any` rules would flag nearly every
    // `response.json()` (about 2,000 findings). The code they exercise keeps these rules.
    files: ['test/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
