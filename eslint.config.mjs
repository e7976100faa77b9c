// ESLint for the whole repository: typescript-eslint with type information (each file is checked against the
// tsconfig that owns it: ./tsconfig.json, or webview/tsconfig.json for the panel). `npm run lint` runs it with
// --max-warnings 0, then the import-cycle check (`npm run lint:cycles`, dpdm: a cycle between any two files fails;
// the core's folders also have their table in test/unit/coreBoundary.test.ts), then `prettier --check .`.
// Both keep a cache in node_modules/.cache (by file content), so a second `npm run lint` takes a few seconds
// instead of about a minute. ESLint's cache does not notice a type that changed in another file; CI starts without
// a cache, so it always checks everything (delete node_modules/.cache/eslint to do the same locally).
// (dpdm rather than eslint-plugin-import-x: the latter needs unrs-resolver, whose per-platform binaries the npm
// registry mirror here does not all serve, so `npm ci` cannot install its lock file.)
//
// The rule set is `recommendedTypeChecked` minus the rules below, each off for a stated reason (a considered
// subset; see CONTRIBUTING.md):
// - no-unsafe-* (member-access, argument, assignment, call, return) and no-explicit-any: ~500 findings, almost
//   all at JSON boundaries (model replies, MCP results, cassettes) that are validated with zod or checked by
//   hand; turning them on means typing those boundaries one by one (a follow-up, not a blanket cast).
// - no-unnecessary-type-assertion: ~330 findings, all auto-fixable; left for one `eslint --fix` run together
//   with the repository-wide `prettier --write`, so parallel branches do not conflict on every file.
// - require-await: an `async` function without `await` is the house style for "always returns a promise,
//   a throw becomes a rejection".
// - no-base-to-string: `String(value)` of unknown values is deliberate in messages and logs.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { countedLines, LONGEST, PRODUCT_CODE } from './scripts/functionLengths.mjs';

const nodeGlobals = {
  process: 'readonly',
  console: 'readonly',
  require: 'readonly',
  exports: 'writable',
  module: 'writable',
  global: 'readonly',
  __dirname: 'readonly',
};
const mochaGlobals = {
  describe: 'readonly',
  it: 'readonly',
  before: 'readonly',
  after: 'readonly',
  beforeEach: 'readonly',
  afterEach: 'readonly',
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'coverage/**',
      'docs/api/**',
      'test-results/**',
      'node_modules/**',
      'test/e2e/.cache/**',
      '.vscode-test/**',
      '**/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true, // scripts/ is in tsconfig.json (the tests import the eval kata generator)
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      // `_name` marks a parameter or a destructured key that is deliberately unused.
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
    // The front ends use the library as any program does: through its entry points (tdd-agent/core is src/core/index.ts,
    // tdd-agent/tdd src/core/tddApi.ts, tdd-agent/testing src/core/testingApi.ts) and the panel protocol in src/shared,
    // never a module of src/core by path (test/unit/frontEndImports.test.ts shows the rule failing one).
    files: ['src/cli/**/*.ts', 'src/vscode/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)core/(?!(index|tddApi|testingApi)$)',
              message:
                "Import tdd-agent/core ('…/core'), tdd-agent/tdd ('…/core/tddApi') or tdd-agent/testing ('…/core/testingApi'), not a module of src/core: export what a front end needs from an entry point, with a doc comment (docs/api-core.md).",
            },
          ],
        },
      ],
    },
  },
  {
    // No function of the product's code over LONGEST lines (blank lines and comments not counted); at most 10 over 80
    // is the lint step's `npm run lint:functions` (scripts/functionLengths.mjs, which holds both limits).
    files: PRODUCT_CODE,
    rules: { 'max-lines-per-function': ['error', { max: LONGEST, ...countedLines }] },
  },
  {
    // The browser tier's fake VS Code API runs in the page.
    files: ['test/browser/*.js'],
    languageOptions: {
      globals: {
        window: 'readonly',
        document: 'readonly',
        sessionStorage: 'readonly',
        location: 'readonly',
        URLSearchParams: 'readonly',
      },
    },
  },
  {
    // Plain JavaScript (build config, the VS Code test runner, browser fakes): no type information.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { ...nodeGlobals, ...mochaGlobals } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
