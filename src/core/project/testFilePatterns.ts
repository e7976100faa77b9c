/**
 * Test file patterns: the globs a project's test runner collects (`**\/*.test.ts`, `tests/**`, `test_*.py`), matched
 * against workspace-relative paths with forward slashes. A pattern without a `/` is matched against the file name
 * anywhere in the tree (as pytest's `python_files` and a `.gitignore` line are); one with a `/` against the whole path.
 */

/** Characters that mean themselves in a glob but something else in a regular expression. */
const REGEX_SPECIAL = /[.+^$()|\\]/;

/** The end of a bracket expression starting at `start` (`[`), or -1 when it is not closed. */
function bracketEnd(glob: string, start: number): number {
  let i = start + 1;
  if (glob[i] === '!' || glob[i] === '^') i++;
  if (glob[i] === ']') i++;
  for (; i < glob.length; i++) if (glob[i] === ']') return i;
  return -1;
}

/** The index of the `)` closing the group opened at `open`, or -1. */
function groupEnd(glob: string, open: number): number {
  let depth = 0;
  for (let i = open; i < glob.length; i++) {
    if (glob[i] === '(') depth++;
    else if (glob[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

/** Splits `a,b{c,d}` at the top-level commas of a brace or the bars of an extglob group. */
function splitTop(body: string, separator: ',' | '|'): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of body) {
    if (ch === '{' || ch === '(' || ch === '[') depth++;
    else if (ch === '}' || ch === ')' || ch === ']') depth--;
    if (ch === separator && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts;
}

/** The regular expression source of a glob (no anchors). */
function globSource(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    const next = glob[i + 1];
    if (ch === '*' && next === '*') {
      // `**/` is zero or more folders; a trailing `/**` everything below; `**` elsewhere anything.
      if (glob[i + 2] === '/') {
        out += '(?:[^/]*/)*';
        i += 2;
      } else {
        out += '.*';
        i += 1;
      }
    } else if ('?*+@!'.includes(ch) && next === '(') {
      const close = groupEnd(glob, i + 1);
      if (close < 0) {
        out += ch === '?' ? '[^/]' : ch === '*' ? '[^/]*' : `\\${ch}`;
        continue;
      }
      const alternatives = splitTop(glob.slice(i + 2, close), '|')
        .map(globSource)
        .join('|');
      const suffix = { '?': '?', '*': '*', '+': '+', '@': '', '!': '' }[ch as '?' | '*' | '+' | '@' | '!'];
      out += ch === '!' ? `(?:(?!(?:${alternatives})(?:/|$))[^/]*)` : `(?:${alternatives})${suffix}`;
      i = close;
    } else if (ch === '*') {
      out += '[^/]*';
    } else if (ch === '?') {
      out += '[^/]';
    } else if (ch === '[') {
      const close = bracketEnd(glob, i);
      if (close < 0) {
        out += '\\[';
        continue;
      }
      let body = glob.slice(i + 1, close).replace(/\\/g, '\\\\');
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      out += `[${body}]`;
      i = close;
    } else if (ch === '{') {
      const close = (() => {
        let depth = 0;
        for (let j = i; j < glob.length; j++) {
          if (glob[j] === '{') depth++;
          else if (glob[j] === '}' && --depth === 0) return j;
        }
        return -1;
      })();
      const body = close < 0 ? '' : glob.slice(i + 1, close);
      if (close < 0 || !body.includes(',')) {
        out += '\\{';
        continue;
      }
      out += `(?:${splitTop(body, ',').map(globSource).join('|')})`;
      i = close;
    } else if (REGEX_SPECIAL.test(ch) || ch === '}' || ch === ']') {
      out += `\\${ch}`;
    } else {
      out += ch;
    }
  }
  return out;
}

/** `./src/` → `src`, `a\b` → `a/b`: the form patterns and paths are compared in. */
export function normalizeProjectPath(path: string): string {
  return path
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/{2,}/g, '/');
}

const compiled = new Map<string, RegExp>();

/** The compiled form of one pattern (cached): see {@link matchesTestPattern}. */
function patternRegExp(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (!re) {
    const glob = normalizeProjectPath(pattern.trim()).replace(/^<rootDir>\//, '');
    const anywhere = !glob.replace(/\/+$/, '').includes('/');
    // `tests/` means everything in it, as `tests/**` does.
    const body = globSource(glob.endsWith('/') ? `${glob}**` : glob);
    re = new RegExp(anywhere ? `(?:^|/)${body}$` : `^${body}$`);
    if (compiled.size > 500) compiled.clear();
    compiled.set(pattern, re);
  }
  return re;
}

/**
 * True when the workspace-relative `path` matches one of `patterns` (globs with `*`, `**`, `?`, `[…]`, `{a,b}` and
 * the extglobs `?(…)`, `*(…)`, `+(…)`, `@(…)`, `!(…)` that vitest's and jest's defaults use). Patterns starting with
 * `!` exclude what they match.
 */
export function matchesTestPattern(path: string, patterns: readonly string[]): boolean {
  const p = normalizeProjectPath(path).replace(/\/+$/, '');
  let matched = false;
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!');
    const glob = negated ? pattern.slice(1) : pattern;
    if (!glob.trim()) continue;
    if (patternRegExp(glob).test(p)) {
      if (negated) return false;
      matched = true;
    }
  }
  return matched;
}

/**
 * The folder every pattern starts with (`src/**\/*.test.ts` → `src`), or undefined when they start in different
 * places or anywhere: where new tests go when the runner's configuration says where it collects them.
 */
export function commonPatternFolder(patterns: readonly string[]): string | undefined {
  const folders = patterns
    .filter((p) => !p.startsWith('!'))
    .map((p) => {
      const parts = normalizeProjectPath(p).split('/');
      const literal: string[] = [];
      for (const part of parts.slice(0, -1)) {
        if (/[*?[{(!@+]/.test(part)) break;
        literal.push(part);
      }
      return literal.join('/');
    });
  if (folders.length === 0 || folders.some((f) => f === '' || f !== folders[0])) return undefined;
  return folders[0];
}

/**
 * What tests look like when a project says nothing else, per language (the runners' own defaults; a `test.js` is one
 * for node --test and ava: sindresorhus' packages keep all their tests in a root `test.js`).
 */
export const DEFAULT_TEST_PATTERNS = {
  javascript: [
    '**/*.{test,spec}.?(c|m)js?(x)',
    '**/*{-,_}test.?(c|m)js',
    '**/test-*.?(c|m)js',
    '**/test.?(c|m)js',
    '**/__tests__/**',
  ],
  typescript: ['**/*.{test,spec}.?(c|m)[jt]s?(x)', '**/test.?(c|m)[jt]s', '**/__tests__/**'],
  python: ['test_*.py', '*_test.py'],
  go: ['**/*_test.go'],
  rust: ['tests/**/*.rs'],
  java: ['**/src/test/**'],
  php: ['**/*Test.php'],
  ruby: ['**/*_spec.rb', '**/*_test.rb', '**/test_*.rb'],
} as const satisfies Record<string, readonly string[]>;
