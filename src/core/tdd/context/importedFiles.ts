import { posix } from 'node:path';

const JS_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
/** `import … from '…'`, `export … from '…'`, `import '…'`, `require('…')`, `import('…')`. */
const JS_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(['"])([^'"\n]+)\1/g;
/** `from x.y import a, b` and `import x.y, z` at the start of a line (relative ones too: `from ..x import y`). */
const PY_FROM = /^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+\(?([^\n)]*)/gm;
const PY_IMPORT = /^[ \t]*import[ \t]+([\w. ,]+)/gm;

/**
 * The workspace files a source file imports, resolved against the list of the workspace's files (`files`): relative
 * imports in JavaScript and TypeScript (with the extension or without, `.js` standing for `.ts` as TypeScript's ESM
 * imports write it, or a folder's `index`), and in Python absolute modules looked up from the workspace root and from
 * `src/` (the src layout) and relative ones (`from .x import y`), a module's package `__init__.py` included.
 * Imports of packages (node_modules, site-packages) resolve to nothing: they are not the project's files.
 */
export function importedFiles(path: string, text: string, files: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  const add = (candidate: string | undefined) => {
    if (candidate && candidate !== path) found.add(candidate);
  };
  if (path.endsWith('.py')) {
    for (const module of pythonModules(path, text)) add(resolvePython(module, files));
  } else if (/\.[cm]?[jt]sx?$/.test(path)) {
    for (const match of text.matchAll(JS_IMPORT)) {
      const specifier = match[2]!;
      if (specifier.startsWith('.')) add(resolveJs(posix.join(posix.dirname(path), specifier), files));
    }
  }
  return [...found];
}

function resolveJs(target: string, files: ReadonlySet<string>): string | undefined {
  const stem = target.replace(/\.[cm]?jsx?$/, '');
  const candidates = [target, ...JS_EXTENSIONS.map((e) => stem + e), ...JS_EXTENSIONS.map((e) => `${target}/index${e}`)];
  return candidates.find((c) => files.has(c));
}

/** The paths (`a/b`, workspace-relative, without extension) the modules a Python file imports may have. */
function pythonModules(path: string, text: string): string[] {
  const modules: string[] = [];
  const dir = posix.dirname(path);
  for (const match of text.matchAll(PY_FROM)) {
    const [, dots, name, names] = match as unknown as [string, string, string, string];
    const base = dots ? posix.join(dir, ...Array<string>(Math.max(0, dots.length - 1)).fill('..')) : undefined;
    const module = name.replace(/\./g, '/');
    const roots = base !== undefined ? [base] : ['', 'src'];
    const imported = names
      .split(',')
      .map((n) => n.trim().split(/\s+/)[0]!)
      .filter((n) => /^\w+$/.test(n));
    for (const root of roots) {
      const at = posix.join(root, module);
      // `from pkg import mod` may import a submodule: both the module and its submodules are candidates.
      modules.push(at, ...imported.map((n) => posix.join(at, n)));
    }
  }
  for (const match of text.matchAll(PY_IMPORT)) {
    for (const name of match[1]!.split(',')) {
      const module = name.trim().split(/\s+/)[0]!.replace(/\./g, '/');
      if (module) modules.push(module, posix.join('src', module));
    }
  }
  return modules;
}

function resolvePython(module: string, files: ReadonlySet<string>): string | undefined {
  const at = module.replace(/^\.\//, '');
  if (!at || at === '.') return undefined;
  return [`${at}.py`, `${at}/__init__.py`].find((c) => files.has(c));
}
