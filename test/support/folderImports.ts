import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** Which folders a folder imports, each with one example `file -> specifier` per imported folder. */
export type FolderGraph = Map<string, Map<string, string>>;

/** The allowed imports between folders: each folder lists the folders it may import. */
export type AllowedImports = Readonly<Record<string, readonly string[]>>;

/** What {@link checkFolderImports} found wrong: imports the table does not allow, and cycles in the table itself. */
export interface ImportCheck {
  /** `from -> to (example)` for every import between folders that the table does not list. */
  notAllowed: string[];
  /** Each cycle of the table, as `a -> b -> a`. */
  cycles: string[];
  /** Folders that exist on disk but have no row in the table. */
  unknownFolders: string[];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The source file an import specifier (made absolute) names: `x.ts`, or `x/index.ts` for a folder. */
function resolveSource(base: string): string {
  return existsSync(`${base}.ts`) || !existsSync(base) ? `${base}.ts` : join(base, 'index.ts');
}

/**
 * Reads every `.ts` file under `root` with TypeScript's own pre-processor (static imports, re-exports,
 * `import()` and `import('...')` types; comments are ignored) and returns which top-level folder of `root`
 * imports which other one. Files directly in `root` (the public barrel) are left out: they may import anything.
 */
export function folderImports(root: string): FolderGraph {
  const graph: FolderGraph = new Map();
  for (const file of sourceFiles(root)) {
    const from = relative(root, file).split(sep);
    if (from.length < 2) continue;
    const fromFolder = from[0]!;
    if (!graph.has(fromFolder)) graph.set(fromFolder, new Map());
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = relative(root, resolveSource(resolve(dirname(file), fileName))).split(sep);
      if (target[0] === '..' || target.length < 2) continue; // outside root, or a file directly in root
      const toFolder = target[0]!;
      if (toFolder === fromFolder) continue;
      const edges = graph.get(fromFolder)!;
      if (!edges.has(toFolder)) edges.set(toFolder, `${relative(root, file)} -> ${fileName}`);
    }
  }
  return graph;
}

/** Which files of `root` each file under `root` imports (relative paths; `./x` resolves to `x.ts` or `x/index.ts`). */
export function fileImports(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root)) {
    const targets: string[] = [];
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolveSource(resolve(dirname(file), fileName));
      if (!relative(root, target).startsWith('..')) targets.push(relative(root, target));
    }
    graph.set(relative(root, file), targets);
  }
  return graph;
}

/** Every cycle of a directed graph (one per strongly connected component of more than one node), as `a -> b -> a`. */
export function findCycles(edges: ReadonlyMap<string, Iterable<string>>): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next].join(' -> '));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...edges.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

/**
 * Checks a folder graph against the table of allowed imports: every import must be listed, every folder
 * must have a row, and the table itself must be free of cycles (so allowing a cycle means editing the table
 * into one, which fails too).
 */
export function checkFolderImports(graph: FolderGraph, allowed: AllowedImports): ImportCheck {
  const notAllowed: string[] = [];
  const unknownFolders: string[] = [];
  for (const [from, edges] of graph) {
    const row = allowed[from];
    if (!row) {
      unknownFolders.push(from);
      continue;
    }
    for (const [to, example] of edges) if (!row.includes(to)) notAllowed.push(`${from} -> ${to} (${example})`);
  }
  const table = new Map(Object.entries(allowed).map(([from, to]) => [from, to] as const));
  return { notAllowed, cycles: findCycles(table), unknownFolders };
}
