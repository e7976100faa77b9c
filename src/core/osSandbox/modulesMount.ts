import { readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { ModulesMount } from './types';

/** Where, below the mount's target, the source folder itself is mounted read-only. */
export const MODULES_SOURCE_DIR = join('.tdd-agent', 'node_modules');

/**
 * Dot-entries of a `node_modules` that are part of the install (linked like packages). Any other dot-entry is a
 * tool's cache (`.vite`, `.vite-temp`, `.cache`, `.vitest`): left out, so the tool writes a fresh one in the
 * private folder instead of failing on the read-only source.
 */
const INSTALL_DOT_ENTRIES = new Set([
  '.bin',
  '.pnpm',
  '.modules.yaml',
  '.package-lock.json',
  '.yarn-state.yml',
  '.yarn-integrity',
]);

/** One top-level entry of the mounted folder: a link at `<target>/<name>` to `target` (relative to `<target>`, or absolute). */
export interface ModulesEntry {
  name: string;
  link: string;
}

/**
 * The links that make `<target>` look like the source: each package folder (and scope folder, `.bin`, `.pnpm`)
 * linked into the read-only mount; each link of the source copied with its own text, so a relative one resolves
 * from the worktree as it did from the person's checkout. Read on every launch: a person who installs again during
 * the session is seen at the next run. A source that cannot be read gives no entries (the run then reports the
 * missing module as it would anywhere).
 */
export function modulesEntries(source: string): ModulesEntry[] {
  let entries;
  try {
    entries = readdirSync(source, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: ModulesEntry[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.') && !INSTALL_DOT_ENTRIES.has(entry.name)) continue;
    if (entry.isSymbolicLink()) {
      try {
        out.push({ name: entry.name, link: readlinkSync(join(source, entry.name)) });
      } catch {
        /* removed while listing */
      }
    } else {
      out.push({ name: entry.name, link: join(MODULES_SOURCE_DIR, entry.name) });
    }
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * bubblewrap's arguments for one {@link ModulesMount}: a private tmpfs at the target (sized like /tmp), the source
 * read-only at `<target>/.tdd-agent/node_modules`, and a `--symlink` per top-level entry. One mount for the whole
 * folder however many packages it holds (a bind per package would cost bubblewrap a read of the mount table each).
 */
export function modulesMountArgs(mount: ModulesMount, sizeArgs: string[] = []): string[] {
  const args = [...sizeArgs, '--tmpfs', mount.target, '--ro-bind', mount.source, join(mount.target, MODULES_SOURCE_DIR)];
  for (const entry of modulesEntries(mount.source)) args.push('--symlink', entry.link, join(mount.target, entry.name));
  return args;
}
