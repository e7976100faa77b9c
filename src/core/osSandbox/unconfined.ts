import { withoutCredentials } from './sandboxEnvironment';
import type { ProcessLaunch, ProcessSandbox, WrappedLaunch } from './types';

/** Mode `off`: launches pass through unchanged but for credential-like variables, and the description says that nothing is confined. */
export class UnconfinedSandbox implements ProcessSandbox {
  readonly kind = 'none' as const;
  readonly description = "no OS sandbox (turned off): tests and commands run unconfined, with your user's rights and network";

  wrap(launch: ProcessLaunch): WrappedLaunch {
    return { command: launch.command, args: [...launch.args], env: withoutCredentials(launch.env), shell: launch.shell };
  }
}
