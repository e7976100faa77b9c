/**
 * Which folders named by files the repository may hold (a virtual environment's pyvenv.cfg `home`, where its
 * `bin/python` leads) the session's sandbox shows: only a real Python installation, and never one that would uncover
 * what the sandbox keeps private (HOME, /run, the host's /tmp, /proc, /sys, /dev, the repository's git dir).
 */
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { within } from './hostPaths';

/** What the host knows of a folder named as a Python installation, found by {@link inspectToolchainRoot}. */
export interface ToolchainRootFacts {
  /** The folder's real path (links resolved). */
  path: string;
  /** What stands there. */
  kind: 'directory' | 'socket' | 'other' | 'missing';
  /** `bin/python3` is a file (or leads to one). */
  python3: boolean;
  /** `lib/python3.*\/os.py` (or `lib64/…`, as Fedora has it) is a file: a standard library, not a folder named `bin`. */
  standardLibrary: boolean;
}

/** What the sandbox keeps private, as real paths. */
export interface ToolchainRootContext {
  /** The HOME the sandbox empties (real path); unset when there is none. */
  home?: string;
  /** The repository's git dirs (readable inside, never writable, with a sanitised config). */
  gitDirs: string[];
}

/** Whether a folder may be shown, and why not. */
export type ToolchainRootVerdict = { visible: true } | { visible: false; reason: string };

/** Folders the sandbox replaces with its own (empty or fresh) ones: a root may neither lie in one nor hold one. */
const PRIVATE_SYSTEM_PATHS = ['/run', '/var/run', '/proc', '/sys', '/dev'];

/**
 * Decides whether a folder that a repository's file names (pyvenv.cfg `home`, an interpreter link) may become a
 * readable root of the sandbox: only a real Python installation (`bin/python3` and `lib/python3.*\/os.py`), shown
 * read-only, and never `/`, HOME, anything inside HOME or holding it, `/run` (or `/var/run`), `/proc`, `/sys`, `/dev`
 * or anything in them, a folder holding the host's `/tmp`, the repository's git dir (in it or holding it), or a socket.
 * Pure: the facts come from {@link inspectToolchainRoot}.
 */
export function toolchainRootVerdict(facts: ToolchainRootFacts, context: ToolchainRootContext): ToolchainRootVerdict {
  const refuse = (reason: string): ToolchainRootVerdict => ({ visible: false, reason });
  const path = facts.path;
  if (!isAbsolute(path)) return refuse('it is not an absolute path');
  if (path === '/') return refuse('it is the root of the file system');
  if (facts.kind === 'socket') return refuse('it is a socket');
  if (facts.kind !== 'directory') return refuse(facts.kind === 'missing' ? 'it does not exist' : 'it is not a folder');
  const guarded: Array<[string, string | undefined]> = [
    ['HOME', context.home],
    ...PRIVATE_SYSTEM_PATHS.map((p): [string, string] => [p, p]),
    ...context.gitDirs.map((g): [string, string] => ["the repository's git dir", g]),
  ];
  for (const [name, guardedPath] of guarded) {
    if (!guardedPath) continue;
    if (within(path, guardedPath)) return refuse(`it is ${path === guardedPath ? '' : 'inside '}${name}`);
    if (within(guardedPath, path)) return refuse(`it holds ${name}`);
  }
  if (within('/tmp', path)) return refuse("it holds the host's /tmp");
  if (!facts.python3 || !facts.standardLibrary)
    return refuse('it is not a Python installation (no bin/python3 and lib/python3.*/os.py)');
  return { visible: true };
}

async function isFileAt(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** The facts {@link toolchainRootVerdict} decides on, read from the host (links resolved; nothing is run). */
export async function inspectToolchainRoot(path: string): Promise<ToolchainRootFacts> {
  const real = await realpath(path).catch(() => undefined);
  if (!real) return { path, kind: 'missing', python3: false, standardLibrary: false };
  const entry = await lstat(real).catch(() => undefined);
  const kind = !entry ? 'missing' : entry.isDirectory() ? 'directory' : entry.isSocket() ? 'socket' : 'other';
  if (kind !== 'directory') return { path: real, kind, python3: false, standardLibrary: false };
  let standardLibrary = false;
  for (const lib of ['lib', 'lib64']) {
    for (const name of await readdir(join(real, lib)).catch(() => [] as string[])) {
      if (/^python3(\.\d+)?$/.test(name) && (await isFileAt(join(real, lib, name, 'os.py')))) standardLibrary = true;
    }
  }
  return { path: real, kind, python3: await isFileAt(join(real, 'bin', 'python3')), standardLibrary };
}

/** The folders of `paths` the sandbox may show (real paths, in order), and the others with the reason. */
export async function visibleToolchainRoots(
  paths: string[],
  context: ToolchainRootContext,
): Promise<{ visible: string[]; refused: Array<{ path: string; reason: string }> }> {
  const real = async (p: string): Promise<string> => realpath(p).catch(() => p);
  const home = context.home && isAbsolute(context.home) ? await real(context.home) : undefined;
  const resolved: ToolchainRootContext = {
    home: home === '/' ? undefined : home, // a HOME of `/` is not emptied by the sandbox
    gitDirs: await Promise.all(context.gitDirs.map(real)),
  };
  const visible: string[] = [];
  const refused: Array<{ path: string; reason: string }> = [];
  for (const path of paths) {
    const facts = await inspectToolchainRoot(path);
    const verdict = toolchainRootVerdict(facts, resolved);
    if (verdict.visible) {
      if (!visible.includes(facts.path)) visible.push(facts.path);
    } else refused.push({ path, reason: verdict.reason });
  }
  return { visible, refused };
}
