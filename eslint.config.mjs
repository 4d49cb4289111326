// ESLint 9 flat config with typescript-eslint 8: the recommended rules everywhere, and `any`
// refused outright in the pure domain code (src/<context>/domain), only warned about elsewhere.
import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

const readonly = (names) => Object.fromEntries(names.map((name) => [name, 'readonly']));
const common = [
  'console',
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'queueMicrotask',
  'structuredClone',
  'URL',
  'URLSearchParams',
  'fetch',
  'AbortController',
  'TextEncoder',
  'TextDecoder',
];
const nodeGlobals = readonly([
  ...common,
  'process',
  'Buffer',
  'setImmediate',
  'clearImmediate',
  'global',
  'globalThis',
]);
const commonJsGlobals = readonly(['require', 'module', 'exports', '__dirname', '__filename']);
const browserGlobals = readonly([
  ...common,
  'window',
  'document',
  'navigator',
  'location',
  'history',
  'FormData',
  'Event',
  'HTMLElement',
]);

export default defineConfig(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/results.json'] },
  eslint.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'warn',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['src/*/domain/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    ignores: ['src/console/assets/**'],
    languageOptions: { sourceType: 'commonjs', globals: { ...nodeGlobals, ...commonJsGlobals } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { sourceType: 'module', globals: nodeGlobals },
  },
  {
    files: ['src/console/assets/**/*.js'],
    languageOptions: { sourceType: 'script', globals: browserGlobals },
  },
);
