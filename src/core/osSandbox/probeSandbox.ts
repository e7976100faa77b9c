import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { getLogger } from '../logging/logger';
import { bubblewrapArgs } from './bubblewrap';
import { diagnoseBubblewrap, readNamespaceFacts } from './diagnoseSandbox';
import { SANDBOX_EXEC } from './seatbelt';
import type { SandboxKind, SandboxLocator, SandboxProbe } from './types';

/** Environment variable naming the bubblewrap executable to use (tests point it at a missing path). */
export const BWRAP_PATH_VARIABLE = 'TDD_AGENT_BWRAP';
/** The reason given when bubblewrap is missing, with the command that installs it. */
export const BWRAP_MISSING = 'bubblewrap is not installed (apt-get install bubblewrap)';

const PROBE_TIMEOUT_MS = 10_000;
const logger = getLogger('osSandbox');
const cache = new Map<string, Promise<SandboxProbe>>();

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The bubblewrap to use: the explicit path, then `TDD_AGENT_BWRAP`, then PATH, then /usr/bin/bwrap; undefined when none exists. */
export function findBubblewrap(locator: SandboxLocator = {}): { path?: string; explicit?: string } {
  const explicit = locator.bwrapPath ?? process.env[BWRAP_PATH_VARIABLE];
  if (explicit) return { path: isExecutable(explicit) ? explicit : undefined, explicit };
  const candidates = (process.env.PATH ?? '')
    .split(delimiter)
    .filter(isAbsolute)
    .map((dir) => join(dir, 'bwrap'));
  return { path: [...candidates, '/usr/bin/bwrap'].find(isExecutable) };
}

/** Runs `file args` with a minimal environment; resolves with the failure's text, or undefined when it exited 0. */
function tryRun(file: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(file, args, { env: { PATH: '/usr/bin:/bin' }, timeout: PROBE_TIMEOUT_MS, cwd: '/' }, (error, _stdout, stderr) => {
      if (!error) return resolve(undefined);
      const text = String(stderr).trim().split('\n').slice(0, 3).join(' ');
      resolve(text || (error.killed ? `it did not finish within ${PROBE_TIMEOUT_MS / 1000} s` : error.message));
    });
  });
}

async function probeBubblewrap(locator: SandboxLocator): Promise<SandboxProbe> {
  const { path, explicit } = findBubblewrap(locator);
  if (!path)
    return {
      available: false,
      kind: 'bubblewrap',
      reason: explicit ? `${BWRAP_MISSING}: no executable at ${explicit}` : BWRAP_MISSING,
      diagnosis: diagnoseBubblewrap('', {}, { missing: true }),
    };
  // The same flags as a real launch, so a restriction on any of them shows up here.
  const args = bubblewrapArgs({ policy: { writableRoots: [], readOnlyPaths: [], readableRoots: [] }, cwd: '/' });
  const failure = await tryRun(path, [...args, 'true']);
  if (failure)
    return {
      available: false,
      kind: 'bubblewrap',
      reason: `bubblewrap (${path}) cannot start a sandbox here: ${failure}`,
      diagnosis: diagnoseBubblewrap(failure, readNamespaceFacts()),
    };
  return { available: true, kind: 'bubblewrap', reason: `bubblewrap (${path}) works` };
}

async function probeSeatbelt(): Promise<SandboxProbe> {
  if (!isExecutable(SANDBOX_EXEC)) return { available: false, kind: 'seatbelt', reason: `${SANDBOX_EXEC} is missing` };
  const failure = await tryRun(SANDBOX_EXEC, ['-p', '(version 1)(allow default)', '/usr/bin/true']);
  if (failure) return { available: false, kind: 'seatbelt', reason: `sandbox-exec cannot start a sandbox here: ${failure}` };
  return { available: true, kind: 'seatbelt', reason: 'sandbox-exec works' };
}

function probeFor(locator: SandboxLocator): Promise<SandboxProbe> {
  if (process.platform === 'linux') return probeBubblewrap(locator);
  if (process.platform === 'darwin') return probeSeatbelt();
  const kind: SandboxKind = 'none';
  return Promise.resolve({
    available: false,
    kind,
    reason: `${process.platform === 'win32' ? 'Windows' : process.platform} has no OS sandbox that needs no installation`,
  });
}

/**
 * Starts a trivial sandbox once per process (cached; `refresh` starts it again) and says whether it
 * works, and why not: bubblewrap's own error (e.g. user namespaces restricted) or what to install.
 * Never rejects.
 */
export function probeSandbox(options: { refresh?: boolean } & SandboxLocator = {}): Promise<SandboxProbe> {
  const key = `${process.platform}:${options.bwrapPath ?? process.env[BWRAP_PATH_VARIABLE] ?? ''}`;
  let probe = options.refresh ? undefined : cache.get(key);
  if (!probe) {
    probe = probeFor(options).then((result) => {
      logger.debug('sandbox probe', { ...result });
      return result;
    });
    cache.set(key, probe);
  }
  return probe;
}
