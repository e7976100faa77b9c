import { cp, lstat, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import type { ControlProtocol } from '../../control/controlProtocol';
import { AgentError } from '../../errors/agentError';
import { productGit } from '../../git/gitClient';
import { getLogger } from '../../logging/logger';
import { createProcessSandbox, type SandboxLocator, type SandboxMode } from '../../osSandbox';
import { runProcess } from '../../process/runProcess';
import { redactSecrets } from '../../security/redact';
import { ApprovalPolicy, type ApprovalPolicyConfig } from '../../tools/approvalPolicy';
import type { SessionGitInfo } from '../git/sessionWorktree';
import { productCacheDir } from '../git/sessionPaths';
import type { Kata } from '../kata';
import { scaffoldPlan } from '../scaffold';
import {
  linkNodeModules,
  missingDependenciesMessage,
  type NodeDependencies,
  type ProjectDependencies,
} from './projectDependencies';

const log = getLogger('tdd.session');

/** `npm install` as the session runs it: no package scripts (so no downloaded code runs), quiet. */
export const INSTALL_ARGS = ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'] as const;
const INSTALL_TIMEOUT_MS = 5 * 60_000;

/** The files npm reads to know what to install; nothing else of the project reaches the install. */
export const MANIFEST_FILES = ['package.json', 'package-lock.json', 'npm-shrinkwrap.json'] as const;

/** Where the install reads the project's manifests: a commit the agents cannot have changed, never the worktree's files. */
export interface ManifestSource {
  /** For messages: what is read (`commit 1a2b3c4`, `the kata's scaffold`). */
  description: string;
  /** A manifest's content (`package.json`, `package-lock.json`, `npm-shrinkwrap.json`), or null when there is none. */
  read(path: string): Promise<string | null>;
}

/** Options of {@link installDependencies}. */
export interface InstallDependenciesOptions {
  /** Where package.json and the lockfile come from (see {@link sessionManifests}). */
  manifests: ManifestSource;
  policy?: ApprovalPolicyConfig;
  control?: ControlProtocol;
  signal?: AbortSignal;
  /** `auto` (default): npm runs in the OS sandbox with the network; `off`: unconfined (still the base manifests and a clean configuration). */
  sandbox?: SandboxMode;
  /** How the sandbox is found (tests). */
  locator?: SandboxLocator;
  /** npm's download cache, owned by the product. Default `<productCacheDir>/npm-cache`. */
  cacheDir?: string;
  /** Where the private staging folders are made. Default `<productCacheDir>/installs` (next to the worktrees, so the result is moved, not copied). */
  stagingRoot?: string;
  /** The npm program. Default `npm` (found on PATH). */
  npm?: string;
  /**
   * What `prepareProjectDependencies` found for the session. With it: what is `missing` is refused with the
   * commands to run; the person's `node_modules` is used as it is (nothing installed); a lockfile without one is
   * installed once, frozen, with the project's own manager, into the shared store the sandbox shows (then reused by
   * every session with the same lockfile). Without a Node plan in it (a kata whose package.json the scaffold writes)
   * the install goes into the worktree as before.
   */
  dependencies?: ProjectDependencies;
}

/**
 * The manifests a session installs from: at the session's HEAD right after the scaffold commit for a fresh session
 * (call it before any agent turn); on resume, the commit the session started from, or, when that has no package.json,
 * what the kata's scaffold wrote (the scaffold commit holds exactly that), so files the agents changed never count.
 */
export async function sessionManifests(
  info: SessionGitInfo,
  options: { resumed: boolean; kata: Pick<Kata, 'language' | 'slug' | 'title' | 'sourceDir' | 'testDir'> },
): Promise<ManifestSource> {
  const { run } = productGit(info.worktree, { gitDir: info.worktreeGitDir, workTree: info.worktree });
  const at = async (rev: string): Promise<ManifestSource> => {
    const commit = (await run(['rev-parse', '--verify', '-q', `${rev}^{commit}`])).trim();
    if (!/^[0-9a-f]{40,64}$/.test(commit))
      throw new AgentError('CONFIG', `The session's commit ${rev} cannot be read, so its package.json cannot be either.`, {
        rev,
      });
    return {
      description: `commit ${commit.slice(0, 10)}`,
      read: (path) => run(['cat-file', 'blob', `${commit}:${path}`]).catch(() => null),
    };
  };
  if (!options.resumed) return at('HEAD');
  const base = await at(info.baseCommit);
  if ((await base.read('package.json')) !== null) return base;
  const files: Record<string, string> = scaffoldPlan(options.kata.language, options.kata).files;
  return { description: "the kata's scaffold", read: (path) => Promise.resolve(files[path] ?? null) };
}

/** What a package.json declares. */
interface Manifest {
  dependencies?: Record<string, unknown>;
  devDependencies?: Record<string, unknown>;
  optionalDependencies?: Record<string, unknown>;
  peerDependencies?: Record<string, unknown>;
  overrides?: unknown;
}

/**
 * True when npm would not take `spec` from a registry: git URLs (`git+…`, `git:`, `git@…`), hosted shorthands
 * (`github:`, `gitlab:`, `bitbucket:`, `gist:`, `user/repo`), local folders and files (`file:`, `link:`, `./x`,
 * `../x`, `/x`, `~/x`) and tarball URLs (`http(s)://`). `npm:` aliases are judged by what they alias.
 */
export function isNonRegistrySpec(spec: string): boolean {
  const s = spec.trim();
  if (/^npm:/i.test(s)) {
    const aliased = s.slice(4);
    const at = aliased.lastIndexOf('@');
    return at > 0 ? isNonRegistrySpec(aliased.slice(at + 1)) : false;
  }
  if (/^(git\+|git:|github:|gitlab:|bitbucket:|gist:|file:|link:|https?:|ssh:)/i.test(s)) return true;
  if (/^[^@\s]+@[^:\s]+:/.test(s)) return true; // git@host:repo
  if (/^(\.{1,2}\/|\/|~\/|\.{1,2}$)/.test(s)) return true;
  return /^[^@\s/:#]+\/[^\s/:#]+(#.*)?$/.test(s); // user/repo, user/repo#ref
}

/** Every dependency spec npm would fetch from elsewhere than a registry, as `name: spec`, from package.json and the lockfile. */
export function nonRegistrySpecs(packageJson: string, lockfile?: string | null): string[] {
  const found: string[] = [];
  const pkg = JSON.parse(packageJson) as Manifest;
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const) {
    for (const [name, spec] of Object.entries(pkg[field] ?? {}))
      if (typeof spec === 'string' && isNonRegistrySpec(spec)) found.push(`${name}: ${spec}`);
  }
  const overrides = (value: unknown, path: string): void => {
    if (typeof value === 'string' && value.startsWith('$')) return;
    if (typeof value === 'string') {
      if (isNonRegistrySpec(value)) found.push(`overrides ${path}: ${value}`);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) overrides(v, path ? `${path} > ${k}` : k);
    }
  };
  overrides(pkg.overrides, '');
  if (lockfile) {
    try {
      const lock = JSON.parse(lockfile) as { packages?: Record<string, { resolved?: unknown; link?: unknown }> };
      for (const [path, entry] of Object.entries(lock.packages ?? {})) {
        if (!path) continue;
        if (entry.link === true) found.push(`lockfile ${path}: a link to ${String(entry.resolved)}`);
        else if (typeof entry.resolved === 'string' && /^(git\+|git:|github:|file:|ssh:)/i.test(entry.resolved))
          found.push(`lockfile ${path}: ${entry.resolved}`);
      }
    } catch {
      /* npm reports a broken lockfile itself */
    }
  }
  return found;
}

