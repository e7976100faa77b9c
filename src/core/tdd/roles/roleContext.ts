import { compactTestOutput } from '../../testRunners/compactTestOutput';
import { truncateHeadTail } from '../../testRunners/truncateOutput';
import { isTestFile as isTestFileByRules } from '../boundaries/isTestFile';
import { selectContextFiles } from '../context/selectContextFiles';
import { isSetupCommitSubject } from '../git/setupCommits';
import type { Role } from '../../vocabulary';

/** Keeps the head and tail of a long text, marking what was cut. */
function truncateMiddle(text: string, maxChars: number): string {
  return truncateHeadTail(text, maxChars, 'characters truncated');
}

/** Inputs of {@link buildRoleContext}. */
export interface RoleContextInput {
  /** One of the TDD roles, or a role a team added. */
  role: Role | (string & {});
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
  /** The roles' questions to the person so far, each with its answer (or that no one answered). */
  answers?: readonly string[];
  /** Which files are tests (default: by the kata's test folder and the usual naming conventions). */
  isTestFile?: (path: string) => boolean;
  /** The test files being written (changed since the last commit) and those the last run named: shown first. */
  focusFiles?: readonly string[];
  /** Files the session changed so far, committed or not: shown after the focus files. */
  sessionFiles?: readonly string[];
  /**
   * The file contents this role was shown on its previous turn, by path; replaced by this turn's. Files changed since
   * then are shown after the unchanged ones: first those that only grew at the end, then the test files (tests are
   * added at the end of a test file), then the rest, so that what the role saw last turn stays in the cached prefix as
   * far as it can. Without it (or on a role's first turn) every file is ordered by its last change.
   */
  shownBefore?: Map<string, string>;
  /** Tokens the file contents and the repository map may take (a real tokenizer; default 6 000; the role config's `context_tokens`). */
  fileTokenBudget?: number;
  /** A section of the phase's own, last (a Reviewer: the diff it reviews). */
  extra?: string;
  signal?: AbortSignal;
}

/** Default of {@link RoleContextInput.fileTokenBudget}. */
export const DEFAULT_CONTEXT_TOKENS = 6000;
const TEST_OUTPUT_CHARS = 4000;

/**
 * Builds the one user message a role gets for a turn, ordered from the most stable part to the most volatile one so
 * that a provider's prefix caching can serve most of each request: the kata or task, the session facts that never
 * change (language, folders, test command), the roles' questions to the person
 * with the answers, the files chosen by relevance within a
 * token budget (see `selectContextFiles`: the test files being written or named by the last run, the files the session
 * changed, the code they import; the least recently changed first, those changed since the role's previous turn
 * last, the test files among them first), the repository map (every other code file with its exported symbols, then
 * docs, CI, manifests and lockfiles by path and size), the recent commits, this turn's cycle and attempt numbers, the
 * supervisor's notices, the last test output (one line when it passed) and, on a retry, why the previous attempt was
 * rejected. Test output is shown once: when the rejection reason quotes it, it is not repeated. The workspace's
 * absolute path is written `.` in test output, and runtime stack frames, timings and the runner's platform header
 * are left out (compactTestOutput).
 */
export async function buildRoleContext(input: RoleContextInput): Promise<string> {
  const sections: string[] = [];

  // A description that opens with the kata's own title heading is not given a second one. The Refactorer improves
  // code the tests already pin down: the task's title is enough for it (the behaviours are in the tests it reads).
  const description = input.kataDescription.trim();
  if (input.role === 'refactorer') sections.push(`# Kata: ${input.kataTitle}`);
  else
    sections.push(
      description.startsWith(`# ${input.kataTitle}\n`) ? description : `# Kata: ${input.kataTitle}\n\n${description}`,
    );
  sections.push(
    [
      '# Session',
      `- language: ${input.language}`,
      `- production code folder: ${input.sourceDir}`,
      `- test folder: ${input.testDir}`,
      `- test command: ${input.testCommand}`,
    ].join('\n'),
  );
  if (input.answers?.length) sections.push(`# Questions to the person\n${input.answers.join('\n\n')}`);

  const isTestFile = input.isTestFile ?? ((path: string) => isTestFileByRules(path, input));
  const chosen = await selectContextFiles({
    workspaceRoot: input.workspaceRoot,
    isTestFile,
    focusFiles: input.focusFiles,
    sessionFiles: input.sessionFiles,
    task: `${input.kataTitle} ${description}`,
    budgetTokens: input.fileTokenBudget ?? DEFAULT_CONTEXT_TOKENS,
    // What the role edits next is shown whole: the Tester's test file; the code it reaches for the other two.
    editsNext:
      input.role === 'tester' ? 'test' : input.role === 'implementer' || input.role === 'refactorer' ? 'code' : undefined,
    signal: input.signal,
  });
  const shown = new Map(chosen.shown.map((f) => [f.path, f.block]));
  // Shown in the order they last changed: what did not change since the role's last turn stays in the cached prefix.
  // Of the files changed since then, the tests come first: tests are added at the end of a test file, so its start
  // (what the role saw last turn) still follows the unchanged files, where the changed production code would break it.
  const before = input.shownBefore;
  const group = (path: string) => {
    const was = before?.size ? before.get(path) : shown.get(path);
    const now = shown.get(path) ?? '';
    return was === now ? 0 : was !== undefined && now.startsWith(was.slice(0, -4)) ? 1 : isTestFile(path) ? 2 : 3;
  };
  const byChange = [...chosen.shown].sort(
    (a, b) => group(a.path) - group(b.path) || a.mtimeMs - b.mtimeMs || a.path.localeCompare(b.path),
  );
  if (before) {
    before.clear();
    for (const [path, block] of shown) before.set(path, block);
  }
  if (chosen.empty) sections.push('# Files\n(the workspace is empty)');
  if (byChange.length) sections.push(`# File contents\n${byChange.map((f) => f.block).join('\n\n')}`);
  if (chosen.map.length)
    sections.push(`# Repository map (not shown above; read_file shows any of them)\n${chosen.map.join('\n')}`);

  sections.push(
    `# Recent commits\n${
      input.recentCommits.some((c) => !isSetupCommit(c))
        ? input.recentCommits
            .filter((c) => !isSetupCommit(c))
            .slice(0, 5)
            .map((c) => `- ${withoutHash(c)}`)
            .join('\n')
        : '(none yet)'
    }`,
  );
  sections.push(
    ['# This turn', `- cycle: ${input.cycle} of ${input.maxCycles}`, `- attempt: ${input.attempt} of ${input.maxAttempts}`].join(
      '\n',
    ),
  );
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
  if (input.extra?.trim()) sections.push(input.extra.trim());

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

/** A commit line (`<hash> <subject>`) of the session's own set-up (see `setupCommits.ts`): nothing for a role to read. */
function isSetupCommit(line: string): boolean {
  return isSetupCommitSubject(withoutHash(line));
}
