/**
 * Tests that live inside a code file: Rust's `#[cfg(test)] mod tests { … }` in the very file it tests (and, the same
 * way, doc-tests or any language with inline tests). A file-level rule cannot say who may change such a file: the
 * Tester may change only its test regions, the Implementer only the rest. A language gives the function that finds a
 * file's test regions; the rule compares the file before and after, inside the regions and outside them.
 */

/** A span of a file's text, `[start, end)`. */
export interface TextRegion {
  start: number;
  end: number;
}

/** Finds the test regions of a file's text (empty when it has none). */
export type TestRegionFinder = (text: string) => TextRegion[];

/** What a change to a file with inline tests touched: its tests (inside the regions), its code (outside), or both. */
export interface RegionChange {
  tests: boolean;
  code: boolean;
}

/** The last index of the string, char literal or comment that starts at `i` (`i` itself when none starts there). */
function skipRustLiteral(text: string, i: number): number {
  const c = text[i]!;
  const next = text[i + 1];
  if (c === '/' && next === '/') {
    const eol = text.indexOf('\n', i);
    return eol < 0 ? text.length : eol;
  }
  if (c === '/' && next === '*') {
    let depth = 1; // Rust's block comments nest
    let j = i + 2;
    while (j < text.length && depth > 0) {
      if (text[j] === '/' && text[j + 1] === '*') {
        depth++;
        j += 2;
      } else if (text[j] === '*' && text[j + 1] === '/') {
        depth--;
        j += 2;
      } else j++;
    }
    return j - 1;
  }
  const raw = /^b?r(#*)"/.exec(text.slice(i, i + 40));
  if (raw && (i === 0 || !/\w/.test(text[i - 1]!))) {
    const close = `"${raw[1]}`;
    const end = text.indexOf(close, i + raw[0].length);
    return end < 0 ? text.length : end + close.length - 1;
  }
  if (c === '"') {
    for (let j = i + 1; j < text.length; j++) {
      if (text[j] === '\\') j++;
      else if (text[j] === '"') return j;
    }
    return text.length;
  }
  if (c === "'") {
    // A char literal ('a', '\n', '\u{1F600}', '}'), not a lifetime ('a, 'static).
    const literal = /^'(?:\\(?:u\{[0-9a-fA-F]{1,6}\}|x[0-9a-fA-F]{2}|.)|[^\\'\n])'/u.exec(text.slice(i, i + 12));
    return literal ? i + literal[0].length - 1 : i;
  }
  return i;
}

/** The end of the block opened at `open` (just after its `}`), skipping Rust's strings, chars and comments. */
function rustBlockEnd(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const skipped = skipRustLiteral(text, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    const c = text[i];
    if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return text.length;
}

/**
 * Rust's unit test modules: each `#[cfg(test)]` followed (after other attributes, comments and whitespace) by an
 * inline `mod name { … }`, from the attribute to the module's closing brace. `#[cfg(test)] mod tests;` (the module in
 * a file of its own) is no region: that file is a file of the tests by its path, if the profile's patterns say so.
 */
export function rustTestModules(text: string): TextRegion[] {
  const regions: TextRegion[] = [];
  const attribute = /#\[cfg\(\s*test\s*\)\]/g;
  for (let m = attribute.exec(text); m; m = attribute.exec(text)) {
    if (regions.some((r) => m!.index >= r.start && m!.index < r.end)) continue;
    const after = text.slice(m.index + m[0].length);
    const head = /^(?:\s+|\/\/[^\n]*|\/\*[^]*?\*\/|#\[[^\]]*\])*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{/.exec(after);
    if (!head) continue;
    const open = m.index + m[0].length + head[0].length - 1;
    const end = rustBlockEnd(text, open);
    regions.push({ start: m.index, end });
    attribute.lastIndex = end;
  }
  return regions;
}

/** The languages whose files hold tests inside their code, by file extension, and how to find those tests. */
export const TEST_REGION_FINDERS: Readonly<Record<string, TestRegionFinder>> = {
  '.rs': rustTestModules,
};

/** The finder of a file's test regions, by its extension; undefined for a language without inline tests. */
export function testRegionFinder(path: string): TestRegionFinder | undefined {
  const dot = path.lastIndexOf('.');
  return dot < 0 || dot < path.lastIndexOf('/') ? undefined : TEST_REGION_FINDERS[path.slice(dot)];
}

/** The text of a file's test regions alone (empty when it has none), as a reader of the tests sees them. */
export function testRegionsText(find: TestRegionFinder, text: string): string {
  return find(text)
    .map((r) => text.slice(r.start, r.end))
    .join('\n');
}

/** A file's text split in two: its code with the regions taken out, and the regions' text. */
function split(text: string, regions: readonly TextRegion[]): { code: string; tests: string } {
  let code = '';
  const tests: string[] = [];
  let at = 0;
  for (const r of regions) {
    code += `${text.slice(at, r.start).trimEnd()}\n`;
    tests.push(text.slice(r.start, r.end));
    at = r.end;
  }
  code += text.slice(at);
  return { code: code.trim(), tests: tests.join('\n') };
}

/**
 * What a change from `before` to `after` (undefined: no such file) touched in a file whose test regions `find` finds:
 * its tests when the regions' text changed (a module added, removed or edited), its code when the text outside them
 * changed (blank lines where a region starts or ends aside).
 */
export function regionChange(find: TestRegionFinder, before: string | undefined, after: string | undefined): RegionChange {
  const old = split(before ?? '', before === undefined ? [] : find(before));
  const now = split(after ?? '', after === undefined ? [] : find(after));
  return { tests: old.tests !== now.tests, code: old.code !== now.code };
}
