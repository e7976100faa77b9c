import { tokenCounter, type TokenCount } from '../../llm/tokenCount';
import { truncateHeadTail } from '../../testRunners/truncateOutput';
import { listWorkspaceFiles, MAX_CONTEXT_FILE_BYTES, readTextFile, type WorkspaceFile } from './workspaceSnapshot';
import { isLockFile, isProjectCode } from './codeFiles';
import { mapEntry } from './exportedSymbols';
import { resolvedImports } from './importedFiles';
import { ModuleResolver, readProjectManifests } from './moduleResolution';
import { reachedCode } from './reachedCode';
import { testsByRelevance } from './testRelevance';

/** Inputs of {@link selectContextFiles}. */
export interface ContextFilesInput {
  workspaceRoot: string;
  isTestFile(path: string): boolean;
  /** The test files being written or that the last run named: shown first. */
  focusFiles?: readonly string[];
  /** Files the session changed so far (committed or not): shown next. */
  sessionFiles?: readonly string[];
  /** The task in words: with nothing in focus, it picks the example test file whose path shares most of its words. */
  task: string;
  /** Tokens the file contents and the map may take together. */
  budgetTokens: number;
  /**
   * What the role edits next, shown whole whatever the budget (each file up to {@link WHOLE_FILE_BYTES}, together up
   * to {@link WHOLE_FILES_BYTES}), ahead of everything else: `'test'` its test file (the Tester), `'code'` that and the
   * code the test reaches (the Implementer, the Refactorer). Without it, every file competes for the budget.
   */
  editsNext?: 'test' | 'code';
  signal?: AbortSignal;
}

/** A file shown in full (or, when one focus file alone is over the budget, its head and tail). */
export interface ShownFile {
  path: string;
  block: string;
  mtimeMs: number;
}

/** What {@link selectContextFiles} chose. */
export interface ContextFiles {
  shown: ShownFile[];
  /** Map lines for the code not shown and the other files, within the budget; folders summarised past it. */
  map: string[];
  /** No file at all in the workspace. */
  empty: boolean;
}

/** Share of the budget kept for the repository map, so the files shown in full never leave it nothing. */
const MAP_SHARE = 0.15;
/** Largest file a role is shown whole because it edits it next (see {@link ContextFilesInput.editsNext}). */
export const WHOLE_FILE_BYTES = 64 * 1024;
/** What the files a role edits next may take together; past it they compete for the budget like the others. */
export const WHOLE_FILES_BYTES = 128 * 1024;

/**
 * Chooses what a role reads, most relevant first, within a token budget (counted with a real tokenizer):
 * 0. what the role edits next (`editsNext`), whole whatever the budget, each file up to 64 KiB: the test file (the
 *    test files being written or named by the last run; else those the session wrote; else the example below) and,
 *    for the Implementer and the Refactorer, the code that test reaches — what its imports resolve to as the runtime
 *    resolves them (`require('..')`, package.json `main`/`exports`, index files, tsconfig `paths`, Python packages;
 *    see {@link ModuleResolver}), and through re-exports (`index.js`, `__init__.py`) the modules that define the names
 *    it imports;
 * 1. the focus files (the test files being written, the ones the last run named);
 * 2. the files the session changed so far;
 * 3. the code those reach (as above), then what that code imports (not a package entry's every re-export) — the
 *    production code under test;
 * with nothing in focus and nothing changed yet (a session's first turn), one example test file — the one that shares
 * most words with the task (its path, its text and the code it reaches), else the smallest — and what it reaches, so
 * the role sees the project's test conventions, then the other test files, likeliest first (the test may belong in
 * one of them). Each is shown whole when it fits; only a focus file larger than the whole budget is cut (head and
 * tail). Everything else is a repository map: code files with their exported symbols (tests with their count), then
 * the other files (docs, CI, licences, manifests, lockfiles) by path and size — never ahead of the source. Past the
 * budget the map summarises folders. Links, special files and files over 256 KiB are never read.
 */
