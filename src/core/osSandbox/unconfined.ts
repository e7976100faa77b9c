import { withPolicyEnvironment, type ResolvedPolicy } from './policyPaths';
import { withoutCredentials } from './sandboxEnvironment';
import type { ProcessLaunch, ProcessSandbox, WrappedLaunch } from './types';

/**
 * Mode `off`: launches pass through unchanged but for credential-like variables (and the policy's own variables, when
 * given: a project's virtual environment), and the description says that nothing is confined.
 */
export class UnconfinedSandbox implements ProcessSandbox {
  readonly kind = 'none' as const;
  readonly description = "no OS sandbox (turned off): tests and commands run unconfined, with your user's rights and network";

  constructor(private readonly environment: Pick<ResolvedPolicy, 'setEnvironment' | 'prependPaths'> = {}) {}

  wrap(launch: ProcessLaunch): WrappedLaunch {
    const env = withPolicyEnvironment(withoutCredentials(launch.env), {
      writableRoots: [],
      readOnlyPaths: [],
      readableRoots: [],
      ...this.environment,
    });
    return { command: launch.command, args: [...launch.args], env, shell: launch.shell };
  }
}
