/** The one step of a session that uses the network: installing the project's packages, confined, before any agent turn. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentError } from '../../errors/agentError';
import { getLogger } from '../../logging/logger';
import { createProcessSandbox } from '../../osSandbox';
import { runProcess } from '../../process/runProcess';
import { redactSecrets } from '../../security/redact';
import { productCacheDir } from '../git/sessionPaths';
import { approve } from './installApproval';
import { installedEntry, moveInto } from './installedModules';
import { INSTALL_ARGS, INSTALL_TIMEOUT_MS, type InstallDependenciesOptions } from './installOptions';
import { declaredCount, nonRegistrySpecs } from './nonRegistrySpecs';
import { cleanNpmConfig, installEnvironment } from './npmEnvironment';
import { missingDependenciesMessage } from './projectDependencies';
import { MANIFEST_FILES } from './sessionManifests';
import { useNodeDependencies } from './storeInstall';

export { INSTALL_ARGS, type InstallDependenciesOptions } from './installOptions';
export { isNonRegistrySpec, lockfileNonRegistry, nonRegistrySpecs } from './nonRegistrySpecs';
export { MANIFEST_FILES, sessionManifests, type ManifestSource } from './sessionManifests';
export { frozenInstallCommand } from './storeInstall';

const log = getLogger('tdd.session');

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