export async function selectContextFiles(input: ContextFilesInput): Promise<ContextFiles> {
  const countTokens = await tokenCounter();
  const files = await listWorkspaceFiles(input.workspaceRoot, input.signal);
  const byPath = new Map(files.map((f) => [f.path, f]));
  const paths = new Set(byPath.keys());
  const code = files.filter((f) => isProjectCode(f.path));
  const { texts, notReadable } = await readCode(input.workspaceRoot, code);
  const isCode = (path: string) => texts.has(path);
  const resolver = new ModuleResolver(paths, await readProjectManifests(input.workspaceRoot, [...paths]));
  const imports = new Map<string, ReturnType<typeof resolvedImports>>();
  const importsOf = (path: string) => {
    let found = imports.get(path);
    if (!found) imports.set(path, (found = resolvedImports(path, texts.get(path) ?? '', resolver)));
    return found;
  };
  const reached = (from: readonly string[]) => reachedCode(from, importsOf, texts);

  // Tiers of relevance, each file once, in order.
  const ordered: string[] = [];
  const tierOf = new Map<string, number>();
  const add = (tier: number, list: Iterable<string>) => {
    for (const path of list)
      if (isCode(path) && !tierOf.has(path)) {
        tierOf.set(path, tier);
        ordered.push(path);
      }
  };
  add(0, input.focusFiles ?? []);
  add(1, [...(input.sessionFiles ?? [])].sort());
  // A first turn: the test files by relevance to the task; the first is the example, the others follow the code.
  const examples =
    ordered.length === 0 ? exampleTests(code, input, texts, (from) => reached(from).filter((p) => !resolver.isEntry(p))) : [];
  add(0, examples.slice(0, 1));
  const level1 = reached([...ordered]);
  add(2, level1);
  add(
    3,
    level1.filter((p) => !resolver.isEntry(p)).flatMap((p) => importsOf(p).map((i) => i.file)),
  );
  add(4, examples.slice(1));

  // What the role edits next: the test (in focus; else the session's tests; else the example) and the code it reaches.
  const focusTests = ordered.filter((p) => tierOf.get(p) === 0);
  const tests = focusTests.length
    ? focusTests
    : [...(input.sessionFiles ?? [])].filter((p) => isCode(p) && input.isTestFile(p)).sort();
  const whole = !input.editsNext ? [] : input.editsNext === 'test' ? tests : [...new Set([...tests, ...reached(tests)])];

  const budget = input.budgetTokens;
  const mtimeOf = (path: string) => byPath.get(path)!.mtimeMs;
  const { shown, used } = showFiles({ whole, ordered, texts, tierOf, mtimeOf, budget, countTokens });
  const shownPaths = new Set(shown.map((s) => s.path));
  const lines = mapLines(
    code,
    files,
    (path) => shownPaths.has(path),
    texts,
    notReadable,
    (path) => input.isTestFile(path),
  );
  const mapTokens = Math.max(budget - used, Math.floor(budget * MAP_SHARE));
  return { shown, map: withinBudget(lines, mapTokens, countTokens), empty: files.length === 0 };
}

/** The project's code files read: their texts, and why each unreadable one is not shown. */
async function readCode(
  root: string,
  code: readonly { path: string; size: number }[],
): Promise<{ texts: Map<string, string>; notReadable: Map<string, string> }> {
  const texts = new Map<string, string>();
  const notReadable = new Map<string, string>();
  for (const file of code) {
    const read = file.size === 0 ? { kind: 'text' as const, text: '' } : await readTextFile(root, file.path);
    if (read.kind === 'text') texts.set(file.path, read.text);
    else
      notReadable.set(
        file.path,
        read.kind === 'too_large' ? `${read.size} bytes, too large to show: over ${MAX_CONTEXT_FILE_BYTES} bytes` : read.kind,
      );
  }
  return { texts, notReadable };
}

/** What {@link showFiles} chooses from. */
interface ShowInput {
  /** The files the role edits next, shown whole first when they are not too large. */
  whole: readonly string[];
  /** The other files by relevance, with their tier (0: in focus). */
  ordered: readonly string[];
  tierOf: ReadonlyMap<string, number>;
  texts: ReadonlyMap<string, string>;
  mtimeOf: (path: string) => number;
  budget: number;
  countTokens: TokenCount;
}

