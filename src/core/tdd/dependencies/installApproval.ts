/** The approval an install needs: MEDIUM for the registry, HIGH by name for dependencies from elsewhere; a denial is a CONFIG error. */
import { AgentError } from '../../errors/agentError';
import { ApprovalPolicy } from '../../tools/approvalPolicy';
import type { InstallDependenciesOptions } from './installOptions';

/** Asks for (or takes from the policy) the approval of the install; throws CONFIG when it is not given. */
export async function approve(
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