/** The number of packages a package.json asks for (0 when it cannot be parsed: the test runner reports it). */
function declaredCount(packageJson: string): number {
  try {
    const pkg = JSON.parse(packageJson) as Manifest;
    return Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.optionalDependencies }).length;
  } catch {
    return 0;
  }
}

/** The worktree's `node_modules` entry, looked at without following a link. */
async function installedEntry(dir: string): Promise<'directory' | 'other' | 'none'> {
  try {
    return (await lstat(join(dir, 'node_modules'))).isDirectory() ? 'directory' : 'other';
  } catch {
    return 'none';
  }
}

/** npm settings that say how to reach a registry (never credentials), carried from the person's own npm configuration. */
const NETWORK_KEY = /^(registry|@[^:\s]+:registry|cafile|strict-ssl|proxy|https-proxy|noproxy)$/;

/** The network settings of an npmrc file (`key=value` lines), without values that expand variables. */
function networkSettings(text: string): [string, string][] {
  const settings: [string, string][] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*([^=;#\s][^=]*?)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m || !NETWORK_KEY.test(m[1]!) || m[2]!.includes('${')) continue;
    settings.push([m[1]!, m[2]!.replace(/^"(.*)"$/, '$1')]);
  }
  return settings;
}

/**
 * The clean npm configuration the install runs with: only how to reach the registry (registry, scoped registries,
 * proxies, `cafile`, `strict-ssl`) from the person's global and user npmrc and `npm_config_*` variables, later ones
 * winning as in npm. No tokens, no `git`, no `script-shell`, nothing from the project. Returns the file's lines and
 * the CA files it names (made readable in the sandbox).
 */
async function cleanNpmConfig(env: NodeJS.ProcessEnv): Promise<{ text: string; caFiles: string[] }> {
  const globalFile =
    env.npm_config_globalconfig ?? join(env.npm_config_prefix ?? dirname(dirname(process.execPath)), 'etc', 'npmrc');
  const userFile = env.npm_config_userconfig ?? join(env.HOME || homedir(), '.npmrc');
  const settings = new Map<string, string>();
  for (const file of [globalFile, userFile]) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const [key, value] of networkSettings(text)) settings.set(key, value);
  }
  for (const [name, value] of Object.entries(env)) {
    const key = /^npm_config_(.+)$/i.exec(name)?.[1]?.toLowerCase().replace(/_/g, '-');
    if (key && value !== undefined && NETWORK_KEY.test(key) && !value.includes('${')) settings.set(key, value);
  }
  const caFiles = [settings.get('cafile'), env.NODE_EXTRA_CA_CERTS].filter((f): f is string => !!f && isAbsolute(f));
  return { text: [...settings].map(([k, v]) => `${k}=${v}\n`).join(''), caFiles };
}