/** The files shown whole, within the budget's share for them (a focus file over all of it: head and tail). */
function showFiles({ whole, ordered, tierOf, texts, mtimeOf, budget, countTokens }: ShowInput): {
  shown: ShownFile[];
  used: number;
} {
  let used = 0;
  let wholeBytes = 0;
  let cut = false;
  const shown: ShownFile[] = [];
  for (const path of whole) {
    const text = texts.get(path) ?? '';
    const size = Buffer.byteLength(text);
    if (text === '' || size > WHOLE_FILE_BYTES || wholeBytes + size > WHOLE_FILES_BYTES) continue;
    const block = fileBlock(path, text);
    shown.push({ path, block, mtimeMs: mtimeOf(path) });
    // Counted as far as the budget: past it nothing else fits anyway (and a pathological text is not tokenized whole).
    used += countTokens(block, budget);
    wholeBytes += size;
  }
  for (const path of ordered) {
    const text = texts.get(path)!;
    if (text === '' || shown.some((s) => s.path === path)) continue; // an empty one is listed as empty in the map
    const block = fileBlock(path, text);
    // Counted only as far as the room left: a file far over it is not tokenized whole.
    const room = Math.max(0, Math.floor(budget * (1 - MAP_SHARE) - used));
    const tokens = countTokens(block, room);
    if (tokens <= room) {
      shown.push({ path, block, mtimeMs: mtimeOf(path) });
      used += tokens;
    } else if (tierOf.get(path) === 0 && !cut && shown.every((s) => tierOf.get(s.path) !== 0)) {
      // A focus file larger than the whole budget: its head and tail, the cut marked (sized from its whole count).
      const chars = Math.max(400, Math.floor(((budget * (1 - MAP_SHARE)) / countTokens(block)) * text.length));
      const head = fileBlock(path, truncateHeadTail(text, chars, 'characters cut to fit the context budget; use read_file'));
      shown.push({ path, block: head, mtimeMs: mtimeOf(path) });
      used += countTokens(head);
      cut = true;
    }
  }

  return { shown, used };
}

/** The repository map: each code file not shown with its exported symbols, then the other files by path and size. */
function mapLines(
  code: readonly { path: string; size: number }[],
  files: readonly { path: string; size: number }[],
  isShown: (path: string) => boolean,
  texts: ReadonlyMap<string, string>,
  notReadable: ReadonlyMap<string, string>,
  isTestFile: (path: string) => boolean,
): string[] {
  const lines: string[] = [];
  for (const file of code) {
    if (isShown(file.path)) continue;
    const text = texts.get(file.path);
    const why = notReadable.get(file.path);
    const entry = text ? mapEntry(file.path, text, isTestFile(file.path)) : '';
    lines.push(
      `- ${file.path}${entry ? `: ${entry}` : ` (${text === undefined ? why : text === '' ? 'empty' : `${file.size} bytes`})`}`,
    );
  }
  for (const file of files) {
    if (isProjectCode(file.path) || isPlaceholder(file.path, file.size)) continue;
    lines.push(
      `- ${file.path} (${file.size === 0 ? 'empty' : `${file.size} bytes`}${isLockFile(file.path) ? ', lockfile' : ''})`,
    );
  }
  return lines;
}

/** The map lines that fit in `tokens`; the rest summarised as a count per top folder. */
function withinBudget(lines: string[], tokens: number, countTokens: TokenCount): string[] {
  const out: string[] = [];
  let used = 0;
  let i = 0;
  for (; i < lines.length; i++) {
    const cost = countTokens(lines[i]!) + 1;
    if (used + cost > tokens) break;
    out.push(lines[i]!);
    used += cost;
  }
  if (i < lines.length) {
    const folders = new Map<string, number>();
    for (const line of lines.slice(i)) {
      const path = /^- ([^ :]+)/.exec(line)?.[1] ?? '';
      const folder = path.includes('/') ? `${path.slice(0, path.indexOf('/'))}/` : '(root)';
      folders.set(folder, (folders.get(folder) ?? 0) + 1);
    }
    out.push(
      `- and ${lines.length - i} more files (list_files shows them): ${[...folders].map(([f, n]) => `${f} ${n}`).join(', ')}`,
    );
  }
  return out;
}

/** One file as the context shows it. */
export function fileBlock(path: string, text: string): string {
  return `## ${path}\n\`\`\`\n${text}\n\`\`\``;
}

/**
 * The test files to show on a first turn, the likeliest to take the task's test first (see {@link testsByRelevance}:
 * the task's words in their paths, their texts and the code they reach); a conftest.py is no example.
 */
function exampleTests(
  code: readonly WorkspaceFile[],
  input: ContextFilesInput,
  texts: ReadonlyMap<string, string>,
  /** The code a test reaches that says what it is about (not the package entries it goes through). */
  reached: (from: readonly string[]) => string[],
): string[] {
  const tests = code
    .filter((f) => f.size > 0 && texts.has(f.path) && input.isTestFile(f.path) && !/(^|\/)conftest\.py$/.test(f.path))
    .map((f) => ({ path: f.path, size: f.size, text: texts.get(f.path)! }));
  return testsByRelevance(input.task, tests, (path) =>
    reached([path])
      .map((p) => texts.get(p) ?? '')
      .join('\n'),
  );
}

/** Empty files that only keep a folder in git. */
function isPlaceholder(path: string, size: number): boolean {
  return size === 0 && /(^|\/)\.(gitkeep|keep)$/.test(path);
}
