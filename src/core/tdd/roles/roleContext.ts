import { compactTestOutput } from '../../testRunners/compactTestOutput';
import { truncateHeadTail } from '../../testRunners/truncateOutput';
import type { Role } from '../events';
import { listWorkspaceFiles, MAX_CONTEXT_FILE_BYTES, readTextFile, type WorkspaceText } from './workspaceSnapshot';

/** Keeps the head and tail of a long text, marking what was cut. */
function truncateMiddle(text: string, maxChars: number): string {
  return truncateHeadTail(text, maxChars, 'characters truncated');
}

/** Inputs of {@link buildRoleContext}. */
export interface RoleContextInput {
  role: Role;
  kataTitle: string;
  kataDescription: string;
  language: string;
  sourceDir: string;
  testDir: string;
  testCommand: string;
  workspaceRoot: string;
  cycle: number;
  maxCycles: number;
  attempt: number;
  maxAttempts: number;
  /** Last five commits, newest first, as one-line strings. */
  recentCommits: string[];
  lastTestOutput?: string;
  /**
   * The counts of the run that printed `lastTestOutput`. When it passed, the context says so in one line instead of
   * repeating the output (the role has the test files in full, and run_tests shows the output).
   */
  lastTestRun?: { status: string; passed: number; failed: number; total: number };
  /** Why the previous attempt was rejected (violation, overshoot, red tests, failed gate). */
  lastError?: string;
  /** What the supervisor did since the role's last turn outside the role rules (e.g. protected files it put back). */
  notices?: readonly string[];
  /**
   * The file contents this role was shown on its previous turn, by path; replaced by this turn's. Files changed since
   * then are shown after the unchanged ones: first those that only grew at the end, then the test files (tests are
   * added at the end of a test file), then the rest, so that what the role saw last turn stays in the cached prefix as
   * far as it can. Without it (or on a role's first turn) every file is ordered by its last change.
   */
  shownBefore?: Map<string, string>;
  /** Token budget for file contents (default 6 000). */
  fileTokenBudget?: number;
  signal?: AbortSignal;
}

const TEST_OUTPUT_CHARS = 4000;
const EMPTY: WorkspaceText = { kind: 'text', text: '' };

/**
 * Builds the one user message a role gets for a turn, ordered from the most stable part to the most volatile one so
 * that a provider's prefix caching can serve most of each request: the kata, the session facts that never change
 * (language, folders, test command, and the cycle and attempt limits, which would otherwise sit in the per-turn
 * lines after the first change), the other files by path and size, the contents of the files in the test and
 * production folders (the least recently changed first, those changed since the role's previous turn last with the
 * test files among them first; each file once, within a token budget; truncation marked; a file over 256 KiB, a link
 * or a special file is never read), the recent commits, this turn's cycle and attempt numbers, the supervisor's
 * notices (files it put back), the last test output (one line when it passed) and, on a retry, why the previous
 * attempt was rejected. Test output is shown once: when the rejection reason quotes it, it is not repeated. The
 * workspace's absolute path is written `.` in test output, and runtime stack frames, timings and the runner's
 * platform header are left out (compactTestOutput).
 */
