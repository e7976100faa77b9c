/** What a dependency plan asks of the person's files: is a path a folder, a file, below another; read only. */
import { stat } from 'node:fs/promises';
import { isAbsolute, relative } from 'node:path';

export async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

export async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** True when `path` is `root` or below it. */
export function within(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
