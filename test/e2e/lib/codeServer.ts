/**
 * Starts a real VS Code (code-server from npm, VS Code's own workbench and extension host) in a throwaway
 * profile with the given unpacked extensions installed, and guarantees it is killed again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { codeServerInstall, RESULTS_DIR } from './paths';

/** Options for {@link startCodeServer}. */
export interface StartCodeServerOptions {
  /** Unpacked extension folders (each with a package.json) to install into the temporary extensions dir. */
  readonly extensionDirs: readonly string[];
  /** Folder opened as the workspace. */
  readonly workspace: string;
  /**
   * User settings merged over the harness defaults (workspace trust off, no welcome page, no AI/chat UI,
   * no update checks). Pass `{"security.workspace.trust.enabled": true}` to test restricted mode.
   */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Extra environment for code-server; it reaches the extension host's `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Name used for the log folder under test-results/e2e/logs (default: "code-server"). */
  readonly label?: string;
  /** How long to wait for the HTTP server to answer (default 60 s). */
  readonly startTimeoutMs?: number;
}

/** A running code-server. */
export interface CodeServerHandle {
  /** Base URL of the workbench, e.g. `http://127.0.0.1:43121/`. It opens the workspace. */
  readonly url: string;
  /** Temporary user-data-dir (VS Code's own logs are under `logs/`). */
  readonly userDataDir: string;
  /** Temporary extensions dir holding copies of `extensionDirs`. */
  readonly extensionsDir: string;
  /** File capturing code-server's stdout/stderr; VS Code's logs are copied next to it on stop. */
  readonly logFile: string;
  /** The child process (its own process group). */
  readonly process: ChildProcess;
  /** Kills code-server and its children, keeps the logs, removes the temp dirs. Safe to call twice. */
  stop(): Promise<void>;
}

/** Defaults that keep a fresh profile quiet and deterministic. */
const DEFAULT_SETTINGS: Readonly<Record<string, unknown>> = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'git.openRepositoryInParentFolders': 'never',
  'window.restoreWindows': 'none',
};

/** Folders never copied into the extensions dir (the repo root may be passed as an extension folder). */
const COPY_EXCLUDES = new Set([
  'node_modules',
  '.git',
  'test',
  'test-results',
  'coverage',
  '.vscode-test',
  '.tdd',
  '.cache',
  'src',
]);

const live = new Set<CodeServerHandle>();
let exitHookInstalled = false;

/** Kills every still-running code-server synchronously when the test process exits (crash, Ctrl-C, mocha --exit). */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  const killAll = (): void => {
    for (const handle of live) killGroup(handle.process, 'SIGKILL');
  };
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      killAll();
      process.exit(130);
    });
  }
}

/** Signals code-server's whole process group; after the leader exited, still reaches its leftover children. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal); // negative pid: the whole group (extension host, pty host, watchers)
  } catch {
    /* group already gone */
  }
}

/** Asks the OS for a free loopback port. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function readManifest(dir: string): Promise<{ publisher?: string; name?: string; version?: string }> {
  const file = path.join(dir, 'package.json');
  try {
    return JSON.parse(await fsp.readFile(file, 'utf8')) as { publisher?: string; name?: string; version?: string };
  } catch (cause) {
    throw new Error(`e2e: ${dir} is not an extension folder (cannot read ${file})`, { cause });
  }
}

/** Copies an unpacked extension into `<extensionsDir>/<publisher>.<name>-<version>` (VS Code's own layout). */
async function installExtension(dir: string, extensionsDir: string): Promise<string> {
  const source = path.resolve(dir);
  const manifest = await readManifest(source);
  const folder = `${manifest.publisher ?? 'undefined_publisher'}.${manifest.name ?? path.basename(source)}-${manifest.version ?? '0.0.0'}`;
  const target = path.join(extensionsDir, folder);
  await fsp.cp(source, target, {
    recursive: true,
    filter: (src) => src === source || !COPY_EXCLUDES.has(path.relative(source, src).split(path.sep)[0] ?? ''),
  });
  return target;
}

function tail(file: string, lines = 40): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

