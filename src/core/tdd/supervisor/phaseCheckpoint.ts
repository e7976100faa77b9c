import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import type { ChangedFile } from '../git/changedFiles';

/** What the checkpoint needs from git: files that differ from HEAD, and HEAD's content of a path. */
export interface CheckpointGit {
  /** Paths (workspace-relative, forward slashes) that differ from HEAD, untracked ones included. */
  changedFiles(): Promise<ChangedFile[]>;
  /** HEAD's content of a path, or null when HEAD has no such file. */
  headContent(path: string): Promise<string | null>;
}

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

async function writeOrDelete(path: string, content: string | null): Promise<void> {
  if (content === null) {
    await rm(path, { force: true });
  } else {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content, 'utf8');
  }
}

/**
 * The state of the working tree at the start of a phase, relative to HEAD. Because the red test
 * is never committed on its own (no commit ever has failing tests), "undo this role's changes"
 * cannot be a git reset: the checkpoint remembers the content of every file that already
 * differed from HEAD and restores exactly that, leaving earlier phases' work in place.
 */
export class PhaseCheckpoint {
  private constructor(
    private readonly root: string,
    private readonly git: CheckpointGit,
    /** path → content at the checkpoint (null: the file did not exist). Only files differing from HEAD. */
    private readonly saved: Map<string, string | null>,
  ) {}

  /**
   * Records the current difference from HEAD. `clean: true` says the caller knows nothing differs from HEAD (it has
   * just committed everything or rolled back to HEAD), which saves a git status.
   */
  static async take(root: string, git: CheckpointGit, options: { clean?: boolean } = {}): Promise<PhaseCheckpoint> {
    const saved = new Map<string, string | null>();
    for (const change of options.clean ? [] : await git.changedFiles()) {
      saved.set(change.path, change.change === 'deleted' ? null : await readOrNull(join(root, change.path)));
    }
    return new PhaseCheckpoint(root, git, saved);
  }

  /** Content a path had at the checkpoint. */
  private async contentAtCheckpoint(path: string): Promise<string | null> {
    return this.saved.has(path) ? (this.saved.get(path) ?? null) : this.git.headContent(path);
  }

  /**
   * The files changed since the checkpoint, with how. One git status: a path that differs from HEAD now but did
   * not at the checkpoint changed since, as git says (its checkpoint content was HEAD's); only the paths that
   * already differed at the checkpoint are compared with their saved content.
   */
  async changesSince(): Promise<ChangedFile[]> {
    const now = new Map((await this.git.changedFiles()).map((c) => [c.path, c]));
    const candidates = new Set<string>([...this.saved.keys(), ...now.keys()]);
    const changes: ChangedFile[] = [];
    for (const path of [...candidates].sort()) {
      if (!this.saved.has(path)) {
        changes.push(now.get(path)!);
        continue;
      }
      const before = this.saved.get(path) ?? null;
      const current = await readOrNull(join(this.root, path));
      if (before === current) continue;
      changes.push({ path, change: before === null ? 'added' : current === null ? 'deleted' : 'modified' });
    }
    return changes;
  }

  /** Restores the given paths (default: every change since the checkpoint) to their checkpoint content. */
  async restore(paths?: string[]): Promise<string[]> {
    const targets = paths ?? (await this.changesSince()).map((c) => c.path);
    for (const path of targets) {
      await writeOrDelete(join(this.root, path), await this.contentAtCheckpoint(path));
    }
    return targets;
  }
}
