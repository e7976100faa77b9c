import type { ImportStatement, ModuleResolver, ResolvedImport } from './moduleResolution';

/** `import … from '…'`, `export … from '…'`, `import '…'`, `require('…')`, `import('…')`: every specifier. */
const JS_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(['"])([^'"\n]+)\1/g;
/**
 * `import a, { b as c } from '…'`, `import type { T } from '…'`, `export { a } from '…'`, `export * from '…'`. Every
 * repetition is bounded (a clause of 2,000 characters at most), so generated code cannot make a scan quadratic; a
 * longer clause still counts as an import of the whole module.
 */
const JS_FROM = /(?:^|[;}\n])[ \t]*(import|export)\s+(?:type\s+)?([^;'"`]{0,2000}?)\s*\bfrom\s*(['"])([^'"\n]+)\3/g;
/** `const { a, b: c } = require('…')`, `const m = require('…')`, `const x = require('…').x`. */
const JS_REQUIRE =
  /\b(?:const|let|var)\s+(\{[^}]{0,2000}\}|[A-Za-z_$][\w$]*)\s*=\s*require\s*\(\s*(['"])([^'"\n]+)\2\s*\)(?:\s*\.\s*([A-Za-z_$][\w$]*))?/g;
/** `from x.y import a, b`, `from . import x`, `from .m import (a,\n b as c)` at the start of a line. */
const PY_FROM = /^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]{0,4000}\)|[^\n#]*)/gm;
/** `import x.y, z as w` at the start of a line. */
const PY_IMPORT = /^[ \t]*import[ \t]+([\w. \t,]+)/gm;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** The imports of a source file, each specifier once (its names merged; a whole-module import wins). */
export function importStatements(path: string, text: string): ImportStatement[] {
  const found = new Map<string, string[] | undefined>();
  const add = (specifier: string, names: string[] | undefined) => {
    if (!found.has(specifier)) found.set(specifier, names && [...names]);
    else {
      const known = found.get(specifier);
      found.set(specifier, known && names ? [...new Set([...known, ...names])] : undefined);
    }
  };
  if (path.endsWith('.py')) {
    for (const m of text.matchAll(PY_FROM)) {
      const names = m[2]!
        .replace(/[()\\]/g, ' ')
        .split(',')
        .map((n) => n.trim().split(/\s+/)[0]!)
        .filter((n) => n === '*' || /^\w+$/.test(n));
      if (names.length) add(m[1]!, names.includes('*') ? undefined : names);
    }
    for (const m of text.matchAll(PY_IMPORT))
      for (const part of m[1]!.split(',')) {
        const module = part.trim().split(/\s+/)[0]!;
        if (/^\w[\w.]*$/.test(module)) add(module, undefined);
      }
  } else if (/\.[cm]?[jt]sx?$/.test(path)) {
    const named = new Map<string, string[] | undefined>();
    const name = (specifier: string, names: string[] | undefined) => {
      const known = named.has(specifier) ? named.get(specifier) : [];
      named.set(specifier, known && names ? [...known, ...names] : undefined);
    };
    for (const m of text.matchAll(JS_FROM)) name(m[4]!, clauseNames(m[1] as 'import' | 'export', m[2]!));
    for (const m of text.matchAll(JS_REQUIRE)) {
      const [, binding, , specifier, property] = m as unknown as [string, string, string, string, string | undefined];
      name(specifier, property ? [property] : binding.startsWith('{') ? bindingNames(binding) : undefined);
    }
    // Every other way a specifier appears (`import '…'`, a bare `require('…')`, `import('…')`) takes the module whole.
    for (const m of text.matchAll(JS_SPECIFIER)) {
      const specifier = m[2]!;
      add(specifier, named.has(specifier) ? named.get(specifier) : undefined);
    }
  }
  return [...found].map(([specifier, names]) => (names ? { specifier, names } : { specifier }));
}

/** The names an `import`/`export … from` clause takes; undefined for a namespace or `export *`. */
function clauseNames(keyword: 'import' | 'export', clause: string): string[] | undefined {
  const text = clause.trim();
  if (text.startsWith('*')) return undefined; // `import * as ns`, `export *`, `export * as ns`
  const names: string[] = [];
  const braces = /\{([^}]*)\}/.exec(text);
  const head = (braces ? text.slice(0, braces.index) : text).replace(/,\s*$/, '').trim();
  if (keyword === 'import' && head) {
    if (head.includes('*')) return undefined; // `import d, * as ns`
    if (IDENTIFIER.test(head)) names.push('default');
  }
  if (braces)
    for (const part of braces[1]!.split(',')) {
      const original = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]!
        .trim();
      if (IDENTIFIER.test(original) || original === 'default') names.push(original);
    }
  return names.length ? names : undefined;
}

/** The property names of a destructuring pattern (`{ a, b: c, ...rest }` gives `a`, `b`). */
function bindingNames(pattern: string): string[] | undefined {
  const names: string[] = [];
  for (const part of pattern.slice(1, -1).split(',')) {
    const key = part.trim().split(/\s*[:=]\s*/)[0]!;
    if (key.startsWith('...')) return undefined; // the rest of the module: taken whole
    if (IDENTIFIER.test(key)) names.push(key);
  }
  return names.length ? names : undefined;
}

/**
 * The workspace files a source file imports, resolved as its runtime would (see {@link ModuleResolver}), each with
 * the names taken from it. Imports of installed packages (node_modules, site-packages) and of built output resolve
 * to nothing: they are not the project's files.
 */
export function resolvedImports(path: string, text: string, resolver: ModuleResolver): ResolvedImport[] {
  const out = new Map<string, string[] | undefined>();
  for (const statement of importStatements(path, text))
    for (const found of resolver.resolve(path, statement)) {
      if (found.file === path) continue;
      const known = out.has(found.file) ? out.get(found.file) : [];
      out.set(found.file, known && found.names ? [...new Set([...known, ...found.names])] : undefined);
    }
  return [...out].map(([file, names]) => (names ? { file, names } : { file }));
}

/** The workspace files a source file imports (see {@link resolvedImports}), without the names. */
export function importedFiles(path: string, text: string, resolver: ModuleResolver): string[] {
  return resolvedImports(path, text, resolver).map((i) => i.file);
}
