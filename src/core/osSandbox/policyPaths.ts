import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import type { SandboxPolicy } from './types';

/** A policy with every path absolute and real (symbolic links resolved), duplicates removed. */
export interface ResolvedPolicy {
  writableRoots: string[];
  readOnlyPaths: string[];
  readableRoots: string[];
}

/**
 * The real path of `path`; for a path that does not exist yet, the real path of its deepest existing
 * ancestor joined with the rest. Mounts and seatbelt rules match real paths only (`/tmp` is
 * `/private/tmp` on macOS, `os.tmpdir()` may be a link).
 */
export function realPathOf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realPathOf(parent), basename(path));
  }
}

/** True when `path` is `root` or lies below it. */
export function isWithin(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

const unique = (paths: string[]): string[] => [...new Set(paths)];

/** Resolves every path of `policy` (relative paths are refused: a sandbox rule must not depend on the cwd). */
export function resolvePolicy(policy: SandboxPolicy): ResolvedPolicy {
  const resolve = (paths: string[] | undefined): string[] => {
    for (const p of paths ?? []) if (!isAbsolute(p)) throw new TypeError(`Sandbox policy paths must be absolute: '${p}'`);
    return unique((paths ?? []).map(realPathOf));
  };
  return { writableRoots: resolve(policy.writableRoots), readOnlyPaths: resolve(policy.readOnlyPaths), readableRoots: resolve(policy.readableRoots) };
}

/** The real path of the launch's HOME when it is a real folder other than `/` (the folder the sandbox hides). */
export function homeToHide(env: NodeJS.ProcessEnv): string | undefined {
  const home = env.HOME;
  if (!home || !isAbsolute(home)) return undefined;
  try {
    if (!statSync(home).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  const real = realPathOf(home);
  return real === sep ? undefined : real;
}

/**
 * Language installations under HOME that the launch's PATH uses (nvm's `~/.nvm/versions/node/v20/bin`,
 * fnm, pyenv versions): the prefix above a `bin` entry at least two folders below HOME, shown
 * read-only so `node` still starts when HOME is hidden. Shallow entries (`~/.local/bin`, `~/.cargo/bin`,
 * shims) stay hidden: their prefix would expose far more of HOME than one toolchain.
 */
export function toolchainsUnderHome(env: NodeJS.ProcessEnv, home: string): string[] {
  const found: string[] = [];
  for (const entry of (env.PATH ?? '').split(':')) {
    if (!isAbsolute(entry) || basename(entry) !== 'bin') continue;
    const prefix = realPathOf(dirname(entry));
    if (!isWithin(prefix, home)) continue;
    if (relative(home, prefix).split(sep).length < 2) continue;
    try {
      if (statSync(prefix).isDirectory()) found.push(prefix);
    } catch {
      /* a PATH entry that does not exist */
    }
  }
  return unique(found);
}
