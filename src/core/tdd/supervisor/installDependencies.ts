import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ControlProtocol } from '../../control/controlProtocol';
import { AgentError } from '../../errors/agentError';
import { getLogger } from '../../logging/logger';
import { runProcess } from '../../process/runProcess';
import { redactSecrets } from '../../security/redact';
import { ApprovalPolicy, type ApprovalPolicyConfig } from '../../tools/approvalPolicy';

const log = getLogger('tdd.session');

/** `npm install` as the session runs it: no package scripts (so no downloaded code runs), quiet. */
export const INSTALL_ARGS = ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'] as const;
const INSTALL_TIMEOUT_MS = 5 * 60_000;

/** Options of {@link installDependencies}. */
export interface InstallDependenciesOptions {
  policy?: ApprovalPolicyConfig;
  control?: ControlProtocol;
  signal?: AbortSignal;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** True when the worktree's package.json declares packages and nothing is installed yet. */
async function needsInstall(dir: string): Promise<boolean> {
  const text = await readFile(join(dir, 'package.json'), 'utf8').catch(() => undefined);
  if (text === undefined || (await exists(join(dir, 'node_modules')))) return false;
  try {
    const pkg = JSON.parse(text) as { dependencies?: object; devDependencies?: object };
    return Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).length > 0;
  } catch {
    return false; // the test runner reports an unreadable package.json
  }
}

/**
 * The one step of a session that uses the network: `npm install --ignore-scripts` in the session's
 * worktree, before any agent turn, so the package.json is the scaffold's or the person's (never the
 * agents'). It runs outside the test sandbox (which has no network) after a MEDIUM approval (`--yes`
 * covers it); no package script runs, so no downloaded code executes here. A denial or a failed install is
 * a CONFIG error. Does nothing when there is nothing to install.
 */
export async function installDependencies(dir: string, options: InstallDependenciesOptions = {}): Promise<boolean> {
  if (!(await needsInstall(dir))) return false;
  const command = `npm ${INSTALL_ARGS.join(' ')}`;
  const verdict = new ApprovalPolicy(options.policy ?? {}).decideLevel('MEDIUM');
  let approved = verdict.rule === 'allow';
  let why = verdict.reason;
  if (verdict.rule === 'ask' && options.control) {
    const answer = await options.control.requestApproval(
      {
        tool: 'install_dependencies',
        dangerLevel: 'MEDIUM',
        params: { command, cwd: dir },
        preview: `The kata's project needs its packages (package.json) to run its tests:\n\n  ${command}\n\nThis downloads them from the npm registry into the session's worktree, outside the test sandbox (which has no network). No package scripts run.`,
        reason: 'the tests need packages that are not installed',
      },
      options.signal,
    );
    approved = answer.outcome === 'approved' || answer.outcome === 'always';
    why = answer.reason ?? answer.outcome;
  } else if (verdict.rule === 'ask') {
    why = 'there is no one to ask';
  }
  if (!approved) {
    throw new AgentError(
      'CONFIG',
      `The kata's tests need '${command}' in the session worktree, which was not approved (${why}). Approve it (writes at MEDIUM) to run this kata.`,
      { command },
    );
  }
  log.info('installing the project’s packages in the session worktree', { command, worktree: dir });
  const result = await runProcess({
    cwd: dir,
    command: 'npm',
    args: [...INSTALL_ARGS],
    timeoutMs: INSTALL_TIMEOUT_MS,
    signal: options.signal,
    maxOutputBytes: 256 * 1024,
  });
  if (result.exitCode !== 0) {
    const tail = result.output.trim().split('\n').slice(-8).join('\n');
    throw new AgentError(
      'CONFIG',
      redactSecrets(
        `'${command}' failed in the session worktree (${result.timedOut ? 'timed out' : result.spawnError ? `could not start: ${result.spawnError}` : `exit code ${result.exitCode}`}):\n${tail}`,
      ),
      { command },
    );
  }
  return true;
}