/** The install's environment: this process's without any `npm_config_*` variable, then the clean configuration's. */
function installEnvironment(configFile: string, cacheDir: string): { env: NodeJS.ProcessEnv; names: string[] } {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!/^npm_config_/i.test(name)) env[name] = value;
  const npmConfig: Record<string, string> = {
    npm_config_userconfig: '/dev/null',
    npm_config_globalconfig: configFile,
    npm_config_cache: cacheDir,
    npm_config_ignore_scripts: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  return { env: { ...env, ...npmConfig }, names: Object.keys(npmConfig) };
}

/** Asks for (or takes from the policy) the approval of the install; throws CONFIG when it is not given. */
async function approve(
  options: InstallDependenciesOptions,
  request: {
    level: 'MEDIUM' | 'HIGH';
    command: string;
    cwd: string;
    preview: string;
    reason: string;
    specs: string[];
    /** The install goes into the shared store, not the worktree. */
    store?: boolean;
  },
): Promise<void> {
  const verdict = new ApprovalPolicy(options.policy ?? {}).decideLevel(request.level);
  let approved = verdict.rule === 'allow';
  let why = verdict.reason;
  if (verdict.rule === 'ask' && options.control) {
    const answer = await options.control.requestApproval(
      {
        tool: 'install_dependencies',
        dangerLevel: request.level,
        params: { command: request.command, cwd: request.cwd, ...(request.specs.length ? { specs: request.specs } : {}) },
        preview: request.preview,
        reason: request.reason,
      },
      options.signal,
    );
    approved = answer.outcome === 'approved' || answer.outcome === 'always';
    why = answer.reason ?? answer.outcome;
  } else if (verdict.rule === 'ask') {
    why = 'there is no one to ask';
  }
  if (approved) return;
  if (request.specs.length)
    throw new AgentError(
      'CONFIG',
      `The project's package.json (from ${options.manifests.description}) names dependencies that npm would fetch from outside the registry, which was not approved (${why}):\n${request.specs.map((s) => `  ${s}`).join('\n')}\nApprove them by name (HIGH), run with --yes=HIGH, or replace them with registry versions.`,
      { command: request.command, specs: request.specs },
    );
  throw new AgentError(
    'CONFIG',
    `The kata's tests need '${request.command}'${request.store ? '' : ' in the session worktree'}, which was not approved (${why}). Approve it (writes at MEDIUM) to run this kata.`,
    { command: request.command },
  );
}

/** Moves the staged `node_modules` into the worktree, replacing whatever entry is there without following a link. */
async function moveInto(staged: string, dir: string): Promise<void> {
  const target = join(dir, 'node_modules');
  await rm(target, { recursive: true, force: true }); // a link is removed itself, never what it points to
  try {
    await rename(staged, target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await cp(staged, target, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false });
  }
}

