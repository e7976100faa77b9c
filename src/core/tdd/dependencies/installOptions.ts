/** What an install of the project's packages is given: the command it runs, how long it may take, and its options. */
import type { ControlProtocol } from '../../control/controlProtocol';
import type { SandboxLocator, SandboxMode } from '../../osSandbox';
import type { ApprovalPolicyConfig } from '../../tools/approvalPolicy';
import type { ProjectDependencies } from './projectDependencyTypes';
import type { ManifestSource } from './sessionManifests';

/** `npm install` as the session runs it: no package scripts (so no downloaded code runs), quiet. */
export const INSTALL_ARGS = ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'] as const;
/** How long an install may take. */
export const INSTALL_TIMEOUT_MS = 5 * 60_000;

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
