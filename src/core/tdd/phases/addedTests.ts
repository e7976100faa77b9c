/**
 * What a Tester's turn did to the tests of a file, read from its source before and after (no runner involved): which
 * tests are new or changed, each with its body, and what the file imports. The supervisor reads it when a run cannot
 * say which test is new: a test file that no longer loads reports none of its tests, and a runner that gives counts
 * only names none.
 */

import { GO_TEST_FUNC } from '../../testRunners/reports/goTestReport';
import { javaTestMethods, RUBY_TEST } from '../../testRunners/testTitles';

/** A test declared in a file's source: its title, and its text from its declaration to its end. */
export interface SourceTest {
  file: string;
  title: string;
  body: string;
}

/** `it('…')` / `test('…')` (and `.only` / `.skip` / `.each` / `.concurrent` variants), as `testTitlesIn` reads them. */
const JS_TEST = /\b(?:it|test)(?:\.(?:only|skip|todo|concurrent|each\([^)]*\)))?\s*\(\s*(['"`])((?:\\.|(?!\1)[^\\\n])*)\1/g;
const PY_TEST = /^([ \t]*)(?:async[ \t]+)?def[ \t]+(test_\w+)/gm;

/** The tests a file's source declares, in order, each with its body. */
export function testsInSource(file: string, source: string): SourceTest[] {
  if (file.endsWith('.go')) return goTests(file, source);
  if (file.endsWith('.rs')) return rustTests(file, source);
  if (file.endsWith('.php')) return phpTests(file, source);
  if (file.endsWith('.java')) return javaTests(file, source);
  if (file.endsWith('.rb')) return rubyTests(file, source);
  return file.endsWith('.py') ? pythonTests(file, source) : jsTests(file, source);
}

/** Go: each top-level test, fuzz test or example (`func TestXxx(…) {…}`), from `func` to its closing brace. */
function goTests(file: string, source: string): SourceTest[] {
  const found: SourceTest[] = [];
  for (const m of source.matchAll(GO_TEST_FUNC)) {
    const params = closingParen(source, source.indexOf('(', m.index));
    const open = source.indexOf('{', params);
    const end = open < 0 ? source.length : closingParen(source, open);
    found.push({ file, title: m[1]!, body: source.slice(m.index, end) });
  }
  return found;
}

/** JUnit: each annotated test method (`@Test void fizzForThree() {…}`), from its annotation to its closing brace. */
function javaTests(file: string, source: string): SourceTest[] {
  return javaTestMethods(source).map(({ name, index }) => {
    const params = closingParen(source, source.indexOf('(', source.indexOf(name, index)));
    const open = source.indexOf('{', params);
    const end = open < 0 ? source.length : closingParen(source, open);
    return { file, title: name, body: source.slice(index, end) };
  });
}

function rubyTests(file: string, source: string): SourceTest[] {
  const found: SourceTest[] = [];
  for (const m of source.matchAll(RUBY_TEST)) {
    const indent = m[1]!.length;
    const lines = source.slice(m.index).split('\n');
    let end = 1;
    const oneLine = /\bend\s*$|\}\s*$/.test(lines[0]!) && !/\bdo\b[^'"]*$/.test(lines[0]!.replace(/\bend\s*$/, ''));
    if (!oneLine) {
      while (end < lines.length) {
        const line = lines[end]!;
        const at = line.length - line.trimStart().length;
        end++;
        if (line.trim() !== '' && at <= indent) break;
      }
    }
    found.push({ file, title: m[3] ?? m[4]!, body: lines.slice(0, end).join('\n').trimEnd() });
  }
  return found;
}

/** A PHP method declaration: `public function testFizz(): void`, its name in group 1. */
const PHP_METHOD = /\bfunction\s+(\w+)\s*\(/g;

/**
 * PHPUnit: each test method of a test class (`function testXxx(…) {…}`, or any method marked `@test` in its doc
 * comment or `#[Test]`), from `function` to its closing brace.
 */
function phpTests(file: string, source: string): SourceTest[] {
  const found: SourceTest[] = [];
  for (const m of source.matchAll(PHP_METHOD)) {
    const before = source.slice(Math.max(0, m.index - 400), m.index);
    const marked = /(?:@test\b|#\[(?:\\?PHPUnit\\Framework\\Attributes\\)?Test\])[^{};]*$/.test(before);
    if (!m[1]!.startsWith('test') && !marked) continue;
    const params = closingParen(source, source.indexOf('(', m.index));
    const open = source.indexOf('{', params);
    const end = open < 0 ? source.length : closingParen(source, open);
    found.push({ file, title: m[1]!, body: source.slice(m.index, end) });
  }
  return found;
}

/** A Rust test: `#[test]`, other attributes after it (`#[should_panic]`, `#[ignore]`), then `fn name(`. */
const RUST_TEST = /#\[test\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?fn\s+(\w+)\s*\(/g;

/** Rust: each `#[test]` function, from its attribute to its closing brace (in `tests/*.rs` or a `mod tests` of code). */
function rustTests(file: string, source: string): SourceTest[] {
  const found: SourceTest[] = [];
  for (const m of source.matchAll(RUST_TEST)) {
    const params = closingParen(source, m.index + m[0].length - 1);
    const open = source.indexOf('{', params);
    const end = open < 0 ? source.length : closingParen(source, open);
    found.push({ file, title: m[1]!, body: source.slice(m.index, end) });
  }
  return found;
}

function jsTests(file: string, source: string): SourceTest[] {
  const found: SourceTest[] = [];
  for (const m of source.matchAll(JS_TEST)) {
    const open = source.indexOf('(', m.index);
    const end = closingParen(source, open);
    found.push({ file, title: m[2]!.replace(/\\(['"`\\])/g, '$1'), body: source.slice(m.index, end) });
  }
  return found;
}

/** Where the call opened at `open` ends (just after its `)`), skipping strings and comments; the text's end when unbalanced. */
function closingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === '`') {
      i = stringEnd(text, i, c);
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      const eol = text.indexOf('\n', i);
      i = eol < 0 ? text.length : eol;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? text.length : close + 1;
      continue;
    }
    if (c === '(' || c === '{' || c === '[') depth++;
    else if (c === ')' || c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return text.length;
}

function stringEnd(text: string, start: number, quote: string): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote) return i;
    else if (text[i] === '\n' && quote !== '`') return i;
  }
  return text.length;
}

function pythonTests(file: string, source: string): SourceTest[] {
  const found: SourceTest[] = [];
  for (const m of source.matchAll(PY_TEST)) {
    const indent = m[1]!.length;
    const rest = source.slice(m.index);
    const lines = rest.split('\n');
    let end = 1;
    while (end < lines.length) {
      const line = lines[end]!;
      if (line.trim() !== '' && line.length - line.trimStart().length <= indent) break;
      end++;
    }
    found.push({ file, title: m[2]!, body: lines.slice(0, end).join('\n').trimEnd() });
  }
  return found;
}

/**
 * The tests of `after` that `before` did not have, or had with another body (whitespace aside): what a Tester's turn
 * added to the file. A changed import line changes no test.
 */
export function addedTests(file: string, before: string | undefined, after: string): SourceTest[] {
  const old = new Map<string, string>();
  for (const t of before === undefined ? [] : testsInSource(file, before))
    if (!old.has(t.title)) old.set(t.title, squash(t.body));
  return testsInSource(file, after).filter((t) => old.get(t.title) !== squash(t.body));
}

function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A name bound by an import of a file, and the module it comes from as written (`../src/fizzbuzz.js`, `fizzbuzz`). */
export interface ImportedName {
  name: string;
  from: string;
}

/**
 * The names a file's imports bind: ES `import`, CommonJS `require`, Python `from … import` and `import`. None for Go:
 * a test sees its own package's names without an import (see {@link seesPackageNames}).
 */
export function importedNames(file: string, source: string): ImportedName[] {
  const names: ImportedName[] = [];
  if (file.endsWith('.rb')) return rubyRequires(source);
  if (seesPackageNames(file)) return names;
  if (file.endsWith('.py')) {
    for (const m of source.matchAll(/^[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n]+)/gm)) {
      for (const part of m[2]!.replace(/[()]/g, '').split(/,|\n/)) {
        const name = /(\w+)\s*$/.exec(part.replace(/#.*$/, '').trim())?.[1];
        if (name) names.push({ name, from: m[1]! });
      }
    }
    for (const m of source.matchAll(/^[ \t]*import[ \t]+([\w.]+)(?:[ \t]+as[ \t]+(\w+))?/gm))
      names.push({ name: m[2] ?? m[1]!.split('.')[0]!, from: m[1]! });
    return names;
  }
  for (const m of source.matchAll(/\bimport\s+(?:type\s+)?([\w$*{}\s,]+?)\s+from\s+['"]([^'"]+)['"]/g))
    names.push(...bindings(m[1]!).map((name) => ({ name, from: m[2]! })));
  for (const m of source.matchAll(/\b(?:const|let|var)\s+([\w${}\s,:]+?)\s*=\s*require\(\s*['"]([^'"]+)['"]\s*\)/g))
    names.push(...bindings(m[1]!.replace(/:\s*/g, ' as ')).map((name) => ({ name, from: m[2]! })));
  return names;
}

/** The local names of an import clause: `x, { a, b as c }` → x, a, c; `* as ns` → ns. */
function bindings(clause: string): string[] {
  const names: string[] = [];
  const braces = /\{([^}]*)\}/.exec(clause);
  for (const part of braces?.[1]?.split(',') ?? []) {
    const name = /([\w$]+)\s*$/.exec(part.trim())?.[1];
    if (name) names.push(name);
  }
  const outside = clause.replace(/\{[^}]*\}/, ' ');
  const star = /\*\s*as\s+([\w$]+)/.exec(outside)?.[1];
  if (star) names.push(star);
  const plain = /^\s*([\w$]+)\s*(?:,|$)/.exec(outside.replace(/\*\s*as\s+[\w$]+/, ''))?.[1];
  if (plain) names.push(plain);
  return names;
}

/**
 * True for a test file that sees the names of the code beside it without importing them: Go (one package); Ruby (a
 * constant or method, once a loaded file defines it, is seen everywhere); PHP (a class of its own namespace, or any by
 * its full name, through the autoloader); Rust (a `mod tests` sees its file's names through `use super::*`, a
 * `tests/*.rs` file the crate's through `use <crate>::…` paths the supervisor does not read).
 */
export function seesPackageNames(file: string): boolean {
  return file.endsWith('.go') || file.endsWith('.rs') || file.endsWith('.rb') || file.endsWith('.php') || file.endsWith('.java');
}

/**
 * Ruby: a `require` binds no name, but by Ruby's convention the file `fizz_buzz.rb` (or `fizzbuzz.rb`) defines
 * `FizzBuzz`: each constant of the source whose name is the required file's stem, case and underscores aside, counts as
 * bound by that require (so a spec requiring a file not written yet is the red of a test that uses its class).
 */
function rubyRequires(source: string): ImportedName[] {
  const names: ImportedName[] = [];
  const constants = [...new Set([...source.matchAll(/(?<![\w:])([A-Z]\w*)/g)].map((m) => m[1]!))];
  const plain = (word: string): string => word.replace(/_/g, '').toLowerCase();
  for (const m of source.matchAll(/^[ \t]*require(?:_relative)?[ \t(]+['"]([^'"]+)['"]/gm)) {
    const stem = plain(m[1]!.split('/').at(-1)!.replace(/\.rb$/, ''));
    for (const name of constants) if (plain(name) === stem) names.push({ name, from: m[1]! });
  }
  return names;
}

/** True when `body` uses `name` as an identifier (not inside a longer one). */
export function usesName(body: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w$])${escaped}(?![\\w$])`).test(body);
}

/**
 * True when an import of `specifier` is an import of the missing module `missing` (as a runner names it: a path, a
 * dotted Python name): the same module by its stem, or a module inside it (`pkg.sizes` when `pkg` is missing).
 */
export function importsModule(specifier: string, missing: string): boolean {
  const stem = moduleStem(missing);
  const segments = specifier
    .replace(/\.(?:[cm]?[jt]sx?|py|rb)$/, '')
    .split(/[\\/.]/)
    .filter(Boolean);
  return moduleStem(specifier) === stem || segments.includes(stem);
}

/** A module's name without its folders and extension: `../src/fizzbuzz.js` → `fizzbuzz`, `pkg.parse` → `parse`. */
export function moduleStem(specifier: string): string {
  const last = specifier.split(/[\\/]/).at(-1) ?? specifier;
  const noExt = last.replace(/\.(?:[cm]?[jt]sx?|py|rb)$/, '');
  return /^[\w.]+$/.test(noExt) && !specifier.includes('/') ? (noExt.split('.').at(-1) ?? noExt) : noExt;
}
