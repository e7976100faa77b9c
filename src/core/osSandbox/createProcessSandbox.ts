import { AgentError } from '../errors/agentError';
import { BubblewrapSandbox } from './bubblewrap';
import { resolvePolicy } from './policyPaths';
import { findBubblewrap, probeSandbox } from './probeSandbox';
import { SeatbeltSandbox } from './seatbelt';
import type { ProcessSandbox, SandboxLocator, SandboxMode, SandboxPolicy } from './types';
import { UnconfinedSandbox } from './unconfined';

/**
 * The sandbox for processes that run agent-written or kata-named code. Mode `auto`: the platform's
 * sandbox (bubblewrap on Linux, seatbelt on macOS), or AgentError `SANDBOX_UNAVAILABLE` naming the
 * reason when it cannot start here; mode `off`: an unconfined pass-through whose description says so.
 */
export async function createProcessSandbox(
  mode: SandboxMode,
  policy: SandboxPolicy,
  locator: SandboxLocator = {},
): Promise<ProcessSandbox> {
  if (mode === 'off') return new UnconfinedSandbox();
  const probe = await probeSandbox(locator);
  if (!probe.available) {
    throw new AgentError(
      'SANDBOX_UNAVAILABLE',
      `No OS sandbox is available here (${probe.reason}). Code the agents write would run unconfined; turn the sandbox off explicitly to accept that.`,
      { kind: probe.kind, reason: probe.reason, platform: process.platform },
    );
  }
  const resolved = resolvePolicy(policy);
  if (probe.kind === 'seatbelt') return new SeatbeltSandbox(resolved);
  return new BubblewrapSandbox(findBubblewrap(locator).path!, resolved);
}
