import { AgentError } from '../errors/agentError';
import { BubblewrapSandbox } from './bubblewrap';
import { resolvePolicy } from './policyPaths';
import { findBubblewrap, probeSandbox } from './probeSandbox';
import { parseEnvironmentList, SANDBOX_ENV_VARIABLE } from './sandboxEnvironment';
import { gitConfigOverlays } from './sanitizedGitConfig';
import { SeatbeltSandbox } from './seatbelt';
import {
  DEFAULT_SANDBOX_LIMITS,
  type ProcessSandbox,
  type SandboxLimits,
  type SandboxLocator,
  type SandboxMode,
  type SandboxPolicy,
} from './types';
import { UnconfinedSandbox } from './unconfined';

/** The policy's limits with every unset one at its default; a limit that is not a positive number is refused. */
function resolveLimits(limits: Partial<SandboxLimits> = {}): SandboxLimits {
  const resolved = { ...DEFAULT_SANDBOX_LIMITS, ...limits };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isSafeInteger(value) || value <= 0)
      throw new AgentError('CONFIG', `The sandbox limit '${name}' must be a positive whole number, not ${String(value)}.`, {
        limit: name,
        value: String(value),
      });
  }
  return resolved;
}

/**
 * The sandbox for processes that run agent-written or kata-named code. Mode `auto`: the platform's
 * sandbox (bubblewrap on Linux, seatbelt on macOS), or AgentError `SANDBOX_UNAVAILABLE` naming the
 * reason when it cannot start here; mode `off`: an unconfined pass-through whose description says so.
 * The environment inside is an allow-list: the base names, the policy's `passEnvironment`, and the person's
 * own (`locator.passEnvironment`, default the names in `TDD_AGENT_SANDBOX_ENV`). The policy's git dirs get a
 * sanitised config (bubblewrap), made here once per config content.
 */
export async function createProcessSandbox(
  mode: SandboxMode,
  policy: SandboxPolicy,
  locator: SandboxLocator = {},
): Promise<ProcessSandbox> {
  if (mode === 'off') {
    const { setEnvironment, prependPaths } = resolvePolicy(policy);
    return new UnconfinedSandbox({ setEnvironment, prependPaths });
  }
  const limits = resolveLimits(policy.limits);
  const probe = await probeSandbox(locator);
  if (!probe.available) {
    throw new AgentError(
      'SANDBOX_UNAVAILABLE',
      `No OS sandbox is available here (${probe.reason}). Code the agents write would run unconfined; turn the sandbox off explicitly to accept that.`,
      {
        kind: probe.kind,
        reason: probe.reason,
        platform: process.platform,
        ...(probe.diagnosis
          ? { diagnosis: probe.diagnosis.kind, cause: probe.diagnosis.cause, fixes: probe.diagnosis.fixes }
          : {}),
      },
    );
  }
  const resolved = resolvePolicy(policy);
  const passEnvironment = [
    ...(policy.passEnvironment ?? []),
    ...(locator.passEnvironment ?? parseEnvironmentList(process.env[SANDBOX_ENV_VARIABLE])),
  ];
  if (probe.kind === 'seatbelt') return new SeatbeltSandbox(resolved, { passEnvironment, network: policy.network });
  const overlays = await gitConfigOverlays(resolvePolicy({ writableRoots: policy.gitDirs ?? [] }).writableRoots);
  return new BubblewrapSandbox(findBubblewrap(locator).path!, resolved, {
    network: policy.network,
    passEnvironment,
    limits,
    overlays,
  });
}
