import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Temp folders holding small project layouts; `cleanup()` removes them all. */
export class ProjectFixtures {
  private readonly made: string[] = [];

  /** A new temp folder with `files` (path → content; a path ending in `/` is an empty folder). */
  async make(files: Record<string, string> = {}): Promise<string> {
    const root = await mkdtemp(join(tmpdir(), 'project-profile-'));
    this.made.push(root);
    await writeFiles(root, files);
    return root;
  }

  async cleanup(): Promise<void> {
    await Promise.all(this.made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  }
}

/** Writes `files` under `root`. */
export async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    if (path.endsWith('/')) {
      await mkdir(join(root, path), { recursive: true });
      continue;
    }
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

/** A virtual environment's `bin/python` (an executable script) under `venv`. */
export async function fakeVenv(venv: string): Promise<string> {
  const python = join(venv, 'bin', 'python');
  await mkdir(dirname(python), { recursive: true });
  await writeFile(python, '#!/bin/sh\nexec python3 "$@"\n');
  await chmod(python, 0o755);
  return python;
}

export const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
