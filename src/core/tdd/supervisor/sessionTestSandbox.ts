import { resolve } from 'node:path';
import { productGit } from '../../hostGit/gitClient';
import { createProcessSandbox, worktreePolicy, type ProcessSandbox, type SandboxMode } from '../../osSandbox';
import { prepareProjectDependencies } from '../dependencies/projectDependencies';
import { SESSION_BRANCH_PREFIX, sessionsDirFor } from '../git';
import { SessionLock } from '../session/sessionLock';
import { SessionStore } from '../session/sessionStore';

/** Where and how {@link sessionTestSandbox} runs a session's tests. */
export interface SessionTestSandboxOptions {
  /** The session's worktree, or a temporary checkout of its branch (a completed session's worktree is removed). */
  dir: string;
  /** The session's branch (`tdd/…`): its record gives the project's installed dependencies. */
  branch?: string;
  /**
   * Hold the session's lock while the tests run, naming this purpose to a process refused meanwhile (a CLI
   * `--resume`): set it when `dir` is the session's own worktree.
   */
  lockAs?: string;
  /** The sandbox mode (`auto`, `bwrap`, `off`…). */
  mode: SandboxMode;
  /** Names of environment variables the test command may see. */
  passEnvironment?: string[];
}

/** The sandbox to run a session's tests in, and what to release when they have run. */
export interface SessionTestSandbox {
  /** The OS sandbox, confined as the session's own test runs are. */
  sandbox: ProcessSandbox;
  /** Releases the session's lock, when one was taken; never throws. */
  release(): Promise<void>;
}

/**
 * The confinement of a session's own test runs, for a run outside the session (VS Code's Testing view): writes only
 * in `dir`, `.git` read-only, the project's installed dependencies shown read-only as the supervisor shows them (from
 * the session's record; only what `dir` holds when the record is gone). With `lockAs`, one process at a time in the
 * session's worktree: a `SessionLockedError` when the session runs elsewhere.
 */
export async function sessionTestSandbox(options: SessionTestSandboxOptions): Promise<SessionTestSandbox> {
  const { dir, branch, mode } = options;
  const commonDir = resolve(dir, (await productGit(dir).run(['rev-parse', '--git-common-dir'])).trim());
  const id = branch?.startsWith(SESSION_BRANCH_PREFIX) ? branch.slice(SESSION_BRANCH_PREFIX.length) : undefined;
  const lock = id && options.lockAs ? await SessionLock.acquire(sessionsDirFor(commonDir), id, options.lockAs) : undefined;
  try {
    const state = id ? await new SessionStore(sessionsDirFor(commonDir), id).load().catch(() => undefined) : undefined;
    const gitDir = state ? resolve(dir, (await productGit(dir).run(['rev-parse', '--absolute-git-dir'])).trim()) : '';
    const dependencies = state
      ? await prepareProjectDependencies({ ...state.git, worktree: dir, worktreeGitDir: gitDir }, { sandbox: mode })
      : undefined;
    const sandbox = await createProcessSandbox(
      mode,
      worktreePolicy(dir, commonDir, options.passEnvironment, dependencies?.sandbox),
    );
    return { sandbox, release: async () => void (await lock?.release().catch(() => undefined)) };
  } catch (error) {
    await lock?.release().catch(() => undefined);
    throw error;
  }
}
