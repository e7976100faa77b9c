/** The session's Node packages from its plan: the person's install, or the frozen install of its lockfile into the shared store. */
import { mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AgentError } from '../../errors/agentError';
import { getLogger } from '../../logging/logger';
import { createProcessSandbox } from '../../osSandbox';
import { runProcess } from '../../process/runProcess';
import { redactSecrets } from '../../security/redact';
import { productCacheDir } from '../git/sessionPaths';
import { approve } from './installApproval';
import { installedEntry } from './installedModules';
import { INSTALL_TIMEOUT_MS, type InstallDependenciesOptions } from './installOptions';
import { lockfileNonRegistry, nonRegistrySpecs } from './nonRegistrySpecs';
import { cleanNpmConfig, installEnvironment } from './npmEnvironment';
import { linkNodeModules } from './installedModules';
import type { NodeDependencies } from './projectDependencyTypes';

const log = getLogger('tdd.session');

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
export async function useNodeDependencies(
  dir: string,
  node: NodeDependencies,
  options: InstallDependenciesOptions,
): Promise<boolean> {
  if (node.source === 'tracked') return false;
  let installed = false;
  if (node.source === 'store' && !(await exists(node.path))) {
    await installIntoStore(node, options);
    installed = true;
  }
  if (node.how === 'linked') {
    await linkNodeModules(node.path, dir);
    for (const p of node.packages ?? []) await linkNodeModules(p.path, join(dir, p.folder));
  }
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