export async function buildRoleContext(input: RoleContextInput): Promise<string> {
  const files = await listWorkspaceFiles(input.workspaceRoot, input.signal);
  const budgetChars = (input.fileTokenBudget ?? 6000) * 4; // rough: 4 characters a token
  const sections: string[] = [];

  // A description that opens with the kata's own title heading is not given a second one.
  const description = input.kataDescription.trim();
  sections.push(description.startsWith(`# ${input.kataTitle}\n`) ? description : `# Kata: ${input.kataTitle}\n\n${description}`);
  sections.push(
    [
      '# Session',
      `- language: ${input.language}`,
      `- production code folder: ${input.sourceDir}`,
      `- test folder: ${input.testDir}`,
      `- test command (the supervisor runs it): ${input.testCommand}`,
      `- at most ${input.maxCycles} cycles, ${input.maxAttempts} attempts per turn`,
    ].join('\n'),
  );

  // Which files are shown in full: the test and production folders first, then the rest, within the budget.
  const folderOf = (dir: string) => {
    const folder = dir.replace(/^\.\/+/, '').replace(/\/+$/, '');
    return folder === '.' ? '' : folder;
  };
  const inFolder = (path: string, dir: string) => {
    const folder = folderOf(dir);
    return folder === '' || folder === '.' || path === folder || path.startsWith(`${folder}/`);
  };
  // A test file: in the test folder, unless the tests sit in the production folder itself or beside it at the root.
  const isTestFile = (path: string) =>
    inFolder(path, input.testDir) &&
    (!inFolder(path, input.sourceDir) || folderOf(input.testDir).length > folderOf(input.sourceDir).length);
  const needed = (path: string) => inFolder(path, input.testDir) || inFolder(path, input.sourceDir);
  let used = 0;
  const shown = new Map<string, string>();
  const notShown: string[] = [];
  const omitted: string[] = [];
  for (const file of files) {
    // Everything outside the test and production folders (manifests, configs) is listed by path and size.
    const read: WorkspaceText | undefined =
      file.size === 0 ? EMPTY : needed(file.path) ? await readTextFile(input.workspaceRoot, file.path) : undefined;
    const text = read?.kind === 'text' ? read.text : undefined;
    if (text === '' && isPlaceholder(file.path)) continue; // an empty .gitkeep only says its folder exists
    if (text === undefined || text === '' || isNoise(file.path)) {
      const what =
        text === ''
          ? 'empty'
          : read?.kind === 'too_large'
            ? `${read.size} bytes, too large to show: over ${MAX_CONTEXT_FILE_BYTES} bytes`
            : `${file.size} bytes`;
      notShown.push(`- ${file.path} (${what})`);
      continue;
    }
    const block = `## ${file.path}\n\`\`\`\n${text}\n\`\`\``;
    if (used + block.length <= budgetChars) {
      shown.set(file.path, block);
      used += block.length;
    } else if (budgetChars - used > 400) {
      shown.set(file.path, `## ${file.path}\n\`\`\`\n${truncateMiddle(text, budgetChars - used - 200)}\n\`\`\``);
      used = budgetChars;
    } else {
      omitted.push(file.path);
      notShown.push(`- ${file.path} (${file.size} bytes)`);
    }
  }
  if (!files.length) sections.push('# Files\n(the workspace is empty)');
  if (notShown.length) sections.push(`# Other files (not shown)\n${notShown.sort().join('\n')}`);
  // Shown in the order they last changed: what did not change since the role's last turn stays in the cached prefix.
  // Of the files changed since then, the tests come first: tests are added at the end of a test file, so its start
  // (what the role saw last turn) still follows the unchanged files, where the changed production code would break it.
  const before = input.shownBefore;
  const group = (path: string) => {
    const was = before?.size ? before.get(path) : shown.get(path);
    const now = shown.get(path) ?? '';
    return was === now ? 0 : was !== undefined && now.startsWith(was.slice(0, -4)) ? 1 : isTestFile(path) ? 2 : 3;
  };
  const byChange = files
    .filter((f) => shown.has(f.path))
    .sort((a, b) => group(a.path) - group(b.path) || a.mtimeMs - b.mtimeMs || a.path.localeCompare(b.path));
  if (before) {
    before.clear();
    for (const [path, block] of shown) before.set(path, block);
  }
  if (byChange.length) sections.push(`# File contents\n${byChange.map((f) => shown.get(f.path)).join('\n\n')}`);
  if (omitted.length)
    sections.push(`[${omitted.length} file(s) not shown to stay within the token budget: ${omitted.join(', ')}; use read_file]`);

  sections.push(
    `# Recent commits\n${
      input.recentCommits.length
        ? input.recentCommits
            .slice(0, 5)
            .map((c) => `- ${withoutHash(c)}`)
            .join('\n')
        : '(none yet)'
    }`,
  );
  sections.push(['# This turn', `- cycle: ${input.cycle}`, `- attempt: ${input.attempt}`].join('\n'));
  if (input.notices?.length) sections.push(`# Supervisor notice\n${input.notices.join('\n\n')}`);

  const output = input.lastTestOutput?.trim();
  const error = input.lastError?.trim();
  const local = (text: string) => compactTestOutput(relativePaths(text, input.workspaceRoot));
  const run = input.lastTestRun;
  if (output && run?.status === 'passed' && !error?.includes(output)) {
    sections.push(`# Last test run\nAll ${run.total} test(s) passed.`);
  } else if (output && !error?.includes(output))
    sections.push(`# Last test output\n\`\`\`\n${truncateMiddle(local(output), TEST_OUTPUT_CHARS)}\n\`\`\``);
  if (error) sections.push(`# Your previous attempt was rejected\n${local(error)}`);

  return sections.join('\n\n');
}

/** Writes the workspace's absolute path as `.` (test runners print it on every line; it says nothing). */
function relativePaths(text: string, root: string): string {
  const trimmed = root.replace(/[\\/]+$/, '');
  return trimmed.length > 1 ? text.split(trimmed).join('.') : text;
}

/** A commit line without its leading abbreviated hash (the roles have no use for it; it costs tokens). */
function withoutHash(line: string): string {
  return line.replace(/^[0-9a-f]{7,40} /, '');
}

/** Empty files that only keep a folder in git. */
function isPlaceholder(path: string): boolean {
  return /(^|\/)\.(gitkeep|keep)$/.test(path);
}

/** Lock files and the like cost tokens and say nothing about the kata. */
function isNoise(path: string): boolean {
  return /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|poetry\.lock)$/.test(path);
}
