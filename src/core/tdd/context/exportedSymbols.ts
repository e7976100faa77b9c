import { testTitlesIn } from '../../testRunners/testTitles';

const MAX_SYMBOLS = 12;
/** `export [default] [async] function|class|const|let|var|interface|type|enum Name`. */
const JS_EXPORT =
  /^export\s+(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\s*\*?|class|const|let|var|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm;
/**
 * `export { a, b as c }` (not `export … from`, which re-exports another file's names). The braces' content is bounded
 * (2,000 characters), here and below: generated code full of unclosed braces cannot make a scan quadratic.
 */
const JS_EXPORT_LIST = /^export\s*\{([^}]{0,2000})\}\s*;?\s*$/gm;
/** `module.exports = { a, b }`, `module.exports.x =` and `exports.x =`. */
const CJS_OBJECT = /module\.exports\s*=\s*\{([^}]{0,2000})\}/g;
const CJS_PROPERTY = /^(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=/gm;
/** Top-level `def`, `async def` and `class` in Python. */
const PY_TOP_LEVEL = /^(?:async\s+)?(?:def|class)\s+([A-Za-z]\w*)/gm;

/**
 * What a file offers, for the repository map: its exported names in JavaScript and TypeScript (ESM and CommonJS),
 * its public top-level functions and classes in Python (no leading underscore), at most 12 (then `…`). For a test
 * file, how many tests it declares.
 */
export function mapEntry(path: string, text: string, isTest: boolean): string {
  if (isTest) {
    const tests = testTitlesIn(path, text).length;
    return tests ? `${tests} test${tests === 1 ? '' : 's'}` : '';
  }
  const names = exportedSymbols(path, text);
  return names.length > MAX_SYMBOLS ? `${names.slice(0, MAX_SYMBOLS).join(', ')}, …` : names.join(', ');
}

/** The names a source file exports (see {@link mapEntry}), in order of appearance, each once. */
export function exportedSymbols(path: string, text: string): string[] {
  const names: string[] = [];
  if (path.endsWith('.py')) {
    for (const m of text.matchAll(PY_TOP_LEVEL)) names.push(m[1]!);
  } else {
    for (const m of text.matchAll(JS_EXPORT)) names.push(m[1]!);
    // `export { a as b }` exports `b`; `module.exports = { a: b }` exports `a`.
    const add = (name: string | undefined) => {
      if (name && /^[A-Za-z_$][\w$]*$/.test(name)) names.push(name);
    };
    for (const m of text.matchAll(JS_EXPORT_LIST))
      for (const part of m[1]!.split(','))
        add(
          part
            .trim()
            .split(/\s+as\s+/)
            .at(-1),
        );
    for (const m of text.matchAll(CJS_OBJECT)) for (const part of m[1]!.split(',')) add(part.trim().split(/\s*:\s*/)[0]);
    for (const m of text.matchAll(CJS_PROPERTY)) names.push(m[1]!);
  }
  return [...new Set(names)];
}
