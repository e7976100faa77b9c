import type { SimpleGit } from 'simple-git';
import { z } from 'zod';
import { protectedPathReason } from '../../workspaceSandbox/protectedPaths';
import { resolveWorkspacePath } from '../../workspaceSandbox/workspacePath';
import { redactSecrets } from '../../security/redact';
import { defineTool } from '../types';
import { BuiltinToolError } from './errors';
import { FALLBACK_GIT_IDENTITY } from '../../hostGit/gitEnvironment';
import { gitFailure, openWorkspaceGit, workspaceGit } from './gitWorkspace';
import { DEFAULT_MAX_CONTENT_CHARS, truncateText } from './textLimits';

/** Parameters of `git_status`. */
export const gitStatusParameters = z.object({});

/** What `git_status` returns as `data`. */
export interface GitStatusData {
  branch: string | null;
  ahead: number;
  behind: number;
  clean: boolean;
  files: Array<{ path: string; index: string; workingDir: string }>;
}

/** `git_status` (SAFE): branch and changed, staged and untracked files. */
export const gitStatusTool = defineTool({
  name: 'git_status',
  description: 'Show the git branch and which files are staged, changed or untracked.',
  category: 'git',
  dangerLevel: 'SAFE',
  parameters: gitStatusParameters,
  async execute(_params, context) {
    const { git } = await openWorkspaceGit(context, 'git_status');
    const status = await git.status().catch((error: unknown) => {
      throw gitFailure('git_status', 'git status', error, 'Nothing was changed.');
    });
    const data: GitStatusData = {
      branch: status.current,
      ahead: status.ahead,
      behind: status.behind,
      clean: status.isClean(),
      files: status.files.map((f) => ({ path: f.path, index: f.index, workingDir: f.working_dir })),
    };
    const branch = `On branch ${status.current ?? '(detached HEAD)'}${status.ahead || status.behind ? ` (ahead ${status.ahead}, behind ${status.behind})` : ''}`;
    if (data.clean) return { content: `${branch}\nNothing to commit, working tree clean.`, data };
    const lines = data.files.map((f) => `${f.index}${f.workingDir} ${f.path}`);
    return { content: [branch, 'XY path (X = staged, Y = not staged, ?? = untracked):', ...lines].join('\n'), data };
  },
});

/** Parameters of `git_diff`. */
export const gitDiffParameters = z.object({
  staged: z.boolean().optional().describe('Show staged changes (git diff --cached) instead of unstaged ones (default false).'),
  path: z.string().optional().describe('Limit the diff to this file or folder, relative to the workspace root.'),
});

/** `git_diff` (SAFE): the unstaged (or staged) diff of the workspace or one path, capped with a marker. */
export const gitDiffTool = defineTool({
  name: 'git_diff',
  description:
    'Show the git diff of the workspace (unstaged by default, or staged), optionally for one path. Untracked files are not included.',
  category: 'git',
  dangerLevel: 'SAFE',
  parameters: gitDiffParameters,
  async execute(params, context) {
    const target = await resolveWorkspacePath(context, params.path ?? '.', 'read');
    const { git } = await openWorkspaceGit(context, 'git_diff');
    const args = ['--no-color', '--no-ext-diff', '--no-textconv', ...(params.staged ? ['--cached'] : []), '--', target.relative];
    const diff = await git.diff(args).catch((error: unknown) => {
      throw gitFailure('git_diff', 'git diff', error, 'Nothing was changed.');
    });
    const which = params.staged ? 'staged' : 'unstaged';
    if (diff.trim() === '') {
      const hint = params.staged ? '' : ' (untracked files are not shown; see git_status)';
      return {
        content: `No ${which} changes${target.relative === '.' ? '' : ` in '${target.relative}'`}${hint}.`,
        data: { diff: '', staged: !!params.staged },
      };
    }
    const shown = truncateText(diff, DEFAULT_MAX_CONTENT_CHARS, 'ask for one path at a time');
    return { content: shown.text, data: { diff: shown.text, staged: !!params.staged, truncated: shown.truncated } };
  },
});

/** Parameters of `git_commit`. */
export const gitCommitParameters = z.object({
  message: z.string().trim().min(1).describe('Commit message: a short summary line, optionally a blank line and details.'),
  stage_all: z
    .boolean()
    .optional()
    .describe(
      'Stage every change in the workspace (git add -A) before committing (default true). false commits only what is already staged.',
    ),
});

