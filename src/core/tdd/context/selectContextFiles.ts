import { tokenCounter, type TokenCount } from '../../llm/tokenCount';
import { truncateHeadTail } from '../../testRunners/truncateOutput';
import { listWorkspaceFiles, MAX_CONTEXT_FILE_BYTES, readTextFile, type WorkspaceFile } from './workspaceSnapshot';
import { isLockFile, isProjectCode } from './codeFiles';
import { mapEntry } from './exportedSymbols';
import { importedFiles } from './importedFiles';

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

/**
 * Chooses what a role reads, most relevant first, within a token budget (counted with a real tokenizer):
 * 1. the focus files (the test files being written, the ones the last run named);
 * 2. the files the session changed so far;
 * 3. the project files those import, then what those import (two levels: JavaScript/TypeScript relative imports,
 *    Python modules) — the production code under test;
 * with nothing in focus and nothing changed yet (a session's first turn), one example test file — the one whose path
 * shares most words with the task, else the smallest — and what it imports, so the role sees the project's test
 * conventions. Each is shown whole when it fits; only a focus file larger than the whole budget is cut (head and
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
  const texts = new Map<string, string>();
  const notReadable = new Map<string, string>();
  for (const file of code) {
    const read = file.size === 0 ? { kind: 'text' as const, text: '' } : await readTextFile(input.workspaceRoot, file.path);
    if (read.kind === 'text') texts.set(file.path, read.text);
    else
      notReadable.set(
        file.path,
        read.kind === 'too_large' ? `${read.size} bytes, too large to show: over ${MAX_CONTEXT_FILE_BYTES} bytes` : read.kind,
      );
  }
  const isCode = (path: string) => texts.has(path);

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
  if (ordered.length === 0) {
    const example = exampleTest(code, input);
    if (example) add(0, [example]);
  }
  const importsOf = (list: string[]) => list.flatMap((p) => importedFiles(p, texts.get(p) ?? '', paths));
  const level1 = importsOf([...ordered]);
  add(2, level1);
  add(3, importsOf(level1));

  const budget = input.budgetTokens;
  let used = 0;
  const shown: ShownFile[] = [];
  for (const path of ordered) {
    const text = texts.get(path)!;
    if (text === '') continue; // listed as empty in the map
    const block = fileBlock(path, text);
    // Counted only as far as the room left: a file far over it is not tokenized whole.
    const room = Math.max(0, Math.floor(budget * (1 - MAP_SHARE) - used));
    const tokens = countTokens(block, room);
    if (tokens <= room) {
      shown.push({ path, block, mtimeMs: byPath.get(path)!.mtimeMs });
      used += tokens;
    } else if (tierOf.get(path) === 0 && shown.length === 0) {
      // A focus file larger than the whole budget: its head and tail, the cut marked (sized from its whole count).
      const chars = Math.max(400, Math.floor(((budget * (1 - MAP_SHARE)) / countTokens(block)) * text.length));
      const cut = fileBlock(path, truncateHeadTail(text, chars, 'characters cut to fit the context budget; use read_file'));
      shown.push({ path, block: cut, mtimeMs: byPath.get(path)!.mtimeMs });
      used += countTokens(cut);
    }
  }

  const shownPaths = new Set(shown.map((s) => s.path));
  const lines: string[] = [];
  for (const file of code) {
    if (shownPaths.has(file.path)) continue;
    const text = texts.get(file.path);
    const why = notReadable.get(file.path);
    const entry = text ? mapEntry(file.path, text, input.isTestFile(file.path)) : '';
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
  return { shown, map: withinBudget(lines, budget - used, countTokens), empty: files.length === 0 };
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

/** The test file to show as an example on a first turn: most words shared with the task, then the smallest. */
function exampleTest(code: readonly WorkspaceFile[], input: ContextFilesInput): string | undefined {
  const words = new Set((input.task.toLowerCase().match(/[a-z]{4,}/g) ?? []).map(stem));
  const score = (path: string) => pathWords(path).filter((w) => words.has(w)).length;
  return code
    .filter((f) => f.size > 0 && input.isTestFile(f.path) && !/(^|\/)conftest\.py$/.test(f.path))
    .sort((a, b) => score(b.path) - score(a.path) || a.size - b.size || a.path.localeCompare(b.path))[0]?.path;
}

/** The words of a path (folders and file name, split at separators and camelCase), stemmed. */
function pathWords(path: string): string[] {
  return path
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length >= 4 && w !== 'test' && w !== 'tests' && w !== 'spec')
    .map(stem);
}

/** A crude stem, so `parsing` meets `parse` and `units` meets `unit`. */
function stem(word: string): string {
  return word.replace(/(?:ing|ers|er|es|s|e)$/, '');
}

/** Empty files that only keep a folder in git. */
function isPlaceholder(path: string, size: number): boolean {
  return size === 0 && /(^|\/)\.(gitkeep|keep)$/.test(path);
}
