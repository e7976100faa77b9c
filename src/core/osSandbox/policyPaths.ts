import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import type { ModulesMount, ProjectViewNamespace, SandboxPolicy } from './types';

/** Folders never hidden whole (`/`, the system's own): hiding one would break every program. */
const SYSTEM_FOLDER = /^\/(usr|bin|sbin|lib|lib32|lib64|etc|opt|var|srv|home|root|proc|sys|dev|run|tmp|nix|snap)?\/?$/;

/** A policy with every path absolute and real (symbolic links resolved), duplicates removed. */
export interface ResolvedPolicy {
  writableRoots: string[];
  readOnlyPaths: string[];
  readableRoots: string[];
  /** Installed packages shown read-only in the worktree (see {@link ModulesMount}); none when unset. */
  modules?: ModulesMount[];
  /** Folders shown empty and read-only. */
  hiddenPaths?: string[];
  /** Folders shown empty before the readable roots (the person's checkout). */
  unseenRoots?: string[];
  /** Variables set inside after the allow-list. */
  setEnvironment?: Record<string, string>;
  /** Folders put first on path-list variables inside. */
  prependPaths?: Record<string, string[]>;
  /** The project view's namespace, entered by every launch. */
  view?: ProjectViewNamespace;
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
  const prependPaths = Object.entries(policy.prependPaths ?? {}).map(([name, dirs]) => [name, resolve(dirs)] as const);
  return {
    writableRoots: resolve(policy.writableRoots),
    readOnlyPaths: resolve(policy.readOnlyPaths),
    readableRoots: resolve(policy.readableRoots),
    ...(policy.modules?.length
      ? { modules: policy.modules.map((m) => ({ source: resolve([m.source])[0]!, target: resolve([m.target])[0]! })) }
      : {}),
    ...(policy.hiddenPaths?.length ? { hiddenPaths: resolve(policy.hiddenPaths) } : {}),
    ...(policy.unseenRoots?.length ? { unseenRoots: resolve(policy.unseenRoots).filter((dir) => !SYSTEM_FOLDER.test(dir)) } : {}),
    ...(policy.setEnvironment ? { setEnvironment: { ...policy.setEnvironment } } : {}),
    ...(prependPaths.length ? { prependPaths: Object.fromEntries(prependPaths) } : {}),
    ...(policy.view?.pid ? { view: policy.view } : {}),
  };
}

/**
 * The launch environment with the policy's own variables: `setEnvironment` over it, then each `prependPaths`
 * variable with the policy's folders first (an entry already in the value is moved to the front, not repeated).
 */
export function withPolicyEnvironment(env: NodeJS.ProcessEnv, policy: ResolvedPolicy): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env, ...policy.setEnvironment };
  for (const [name, dirs] of Object.entries(policy.prependPaths ?? {})) {
    const rest = (out[name] ?? '').split(':').filter((entry) => entry && !dirs.includes(entry));
    out[name] = [...dirs, ...rest].join(':');
  }
  return out;
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
 * Version managers whose whole folder under HOME is a toolchain store (no credentials): a shim on PATH
 * (`~/.pyenv/shims/python3`) runs a version elsewhere in that folder, so the folder is shown whole.
 */
const VERSION_MANAGER_ROOTS = new Set([
  '.pyenv',
  '.rbenv',
  '.nodenv',
  '.goenv',
  '.jenv',
  '.plenv',
  '.phpenv',
  '.sdkman', // SDKMAN!'s JDKs, Maven and Gradle
  '.jdks', // IntelliJ's JDKs
  '.nvm',
  '.fnm',
  '.volta',
  '.asdf',
  '.bun',
  '.deno',
  '.pixi',
]);

/**
 * Rust's toolchain and crates under HOME, when cargo is on the launch's PATH (`~/.cargo/bin`: rustup's proxies):
 * rustup's folder (RUSTUP_HOME, else `~/.rustup`: the toolchains the proxies start) and, of CARGO_HOME (else
 * `~/.cargo`), only the crates a build reads (`registry`, `git`): never the rest, whose `credentials.toml` and
 * `config.toml` may hold registry tokens.
 */
