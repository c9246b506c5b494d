// ESLint for the whole tree: @eslint/js's recommended rules, and a chosen few of typescript-eslint's
// type-aware rules that catch real bugs (a promise nobody awaits, a promise where a callback's result is
// ignored, an await of a value that is not a promise). The full type-checked preset is not adopted:
// most of its rules are about style, and Prettier owns the formatting (eslint-config-prettier, last).
// no-unnecessary-type-assertion is left out too: with noUncheckedIndexedAccess off it calls each of the
// ~800 `list[i]!` unnecessary, and those marks are kept for the day that check is turned on.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const TS_FILES = ['**/*.ts', '**/*.tsx', '**/*.mts'];

export default defineConfig(
  globalIgnores([
    '**/dist/',
    '**/node_modules/',
    // the TUI's end-to-end tests and the benchmarks write their throw-away projects here
    'tmp/',
    '.opencode/',
  ]),
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
  },
  js.configs.recommended,
  {
    files: TS_FILES,
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: {
        // each file is checked with the tsconfig.json nearest to it: the root one for src/, test/,
        // bench/ and scripts/, extensions/vscode/tsconfig.json for the extension
        // vitest.config.ts and the example plugin are outside every tsconfig.json: a default project
        projectService: { allowDefaultProject: ['vitest.config.ts', 'examples/custom-tools/.opencode/plugins/*.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // TypeScript itself reports these, with the types in view; the JavaScript rules misread TypeScript
      'no-undef': 'off',
      'no-redeclare': 'off',
      'no-dupe-class-members': 'off',
      'no-unused-vars': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          args: 'after-used',
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrors: 'none',
          ignoreRestSiblings: true,
        },
      ],
      // a promise whose rejection nobody handles ends the process (Node's default for unhandled rejections)
      '@typescript-eslint/no-floating-promises': 'error',
      // an async function handed to a place that ignores its promise loses its errors
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      // the one `any` left in a file says why beside it (a disable comment with its reason)
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    rules: {
      // the terminal code matches escape sequences and control characters on purpose
      'no-control-regex': 'off',
      // `== null` is the one loose comparison worth keeping: it means "null or undefined"
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    files: ['src/tui/**/*.tsx', 'src/tui/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['test/**'],
    rules: {
      // a test's pattern copies the screen's columns as they are printed
      'no-regex-spaces': 'off',
    },
  },
  prettier,
);
