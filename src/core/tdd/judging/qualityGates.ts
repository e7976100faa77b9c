import type { ProcessSandbox } from '../../osSandbox/types';
import { runProcess } from '../../process/runProcess';
import { redactSecrets } from '../../security/redact';

/** The first quality gate that failed, with its output. */
export interface GateFailure {
  command: string;
  output: string;
}

/**
 * Runs each quality-gate command (e.g. `tsc --noEmit`, a linter) in the workspace, in order.
 * Returns the first failure (command and output with secrets redacted), or undefined when all pass.
 * A gate that cannot start is a failure. With `sandbox`, each gate runs inside that OS sandbox.
 */
export async function runQualityGates(
  commands: readonly string[],
  cwd: string,
  options: { timeoutMs: number; signal?: AbortSignal; sandbox?: ProcessSandbox },
): Promise<GateFailure | undefined> {
  for (const command of commands) {
    const result = await runProcess({
      cwd,
      command,
      shell: true,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      maxOutputBytes: 64 * 1024,
      sandbox: options.sandbox,
    });
    if (result.exitCode !== 0) {
      const why = result.timedOut
        ? `timed out after ${options.timeoutMs} ms`
        : result.spawnError
          ? `could not start: ${result.spawnError}`
          : `exit code ${result.exitCode}`;
      // The output becomes an event and a hint: a gate that prints a key (from a config file, say) must not leak it.
      return { command: redactSecrets(command), output: redactSecrets(`${command}: ${why}\n${result.output}`) };
    }
  }
  return undefined;
}