/** What `git_commit` returns as `data`. */
export interface GitCommitData {
  commit: string;
  branch: string;
  changes: number;
  insertions: number;
  deletions: number;
  /** True when git had no user.name/email and {@link FALLBACK_GIT_IDENTITY} was used. */
  fallbackAuthor: boolean;
  /** Secret files (`.env`, `.env.*`) that were staged and were unstaged instead of committed. */
  leftOut: string[];
}

/**
 * Unstages secret files (see `protectedPathReason(..., 'read')`) so a commit never carries them,
 * and returns their repository-relative names. Before the first commit `git rm --cached` just
 * unstages new files; afterwards `git reset` puts their index entry back to HEAD.
 */
async function unstageSecretFiles(git: SimpleGit): Promise<string[]> {
  const staged = (await git.raw(['diff', '--cached', '--name-only', '-z'])).split('\0').filter(Boolean);
  const secrets = staged.filter((name) => protectedPathReason(name, 'read') !== undefined);
  if (secrets.length === 0) return [];
  const hasHead = await git.raw(['rev-parse', '--verify', '-q', 'HEAD']).then(
    (out) => out.trim() !== '',
    () => false,
  );
  await git.raw(hasHead ? ['reset', '-q', '--', ...secrets] : ['rm', '-q', '--cached', '--', ...secrets]);
  return secrets;
}

/**
 * `git_commit` (MEDIUM): stages the workspace's changes (by default) and commits them. Refuses
 * when nothing is staged; never skips hooks (no `--no-verify`); uses {@link FALLBACK_GIT_IDENTITY}
 * only when git has no identity configured; secrets are redacted from the message and secret
 * files (`.env`, `.env.*`) are unstaged rather than committed.
 */
export const gitCommitTool = defineTool({
  name: 'git_commit',
  description: 'Commit the workspace changes to git with a message (stages all changes first unless stage_all is false).',
  category: 'git',
  dangerLevel: 'MEDIUM',
  parameters: gitCommitParameters,
  preview: (params) => {
    const commit = `git commit -m ${JSON.stringify(params.message)}`;
    return { kind: 'command', commandLine: (params.stage_all ?? true) ? `git add -A -- . && ${commit}` : commit };
  },
  async execute(params, context) {
    const { git, root } = await openWorkspaceGit(context, 'git_commit');
    if (params.stage_all ?? true) {
      await git.raw(['add', '-A', '--', '.']).catch((error: unknown) => {
        throw gitFailure('git_commit', 'git add', error, 'Nothing was committed.');
      });
    }
    const leftOut = await unstageSecretFiles(git).catch((error: unknown) => {
      throw gitFailure('git_commit', 'Checking the staged files', error, 'Nothing was committed.');
    });
    const staged = await git.diff(['--cached', '--name-only']).catch((error: unknown) => {
      throw gitFailure('git_commit', 'Listing the staged files', error, 'Nothing was committed.');
    });
    if (staged.trim() === '') {
      const note = leftOut.length > 0 ? ` Secret files are never committed by this tool: ${leftOut.join(', ')}.` : '';
      throw new BuiltinToolError('git_commit', `Nothing to commit: there are no staged changes.${note} Nothing was committed.`, {
        staged: [],
        leftOut,
      });
    }
    const name = (await git.getConfig('user.name')).value;
    const email = (await git.getConfig('user.email')).value;
    const fallbackAuthor = !name || !email;
    const committer = fallbackAuthor
      ? workspaceGit(root, context.signal, [
          `user.name=${name || FALLBACK_GIT_IDENTITY.name}`,
          `user.email=${email || FALLBACK_GIT_IDENTITY.email}`,
        ])
      : git;
    const message = redactSecrets(params.message);
    const result = await committer.commit(message).catch((error: unknown) => {
      throw gitFailure(
        'git_commit',
        'git commit (a hook may have rejected it)',
        error,
        'Nothing was committed; the changes stay staged.',
      );
    });
    if (!result.commit) {
      throw new BuiltinToolError(
        'git_commit',
        'git commit did not create a commit. Nothing was committed; the changes stay staged.',
      );
    }
    const data: GitCommitData = { commit: result.commit, branch: result.branch, ...result.summary, fallbackAuthor, leftOut };
    const { changes, insertions, deletions } = result.summary;
    const note = leftOut.length > 0 ? ` Left out secret files (unstaged, not committed): ${leftOut.join(', ')}.` : '';
    const summary = `Committed ${result.commit} on ${result.branch}: ${JSON.stringify(message.split('\n')[0])} (${changes} files changed, +${insertions} -${deletions}).${note}`;
    return { content: summary, data };
  },
});