function rustUnderHome(env: NodeJS.ProcessEnv, home: string): string[] {
  const cargoHome = env.CARGO_HOME && isAbsolute(env.CARGO_HOME) ? env.CARGO_HOME : join(home, '.cargo');
  const onPath = (env.PATH ?? '').split(':').some((entry) => isAbsolute(entry) && existsSync(join(entry, 'cargo')));
  if (!onPath) return [];
  const rustupHome = env.RUSTUP_HOME && isAbsolute(env.RUSTUP_HOME) ? env.RUSTUP_HOME : join(home, '.rustup');
  const found: string[] = [];
  for (const dir of [rustupHome, join(cargoHome, 'registry'), join(cargoHome, 'git')]) {
    const real = realPathOf(dir);
    if (!isWithin(real, home) || real === home) continue;
    try {
      if (statSync(real).isDirectory()) found.push(real);
    } catch {
      /* not there (yet) */
    }
  }
  return found;
}

/**
 * Java's toolchain and artifacts under HOME: JAVA_HOME, MAVEN_HOME and M2_HOME when the launch names them, and
 * Maven's local repository (`~/.m2/repository`: the artifacts an offline build reads): never the rest of `~/.m2`,
 * whose `settings.xml` and `settings-security.xml` hold server passwords.
 */
function javaUnderHome(env: NodeJS.ProcessEnv, home: string): string[] {
  const named = ['JAVA_HOME', 'MAVEN_HOME', 'M2_HOME'].map((n) => env[n]).filter((d): d is string => !!d && isAbsolute(d));
  const found: string[] = [];
  for (const dir of [...named, join(home, '.m2', 'repository')]) {
    const real = realPathOf(dir);
    if (!isWithin(real, home) || real === home || real === join(home, '.m2')) continue;
    try {
      if (statSync(real).isDirectory()) found.push(real);
    } catch {
      /* not there */
    }
  }
  return found;
}

/**
 * Ruby's gems under HOME: GEM_HOME and GEM_PATH's folders when the launch names them, and the user's gem folders
 * (`gem install --user-install`: `~/.gem/ruby`, `~/.local/share/gem/ruby`), which ruby searches by default: only their
 * `ruby` folder, never `~/.gem/credentials` (a rubygems.org key).
 */
function gemsUnderHome(env: NodeJS.ProcessEnv, home: string): string[] {
  const named = [env.GEM_HOME, ...(env.GEM_PATH ?? '').split(':')].filter((d): d is string => !!d && isAbsolute(d));
  const found: string[] = [];
  for (const dir of [...named, join(home, '.gem', 'ruby'), join(home, '.local', 'share', 'gem', 'ruby')]) {
    const real = realPathOf(dir);
    if (!isWithin(real, home) || real === home || real === join(home, '.gem')) continue;
    try {
      if (statSync(real).isDirectory()) found.push(real);
    } catch {
      /* not there */
    }
  }
  return found;
}

/**
 * Language installations under HOME that the launch's PATH uses, shown read-only so `node` or `python3`
 * still start when HOME is hidden (and Go's GOROOT and module cache when the launch's environment names them): a version manager's folder (`~/.pyenv`, `~/.nvm`) whole; the prefix above
 * a `bin` entry at least two folders below HOME (`~/tools/node-v20/bin` → `~/tools/node-v20`); any other
 * entry (`~/.local/bin`, `~/.cargo/bin`) only itself, since its parent may hold credentials.
 */
export function toolchainsUnderHome(env: NodeJS.ProcessEnv, home: string): string[] {
  const found: string[] = [];
  // Go's toolchain and module cache (`~/sdk/go1.22`, `~/go/pkg/mod`) when the launch names them: read-only, as the
  // modules a test run builds with (never the rest of GOPATH, whose `bin` and sources are the person's own).
  for (const name of ['GOROOT', 'GOMODCACHE']) {
    const dir = env[name];
    if (!dir || !isAbsolute(dir)) continue;
    const real = realPathOf(dir);
    if (!isWithin(real, home) || real === home) continue;
    try {
      if (statSync(real).isDirectory()) found.push(real);
    } catch {
      /* not there (yet) */
    }
  }
  found.push(...gemsUnderHome(env, home));
  found.push(...rustUnderHome(env, home));
  found.push(...javaUnderHome(env, home));
  for (const entry of (env.PATH ?? '').split(':')) {
    if (!isAbsolute(entry)) continue;
    const real = realPathOf(entry);
    if (!isWithin(real, home) || real === home) continue;
    const top = relative(home, real).split(sep)[0]!;
    const deepBin = basename(real) === 'bin' && relative(home, dirname(real)).split(sep).length >= 2;
    const shown = VERSION_MANAGER_ROOTS.has(top) ? join(home, top) : deepBin ? dirname(real) : real;
    try {
      if (statSync(shown).isDirectory()) found.push(shown);
    } catch {
      /* a PATH entry that does not exist */
    }
  }
  return unique(found);
}
