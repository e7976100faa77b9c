import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Entries looked at before the count stops growing: a bound on the walk, whatever the tree holds. */
const MAX_ENTRIES = 500_000;

/**
 * Bytes a folder takes on disk (allocated blocks, so a sparse file counts for what it uses), never following a link
 * and never leaving the folder's file system. Entries past 500,000 are not counted. 0 for a folder that is gone.
 */
export async function diskUsage(root: string): Promise<number> {
  const top = await lstat(root).catch(() => undefined);
  if (!top?.isDirectory()) return 0;
  let bytes = 0;
  let entries = 0;
  const pending = [root];
  while (pending.length > 0 && entries < MAX_ENTRIES) {
    const dir = pending.pop()!;
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (++entries > MAX_ENTRIES) break;
      const path = join(dir, name);
      const info = await lstat(path).catch(() => undefined);
      if (!info) continue;
      bytes += info.blocks * 512;
      if (info.isDirectory() && info.dev === top.dev) pending.push(path);
    }
  }
  return bytes;
}

/** `12.3 MB` for a person (decimal units, as file managers show them). */
export function formatDiskUsage(bytes: number): string {
  for (const [unit, size] of [
    ['GB', 1e9],
    ['MB', 1e6],
    ['kB', 1e3],
  ] as const) {
    if (bytes >= size) return `${(bytes / size).toFixed(1)} ${unit}`;
  }
  return `${bytes} bytes`;
}
