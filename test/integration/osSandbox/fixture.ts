import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { probeSandbox, worktreePolicy } from '../../../src/core/osSandbox';
import type { SandboxPolicy } from '../../../src/core/osSandbox';

/** A real repository with a `git worktree add` worktree, laid out like a session: all under one temp folder. */
export interface WorktreeFixture {
  /** The temp folder holding everything. */
  root: string;
  /** The repository's working tree. */
  repo: string;
  /** The session worktree (its `.git` is a file pointing into `<repo>/.git/worktrees/`). */
  worktree: string;
  /** The repository's common git dir (`<repo>/.git`). */
  commonDir: string;
  /** A HOME folder with a file the sandboxed code must not see. */
  home: string;
  /** The sandbox policy of a session on this worktree. */
  policy: SandboxPolicy;
  cleanup(): void;
}

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
  }).trim();

/** Creates the repository, its worktree and a fake HOME under `parent` (default: a fresh folder in os.tmpdir()). */
export function createWorktree(parent?: string): WorktreeFixture {
  if (parent) mkdirSync(parent, { recursive: true });
  const root = realpathSync(parent ?? mkdtempSync(join(tmpdir(), 'os-sandbox-')));
  const repo = join(root, 'repo');
  mkdirSync(repo, { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'README.md'), '# kata\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'init');
  const worktree = join(root, 'worktree');
  git(repo, 'worktree', 'add', '-q', '-b', 'tdd/session', worktree);
  const commonDir = resolve(worktree, git(worktree, 'rev-parse', '--git-common-dir'));
  const home = join(root, 'home');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY OF THE PERSON\n');
  return {
    root,
    repo,
    worktree,
    commonDir,
    home,
    policy: worktreePolicy(worktree, commonDir),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * Skips the suite when bubblewrap cannot run here, with the reason, except on CI (`CI` set), where a
 * missing sandbox fails the suite: CI installs bubblewrap, so a skip there would hide a broken sandbox.
 */
export async function requireBubblewrap(context: Mocha.Context): Promise<void> {
  if (process.platform !== 'linux') {
    if (process.env.CI) throw new Error(`The OS sandbox tests need Linux with bubblewrap; this is ${process.platform}.`);
    context.skip();
  }
  const probe = await probeSandbox();
  if (probe.available) return;
  if (process.env.CI) throw new Error(`bubblewrap must work on CI (.ci/run installs it), but: ${probe.reason}`);
  process.stderr.write(`  skipping the OS sandbox tests: ${probe.reason}\n`);
  context.skip();
}

/** Command lines of every process on the host (`ps`), to look for survivors. */
export function hostProcesses(): string[] {
  return execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' }).split('\n');
}
