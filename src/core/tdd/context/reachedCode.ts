import { exportedSymbols } from './exportedSymbols';
import type { ResolvedImport } from './moduleResolution';

/** How many modules deep a name is followed from the importing file through re-exports and imports. */
const NAME_DEPTH = 4;

/**
 * The code the files `from` reach, in the order reached: what their imports resolve to, and for the names they take,
 * the modules those names come from — through a package's `__init__.py` (`from .core import slugify`), an
 * `index.js` (`export { parse } from './parse.js'`, `module.exports = require('./lib')`) or any module that imports
 * them — up to four modules deep. A module whose imports give none of the names asked is not followed further: a
 * package entry's other re-exports are not what the test reaches. An import taken whole by a module on the way
 * (`export *`, `from .x import *`) is followed when the module it names exports one of the names (or nothing the
 * map can read). `texts` holds the project's code by path; `importsOf` resolves a file's imports.
 */
export function reachedCode(
  from: readonly string[],
  importsOf: (path: string) => ResolvedImport[],
  texts: ReadonlyMap<string, string>,
): string[] {
  const start = new Set(from);
  const reached: string[] = [];
  const followed = new Map<string, Set<string>>();
  let frontier: ResolvedImport[] = from.flatMap(importsOf);
  for (let depth = 0; depth < NAME_DEPTH && frontier.length > 0; depth++) {
    const next: ResolvedImport[] = [];
    for (const { file, names } of frontier) {
      if (!start.has(file) && !reached.includes(file)) reached.push(file);
      if (!names) continue;
      const done = followed.get(file) ?? new Set<string>();
      const asked = names.filter((n) => !done.has(n));
      if (asked.length === 0) continue;
      for (const n of asked) done.add(n);
      followed.set(file, done);
      for (const imported of importsOf(file)) {
        if (start.has(imported.file)) continue;
        const given = imported.names
          ? imported.names.filter((n) => asked.includes(n))
          : exportsAny(imported.file, asked, texts)
            ? asked
            : [];
        if (given.length) next.push({ file: imported.file, names: given });
      }
    }
    frontier = next;
  }
  return reached;
}

/** True when a module taken whole may give one of `names`: it exports one, or nothing the map can read. */
function exportsAny(path: string, names: readonly string[], texts: ReadonlyMap<string, string>): boolean {
  const text = texts.get(path);
  if (text === undefined) return false;
  const exported = exportedSymbols(path, text);
  return exported.length === 0 || names.some((n) => exported.includes(n));
}
