import type { Language } from '../../vocabulary';

/** Where code and tests go when the kata does not say; one place, so kata files stay language-neutral. */
export interface LanguageDefaults {
  sourceDir: string;
  testDir: string;
}

/**
 * Per-language defaults: `src/` + `test/` for JavaScript and TypeScript, `src/` + `tests/` for Python (pytest's habit),
 * the module's root for Go (its `_test.go` files sit beside the code, in the same package).
 */
export const LANGUAGE_DEFAULTS: Record<Language, LanguageDefaults> = {
  javascript: { sourceDir: 'src', testDir: 'test' },
  typescript: { sourceDir: 'src', testDir: 'test' },
  python: { sourceDir: 'src', testDir: 'tests' },
  go: { sourceDir: '.', testDir: '.' },
  rust: { sourceDir: 'src', testDir: 'tests' },
  java: { sourceDir: 'src/main/java', testDir: 'src/test/java' },
  php: { sourceDir: 'src', testDir: 'tests' },
  ruby: { sourceDir: 'lib', testDir: 'spec' },
};

/** The language used when neither the kata nor the caller names one. */
export const DEFAULT_KATA_LANGUAGE: Language = 'javascript';
