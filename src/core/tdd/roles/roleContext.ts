import { truncateHeadTail } from '../../testRunners/truncateOutput';
import type { Role } from '../events';
import { listWorkspaceFiles, readTextFile } from './workspaceSnapshot';

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
  /** Why the previous attempt was rejected (violation, overshoot, red tests, failed gate). */
  lastError?: string;
  /** Token budget for file contents (default 6 000). */
  fileTokenBudget?: number;
  signal?: AbortSignal;
}

const TEST_OUTPUT_CHARS = 4000;

/**
 * Builds the one user message a role gets for a turn: the kata, where things live, the file tree,
 * file contents within a token budget (truncation marked), recent commits, the last test output
 * and, on a retry, why the previous attempt was rejected.
 */
export async function buildRoleContext(input: RoleContextInput): Promise<string> {
  const files = await listWorkspaceFiles(input.workspaceRoot, input.signal);
  const budgetChars = (input.fileTokenBudget ?? 6000) * 4; // rough: 4 characters a token
  const sections: string[] = [];

  sections.push(`# Kata: ${input.kataTitle}\n\n${input.kataDescription.trim()}`);
  sections.push(
    [
      '# Session',
      `- role: ${input.role}`,
      `- cycle: ${input.cycle} of at most ${input.maxCycles}`,
      `- attempt: ${input.attempt} of ${input.maxAttempts}`,
      `- language: ${input.language}`,
      `- production code folder: ${input.sourceDir}`,
      `- test folder: ${input.testDir}`,
      `- test command (the supervisor runs it): ${input.testCommand}`,
    ].join('\n'),
  );
  if (input.lastError) sections.push(`# Your previous attempt was rejected\n${input.lastError.trim()}`);

  sections.push(`# Files\n${files.length ? files.map((f) => `- ${f.path} (${f.size} bytes)`).join('\n') : '(the workspace is empty)'}`);

  let used = 0;
  const contents: string[] = [];
  const omitted: string[] = [];
  for (const file of files) {
    const text = await readTextFile(input.workspaceRoot, file.path);
    if (text === undefined || isNoise(file.path)) continue;
    const block = `## ${file.path}\n\`\`\`\n${text}\n\`\`\``;
    if (used + block.length <= budgetChars) {
      contents.push(block);
      used += block.length;
    } else if (budgetChars - used > 400) {
      contents.push(`## ${file.path}\n\`\`\`\n${truncateMiddle(text, budgetChars - used - 200)}\n\`\`\``);
      used = budgetChars;
    } else {
      omitted.push(file.path);
    }
  }
  if (contents.length) sections.push(`# File contents\n${contents.join('\n\n')}`);
  if (omitted.length) sections.push(`[${omitted.length} file(s) not shown to stay within the token budget: ${omitted.join(', ')}; use read_file]`);

  sections.push(`# Recent commits\n${input.recentCommits.length ? input.recentCommits.slice(0, 5).map((c) => `- ${c}`).join('\n') : '(none yet)'}`);
  if (input.lastTestOutput) sections.push(`# Last test output\n\`\`\`\n${truncateMiddle(input.lastTestOutput.trim(), TEST_OUTPUT_CHARS)}\n\`\`\``);

  return sections.join('\n\n');
}

/** Lock files and the like cost tokens and say nothing about the kata. */
function isNoise(path: string): boolean {
  return /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|poetry\.lock)$/.test(path);
}