async function waitForHttp(url: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `e2e: code-server exited (${child.exitCode ?? child.signalCode}) before answering; log ${logFile}:\n${tail(logFile)}`,
      );
    }
    try {
      const response = await fetch(new URL('healthz', url), { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
      lastError = `HTTP ${response.status}`;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `e2e: code-server did not answer at ${url} within ${timeoutMs} ms (${lastError}); log ${logFile}:\n${tail(logFile)}`,
  );
}

/**
 * Starts code-server on a free loopback port with a temporary user-data-dir and extensions dir, and waits
 * until its HTTP server answers. Logs go to `test-results/e2e/logs/<label>-<port>/`.
 * Stop it with `handle.stop()` (in an `after` hook); a process-exit hook kills any left over.
 * @throws Error with the log tail when code-server exits early or does not answer in time.
 */
export async function startCodeServer(options: StartCodeServerOptions): Promise<CodeServerHandle> {
  const install = codeServerInstall();
  installExitHook();
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'e2e-code-server-'));
  const userDataDir = path.join(root, 'user-data');
  const extensionsDir = path.join(root, 'extensions');
  try {
    await fsp.mkdir(path.join(userDataDir, 'User'), { recursive: true });
    await fsp.mkdir(extensionsDir, { recursive: true });
    const settings = { ...DEFAULT_SETTINGS, ...options.settings };
    await fsp.writeFile(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
    for (const dir of options.extensionDirs) await installExtension(dir, extensionsDir);
  } catch (error) {
    await fsp.rm(root, { recursive: true, force: true });
    throw error;
  }

  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const logDir = path.join(RESULTS_DIR, 'logs', `${options.label ?? 'code-server'}-${port}`);
  await fsp.mkdir(logDir, { recursive: true });
  const logFile = path.join(logDir, 'code-server.log');
  const logFd = fs.openSync(logFile, 'w');

  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  // npm/mocha leave variables behind that would confuse VS Code or the extension's child processes.
  for (const key of Object.keys(env)) {
    if (key.startsWith('VSCODE_') || key === 'ELECTRON_RUN_AS_NODE' || key === 'NODE_OPTIONS') delete env[key];
  }
  const args = [
    install.entry,
    '--auth',
    'none',
    // Otherwise code-server writes ~/.config/code-server/config.yaml (with a generated password) on first run.
    '--config',
    path.join(root, 'config.yaml'),
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    '--log',
    'debug',
    path.resolve(options.workspace),
  ];
  const child = spawn(install.node, args, { env, detached: true, stdio: ['ignore', logFd, logFd] });
  fs.closeSync(logFd);
  child.on('error', () => undefined); // reported through waitForHttp (exitCode) instead

  let stopped: Promise<void> | undefined;
  const handle: CodeServerHandle = {
    url,
    userDataDir,
    extensionsDir,
    logFile,
    process: child,
    stop() {
      stopped ??= (async () => {
        live.delete(handle);
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
          killGroup(child, 'SIGTERM');
          const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5000);
          await exited;
          clearTimeout(timer);
          killGroup(child, 'SIGKILL'); // stragglers left in the group
        }
        await fsp
          .cp(path.join(userDataDir, 'logs'), path.join(logDir, 'vscode-logs'), { recursive: true })
          .catch(() => undefined);
        if (!process.env.E2E_KEEP_TEMP) await fsp.rm(root, { recursive: true, force: true }).catch(() => undefined);
      })();
      return stopped;
    },
  };
  live.add(handle);
  try {
    await waitForHttp(url, child, logFile, options.startTimeoutMs ?? 60_000);
  } catch (error) {
    await handle.stop();
    throw error;
  }
  return handle;
}

/** Files under the running instance's VS Code log folder (`<user-data-dir>/logs/<session>/...`), recursively. */
async function logFiles(handle: CodeServerHandle): Promise<string[]> {
  const root = path.join(handle.userDataDir, 'logs');
  const entries = await fsp.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/**
 * The extension host's log (`remoteexthost.log`): activation lines look like
 * `ExtensionService#_doActivateExtension <publisher.name>, startup: false, activationEvent: 'onCommand:…'`,
 * and activation failures and uncaught extension errors land here too. Read it while the server runs.
 */
export async function extensionHostLog(handle: CodeServerHandle): Promise<string> {
  const files = (await logFiles(handle)).filter((file) => path.basename(file) === 'remoteexthost.log');
  return (await Promise.all(files.map((file) => fsp.readFile(file, 'utf8')))).join('\n');
}

/**
 * What an extension wrote to its output channels (a `LogOutputChannel` is persisted as
 * `exthost<n>/<extensionId>/<channel name>.log`), concatenated; '' when it wrote nothing yet.
 */
export async function extensionOutputLog(handle: CodeServerHandle, extensionId: string): Promise<string> {
  const files = (await logFiles(handle)).filter(
    (file) => path.basename(path.dirname(file)).toLowerCase() === extensionId.toLowerCase(),
  );
  return (await Promise.all(files.map((file) => fsp.readFile(file, 'utf8')))).join('\n');
}
