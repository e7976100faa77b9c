import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Runs git in `dir` (hooks and identity as the person has them) and returns trimmed stdout. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** Runs git and returns '' instead of throwing (e.g. `rev-parse MERGE_HEAD` outside a merge). */
export function gitOrEmpty(dir: string, ...args: string[]): string {
  try {
    return git(dir, ...args);
  } catch {
    return '';
  }
}

/**
 * Everything of a person's repository a session must never change: HEAD, branch, `git status`, the index
 * (`ls-files -s`), the stash, MERGE_HEAD, the hooks folder, and the bytes of every file outside `.git`,
 * ignored files included.
 */
export async function personRepoState(dir: string): Promise<Record<string, unknown>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    const rel = full.slice(dir.length + 1);
    if (rel === '.git' || rel.startsWith('.git/')) continue;
    files[rel] = (await readFile(full)).toString('base64');
  }
  const hooks = (await readdir(join(dir, '.git', 'hooks')).catch(() => [] as string[])).sort();
  return {
    head: gitOrEmpty(dir, 'rev-parse', '--verify', '-q', 'HEAD'),
    branch: gitOrEmpty(dir, 'symbolic-ref', '-q', 'HEAD'),
    status: git(dir, '--no-optional-locks', 'status', '--porcelain=v1', '--untracked-files=all', '--ignored'),
    index: git(dir, 'ls-files', '-s'),
    stash: git(dir, 'stash', 'list'),
    mergeHead: gitOrEmpty(dir, 'rev-parse', '-q', '--verify', 'MERGE_HEAD'),
    hooks,
    files,
  };
}

async function put(dir: string, path: string, content: string): Promise<void> {
  await mkdir(dirname(join(dir, path)), { recursive: true });
  await writeFile(join(dir, path), content);
}

/**
 * A person's repository in the middle of work: on branch `work`, in a merge with a conflict in
 * `notes.md` (unmerged index entries, `MERGE_HEAD`), with a modified tracked file, a staged file, an untracked file, an ignored file
 * (`data/db.txt`), a stash entry, and hooks that would leave a marker file in `markers` if they ever ran.
 */
export async function dirtyMidMergeRepo(dir: string, markers: string): Promise<void> {
  git(dir, 'init', '-q', '-b', 'work');
  git(dir, 'config', 'user.name', 'Person');
  git(dir, 'config', 'user.email', 'person@example.invalid');
  await put(dir, '.gitignore', 'data/\n');
  await put(dir, 'README.md', '# Mine\n');
  await put(dir, 'notes.md', 'base\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  git(dir, 'checkout', '-q', '-b', 'other');
  await put(dir, 'other.md', 'from the other branch\n');
  await put(dir, 'notes.md', 'theirs\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'other');
  git(dir, 'checkout', '-q', 'work');
  await put(dir, 'notes.md', 'ours\n');
  git(dir, 'commit', '-q', '-am', 'ours');
  await put(dir, 'stashed.md', 'stashed work\n');
  git(dir, 'add', 'stashed.md');
  git(dir, 'stash', 'push', '-q', '-m', 'an older stash of mine');
  gitOrEmpty(dir, 'merge', '--no-ff', '-q', 'other'); // conflicts in notes.md: unmerged index entries, MERGE_HEAD
  if (!gitOrEmpty(dir, 'ls-files', '-u')) throw new Error('the merge was meant to conflict');
  await put(dir, 'README.md', '# Mine\n\nhalf-written, not committed\r\n');
  await put(dir, 'staged.md', 'staged\n');
  git(dir, 'add', 'staged.md');
  await put(dir, 'scratch.txt', 'untracked thoughts, no final newline');
  await put(dir, 'data/db.txt', 'the person’s ignored database\n');
  for (const hook of ['post-checkout', 'pre-commit', 'post-commit', 'post-merge', 'reference-transaction']) {
    await put(dir, `.git/hooks/${hook}`, `#!/bin/sh\necho ran > "${join(markers, hook)}"\n`);
    execFileSync('chmod', ['+x', join(dir, '.git', 'hooks', hook)]);
  }
}
