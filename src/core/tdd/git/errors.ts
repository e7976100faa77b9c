import { AgentError } from '../../errors/agentError';
import type { ChangedFile } from './changedFiles';

const SHOWN_FILES = 10;

/**
 * The workspace has uncommitted work, so a session will not start: nothing was touched. The message
 * lists the files and the two ways out; `details.files` has every changed path.
 */
export class WorkspaceDirtyError extends AgentError {
  /** Every changed path (the message shows the first ten). */
  readonly files: ChangedFile[];

  constructor(workspace: string, files: ChangedFile[], options: { notARepository?: boolean } = {}) {
    const shown = files.slice(0, SHOWN_FILES).map((f) => `${f.path} (${f.change})`);
    const more = files.length > SHOWN_FILES ? `, and ${files.length - SHOWN_FILES} more` : '';
    const what = options.notARepository
      ? `${workspace} is not a git repository and already holds files`
      : `${workspace} has uncommitted changes`;
    super(
      'WORKSPACE_DIRTY',
      `${what}: ${shown.join(', ')}${more}. Nothing was changed. Either commit or stash them yourself ` +
        `(git add -A && git commit, or git stash --include-untracked), or pass the stash option (--stash) ` +
        `to have them stashed now and restored when the session ends.`,
      { workspace, files, notARepository: options.notARepository ?? false },
    );
    this.name = 'WorkspaceDirtyError';
    this.files = files;
  }
}

/** A git operation failed; the message says which and what the repository looks like now. */
export class GitOperationError extends AgentError {
  constructor(message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super('GIT_FAILED', message, details, options);
    this.name = 'GitOperationError';
  }
}