/**
 * The one step of a session that uses the network: `npm install --ignore-scripts` for the project's packages, before
 * any agent turn. The manifests (package.json and its lockfile) come from `options.manifests`, a commit the agents
 * cannot have changed, never from the worktree; they are copied alone into a private staging folder outside the
 * worktree, so no project `.npmrc` or other file of the worktree reaches npm. npm runs there with a clean
 * configuration (`cleanNpmConfig`: no user or global npmrc, only how to reach the registry) and, unless the
 * sandbox is off, inside the OS sandbox with the network, able to write only the staging folder and the product's
 * npm cache. The resulting `node_modules` is then moved into the worktree. Dependencies npm would fetch from outside
 * the registry (git, GitHub shorthands, local paths, tarball URLs) are refused unless approved by name at HIGH; the
 * install itself needs a MEDIUM approval (`--yes` covers it). A denial or a failed install is a CONFIG error. Does
 * nothing when there is nothing to install or the worktree has a `node_modules` folder already.
 */
export async function installDependencies(dir: string, options: InstallDependenciesOptions): Promise<boolean> {
  const planned = options.dependencies;
  if (planned?.missing.length)
    throw new AgentError('CONFIG', missingDependenciesMessage(planned.missing, planned.repository), {
      commands: planned.missing.map((m) => m.command),
    });
  if (planned?.node) return useNodeDependencies(dir, planned.node, options);
  const packageJson = await options.manifests.read('package.json');
  if (packageJson === null || declaredCount(packageJson) === 0 || (await installedEntry(dir)) === 'directory') return false;
  const lockfiles = new Map<string, string>();
  for (const file of MANIFEST_FILES.slice(1)) {
    const text = await options.manifests.read(file);
    if (text !== null) lockfiles.set(file, text);
  }
  const specs = nonRegistrySpecs(packageJson, lockfiles.get('npm-shrinkwrap.json') ?? lockfiles.get('package-lock.json'));
  const command = `npm ${INSTALL_ARGS.join(' ')}`;
  const mode = options.sandbox ?? 'auto';
  const where =
    mode === 'off'
      ? 'unconfined (the OS sandbox is turned off), with your rights and network'
      : 'inside the OS sandbox with network access, able to write only a private staging folder and npm’s cache';
  const how = `npm reads only package.json and its lockfile from ${options.manifests.description} (no .npmrc of the project, none of yours but how to reach the registry) and runs ${where}; the packages are then moved into the worktree's node_modules. No package scripts run.`;
  if (specs.length) {
    await approve(options, {
      level: 'HIGH',
      command,
      cwd: dir,
      specs,
      reason: 'package.json names dependencies from outside the npm registry',
      preview: `The project's package.json names dependencies that do not come from the npm registry:\n\n${specs.map((s) => `  ${s}`).join('\n')}\n\nnpm fetches them itself: git URLs and GitHub shorthands are cloned with git (npm may run a git dependency's own prepare script to build it), file: and link: specs read or link folders on this machine, tarball URLs are downloaded. ${how}`,
    });
  } else {
    await approve(options, {
      level: 'MEDIUM',
      command,
      cwd: dir,
      specs,
      reason: 'the tests need packages that are not installed',
      preview: `The kata's project needs its packages (package.json) to run its tests:\n\n  ${command}\n\nThis downloads them from the npm registry. ${how}`,
    });
  }

  const cacheRoot = productCacheDir();
  const cacheDir = options.cacheDir ?? join(cacheRoot, 'npm-cache');
  const stagingRoot = options.stagingRoot ?? join(cacheRoot, 'installs');
  await mkdir(cacheDir, { recursive: true });
  await mkdir(stagingRoot, { recursive: true });
  const staging = await mkdtemp(join(stagingRoot, 'install-')); // mode 0700
  try {
    const project = join(staging, 'project');
    await mkdir(project);
    await writeFile(join(project, 'package.json'), packageJson);
    for (const [file, text] of lockfiles) await writeFile(join(project, file), text);
    const config = await cleanNpmConfig(process.env);
    const configFile = join(staging, 'npmrc');
    await writeFile(configFile, config.text, { mode: 0o600 });
    const { env, names } = installEnvironment(configFile, cacheDir);
    const sandbox = await createProcessSandbox(
      mode,
      { writableRoots: [project, cacheDir], readableRoots: [staging, ...config.caFiles], network: true, passEnvironment: names },
      options.locator,
    );
    log.info('installing the project’s packages', {
      command,
      worktree: dir,
      manifests: options.manifests.description,
      sandbox: sandbox.kind,
    });
    const result = await runProcess({
      cwd: project,
      command: options.npm ?? 'npm',
      args: [...INSTALL_ARGS],
      env,
      sandbox,
      timeoutMs: INSTALL_TIMEOUT_MS,
      signal: options.signal,
      maxOutputBytes: 256 * 1024,
    });
    if (result.exitCode !== 0) {
      const tail = result.output.trim().split('\n').slice(-8).join('\n');
      throw new AgentError(
        'CONFIG',
        redactSecrets(
          `'${command}' failed (${result.timedOut ? 'timed out' : result.spawnError ? `could not start: ${result.spawnError}` : `exit code ${result.exitCode}`}):\n${tail}`,
        ),
        { command, ...(result.limitHit ? { limitHit: result.limitHit } : {}) },
      );
    }
    const staged = join(project, 'node_modules');
    if ((await installedEntry(project)) === 'directory') await moveInto(staged, dir);
    return true;
  } finally {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The frozen install of each manager, as the store runs it (no package scripts, the lockfile as it is). */
export function frozenInstallCommand(
  node: Pick<NodeDependencies, 'packageManager' | 'version' | 'lockfile'>,
  paths: { pnpmStore: string; yarnCache: string },
): { program: string; args: string[] } {
  if (node.packageManager === 'npm')
    return { program: 'npm', args: ['ci', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'] };
  if (node.packageManager === 'pnpm') {
    const lockVersion = /^lockfileVersion:\s*'?(\d+)/m.exec(node.lockfile?.text ?? '')?.[1];
    const version = node.version ?? (lockVersion === '5' ? '7' : lockVersion === '6' ? '8' : '10');
    return {
      program: 'npx',
      args: [
        '--yes',
        `pnpm@${version}`,
        'install',
        '--frozen-lockfile',
        '--ignore-scripts',
        `--store-dir=${paths.pnpmStore}`,
        '--reporter=append-only',
      ],
    };
  }
  return {
    program: 'npx',
    args: [
      '--yes',
      `yarn@${node.version ?? '1'}`,
      'install',
      '--frozen-lockfile',
      '--ignore-scripts',
      '--non-interactive',
      '--no-progress',
      `--cache-folder=${paths.yarnCache}`,
    ],
  };
}

/** Dependencies a pnpm or yarn lockfile resolves from elsewhere than a registry (git, local folders, tarball URLs). */
export function lockfileNonRegistry(manager: 'pnpm' | 'yarn', text: string): string[] {
  const found: string[] = [];
  const lines = text.split(/\r?\n/);
  const pattern =
    manager === 'pnpm'
      ? /^\s+(resolution:\s*\{.*\b(tarball|repo|directory|type:\s*git)\b.*\}|version:\s*(link|file):.*)$/
      : /^\s+resolved\s+"(git[+:]|file:|link:|https?:\/\/codeload\.github\.com\/)/;
  for (const line of lines) if (pattern.test(line)) found.push(`lockfile: ${line.trim()}`);
  return found;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * The session's Node dependencies from its plan: the person's `node_modules`, or the shared install of the same
 * lockfile (made here, once, when missing), shown in the worktree by the sandbox; without a sandbox that mounts, a
 * folder of links is made in the worktree. True when something was installed.
 */
async function useNodeDependencies(dir: string, node: NodeDependencies, options: InstallDependenciesOptions): Promise<boolean> {
  if (node.source === 'tracked') return false;
  let installed = false;
  if (node.source === 'store' && !(await exists(node.path))) {
    await installIntoStore(node, options);
    installed = true;
  }
  if (node.how === 'linked') await linkNodeModules(node.path, dir);
  log.info('the session uses installed packages', { source: node.source, path: node.path, how: node.how, installed });
  return installed;
}

/**
 * The frozen install of the base commit's lockfile into the product's shared store (`<cache>/deps/<key>/node_modules`),
 * confined as {@link installDependencies} confines npm: only package.json and the lockfile copied into a private
 * staging folder, a clean configuration (also written as the staging folder's `.npmrc`, which pnpm and yarn read), no
 * package scripts, the OS sandbox with the network, writable only the staging folder and the managers' caches. The
 * result is renamed into the store whole (a concurrent session with the same lockfile keeps the first one there).
 */
async function installIntoStore(node: NodeDependencies, options: InstallDependenciesOptions): Promise<void> {
  const lockfile = node.lockfile!;
  const cacheRoot = productCacheDir();
  const paths = {
    npmCache: options.cacheDir ?? join(cacheRoot, 'npm-cache'),
    pnpmStore: join(cacheRoot, 'pnpm-store'),
    yarnCache: join(cacheRoot, 'yarn-cache'),
  };
  const { program, args } = frozenInstallCommand(node, paths);
  const command = [program, ...args].join(' ');
  const specs = [
    ...nonRegistrySpecs(node.packageJson, node.packageManager === 'npm' ? lockfile.text : null),
    ...(node.packageManager === 'npm' ? [] : lockfileNonRegistry(node.packageManager, lockfile.text)),
  ];
  const mode = options.sandbox ?? 'auto';
  const where =
    mode === 'off'
      ? 'unconfined (the OS sandbox is turned off), with your rights and network'
      : 'inside the OS sandbox with network access, able to write only a private staging folder and the package caches';
  const how = `${node.packageManager} reads only package.json and ${lockfile.name} from the commit the session started from (no .npmrc of the project, none of yours but how to reach the registry) and runs ${where}; the packages go to a store shared by the sessions of this lockfile, shown read-only to the tests. No package scripts run. (Running '${node.installCommand}' in your repository instead lets every session use your own install.)`;
  await approve(options, {
    level: specs.length ? 'HIGH' : 'MEDIUM',
    command,
    cwd: dirname(node.path),
    specs,
    store: true,
    reason: specs.length
      ? `${lockfile.name} names dependencies from outside the registry`
      : 'the tests need packages that are not installed',
    preview: specs.length
      ? `The project's lockfile names dependencies that do not come from a registry:\n\n${specs.map((x) => `  ${x}`).join('\n')}\n\n${how}`
      : `Your repository has no node_modules, so the session installs the project's packages once from its lockfile:\n\n  ${command}\n\n${how}`,
  });

  const storeRoot = dirname(dirname(node.path));
  const stagingRoot = options.stagingRoot ?? join(cacheRoot, 'installs');
  for (const folder of [paths.npmCache, paths.pnpmStore, paths.yarnCache, stagingRoot, storeRoot])
    await mkdir(folder, { recursive: true });
  const staging = await mkdtemp(join(stagingRoot, 'install-'));
  try {
    const project = join(staging, 'project');
    await mkdir(project);
    await writeFile(join(project, 'package.json'), node.packageJson);
    await writeFile(join(project, lockfile.name), lockfile.text);
    const config = await cleanNpmConfig(process.env);
    const configFile = join(staging, 'npmrc');
    await writeFile(configFile, config.text, { mode: 0o600 });
    await writeFile(join(project, '.npmrc'), config.text, { mode: 0o600 });
    const { env, names } = installEnvironment(configFile, paths.npmCache);
    const sandbox = await createProcessSandbox(
      mode,
      {
        writableRoots: [project, paths.npmCache, paths.pnpmStore, paths.yarnCache],
        readableRoots: [staging, ...config.caFiles],
        network: true,
        passEnvironment: names,
      },
      options.locator,
    );
    log.info('installing the project’s packages into the shared store', { command, key: lockfile.key, sandbox: sandbox.kind });
    const result = await runProcess({
      cwd: project,
      command: program === 'npm' ? (options.npm ?? 'npm') : program,
      args,
      env: { ...env, CI: 'true' },
      sandbox,
      timeoutMs: INSTALL_TIMEOUT_MS,
      signal: options.signal,
      maxOutputBytes: 256 * 1024,
    });
    if (result.exitCode !== 0 || (await installedEntry(project)) !== 'directory') {
      const tail = result.output.trim().split('\n').slice(-8).join('\n');
      throw new AgentError(
        'CONFIG',
        redactSecrets(
          `'${command}' failed (${result.timedOut ? 'timed out' : result.spawnError ? `could not start: ${result.spawnError}` : `exit code ${result.exitCode}`}):\n${tail}\nRunning '${node.installCommand}' in ${options.dependencies?.repository ?? 'your repository'} lets the session use your own install instead.`,
        ),
        { command, ...(result.limitHit ? { limitHit: result.limitHit } : {}) },
      );
    }
    const partial = await mkdtemp(join(storeRoot, `${lockfile.key}.partial-`));
    await rename(join(project, 'node_modules'), join(partial, 'node_modules'));
    await writeFile(
      join(partial, 'install.json'),
      `${JSON.stringify({ packageManager: node.packageManager, version: node.version, lockfile: lockfile.name, command }, null, 2)}\n`,
    );
    try {
      await rename(partial, dirname(node.path));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
      await rm(partial, { recursive: true, force: true }); // another session stored the same lockfile first
    }
  } finally {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
  }
}
