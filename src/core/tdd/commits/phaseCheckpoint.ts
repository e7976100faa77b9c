import { getLogger } from '../../logging/logger';
import {
  readTreeEntry,
  removeTreeEntry,
  sameTreeEntry,
  writeTreeFile,
  writeTreeSymlink,
  type TreeEntry,
} from '../../workspaceSandbox/untrustedTree';
import type { ChangedFile } from '../git/changedFiles';

const log = getLogger('tdd.checkpoint');

/** Largest file a checkpoint keeps the bytes of (a larger one is noted, and cannot be put back). */
export const CHECKPOINT_MAX_FILE_BYTES = 8 * 1024 * 1024;

/** What the checkpoint needs from git: files that differ from HEAD, and putting paths back as HEAD has them. */
export interface CheckpointGit {
  /** Paths (workspace-relative, forward slashes) that differ from HEAD, untracked ones included. */
  changedFiles(): Promise<ChangedFile[]>;
  /**
   * Puts the given paths back as HEAD has them: modified and deleted files restored, files HEAD does not have removed.
   * Done by git, which replaces a link or special file standing on the way instead of following it.
   */
  revertPaths(paths: string[]): Promise<void>;
  /** A file's text as HEAD has it, or null when HEAD has no such file (without it, a checkpoint knows only what it saved). */
  headContent?(path: string): Promise<string | null>;
}

/**
 * The state of the working tree at the start of a phase, relative to HEAD. Because the red test
 * is never committed on its own (no commit ever has failing tests), "undo this role's changes"
 * cannot be a git reset: the checkpoint remembers what stood at every path that already
 * differed from HEAD and restores exactly that, leaving earlier phases' work in place; every
 * other path is put back by git, as HEAD has it.
 *
 * The tree is the generated code's to write, so the checkpoint trusts nothing in it: it never follows a link
 * (a file swapped for a link to the repository's config is replaced, not written through), never opens a
 * special file, never reads more than 8 MiB of a file (`CHECKPOINT_MAX_FILE_BYTES`), and never writes through a
 * hard link (see `untrustedTree.ts`). A link it saved is put back as the same link; a FIFO, a folder or a file
 * too large to keep is not restorable: it is removed when it changed, and logged.
 */
export class PhaseCheckpoint {
  private constructor(
    private readonly root: string,
    private readonly git: CheckpointGit,
    /** path → what stood there at the checkpoint. Only paths that differed from HEAD. */
    private readonly saved: Map<string, TreeEntry>,
  ) {}

  /**
   * Records the current difference from HEAD. `clean: true` says the caller knows nothing differs from HEAD (it has
   * just committed everything or rolled back to HEAD), which saves a git status.
   */
  static async take(root: string, git: CheckpointGit, options: { clean?: boolean } = {}): Promise<PhaseCheckpoint> {
    const saved = new Map<string, TreeEntry>();
    for (const change of options.clean ? [] : await git.changedFiles()) {
      saved.set(
        change.path,
        change.change === 'deleted' ? { kind: 'missing' } : await readTreeEntry(root, change.path, CHECKPOINT_MAX_FILE_BYTES),
      );
    }
    return new PhaseCheckpoint(root, git, saved);
  }

  /**
   * The files changed since the checkpoint, with how. One git status: a path that differs from HEAD now but did
   * not at the checkpoint changed since, as git says (its checkpoint content was HEAD's); only the paths that
   * already differed at the checkpoint are compared with what was saved (without following links).
   */
  async changesSince(): Promise<ChangedFile[]> {
    const now = new Map((await this.git.changedFiles()).map((c) => [c.path, c]));
    const candidates = new Set<string>([...this.saved.keys(), ...now.keys()]);
    const changes: ChangedFile[] = [];
    for (const path of [...candidates].sort()) {
      const before = this.saved.get(path);
      if (!before) {
        changes.push(now.get(path)!);
        continue;
      }
      const current = await readTreeEntry(this.root, path, CHECKPOINT_MAX_FILE_BYTES);
      if (sameTreeEntry(before, current)) continue;
      changes.push({
        path,
        change: before.kind === 'missing' ? 'added' : current.kind === 'missing' ? 'deleted' : 'modified',
      });
    }
    return changes;
  }

  /**
   * A file's text at the checkpoint: what was saved for a path that differed from HEAD then, else HEAD's. Undefined when
   * there was no such file (or it was not a file whose bytes the checkpoint kept, or git cannot say).
   */
  async textBefore(path: string): Promise<string | undefined> {
    const saved = this.saved.get(path);
    if (saved) return saved.kind === 'file' ? saved.content.toString('utf8') : undefined;
    return (await this.git.headContent?.(path).catch(() => null)) ?? undefined;
  }

  /**
   * Restores the given paths (default: every change since the checkpoint) to what they were at the checkpoint:
   * paths that matched HEAD through git, then the saved ones, each written without following any link.
   */
  async restore(paths?: string[]): Promise<string[]> {
    const targets = paths ?? (await this.changesSince()).map((c) => c.path);
    const fromHead = targets.filter((p) => !this.saved.has(p));
    // In batches: a test can leave more paths than one command line holds.
    for (let i = 0; i < fromHead.length; i += 500) await this.git.revertPaths(fromHead.slice(i, i + 500));
    for (const path of targets) {
      const entry = this.saved.get(path);
      if (entry) await this.put(path, entry);
    }
    return targets;
  }

  private async put(path: string, entry: TreeEntry): Promise<void> {
    switch (entry.kind) {
      case 'file':
        return writeTreeFile(this.root, path, entry.content, entry.executable);
      case 'symlink':
        return writeTreeSymlink(this.root, path, entry.target);
      case 'missing':
        return removeTreeEntry(this.root, path);
      case 'too_large':
      case 'other':
        if (sameTreeEntry(entry, await readTreeEntry(this.root, path, CHECKPOINT_MAX_FILE_BYTES))) return;
        // Nothing to put back: what stands there now is not what was there, so it goes.
        log.warn('a path saved at the checkpoint could not be restored; it was removed', {
          path,
          kind: entry.kind === 'other' ? entry.type : 'file too large to keep',
        });
        return removeTreeEntry(this.root, path);
    }
  }
}
