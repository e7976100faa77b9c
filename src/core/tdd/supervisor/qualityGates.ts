import { runProcess } from '../../process/runProcess';

export interface GateFailure {
  command: string;
  output: string;
}

/**
 * Runs each quality-gate command (e.g. `tsc --noEmit`, a linter) in the workspace, in order.
 * Returns the first failure, or undefined when all pass. A gate that cannot start is a failure.
 */
export async function runQualityGates(commands: readonly string[], cwd: string, options: { timeoutMs: number; signal?: AbortSignal }): Promise<GateFailure | undefined> {
  for (const command of commands) {
    const result = await runProcess({ cwd, command, shell: true, timeoutMs: options.timeoutMs, signal: options.signal, maxOutputBytes: 64 * 1024 });
    if (result.exitCode !== 0) {
      const why = result.timedOut ? `timed out after ${options.timeoutMs} ms` : result.spawnError ? `could not start: ${result.spawnError}` : `exit code ${result.exitCode}`;
      return { command, output: `${command}: ${why}\n${result.output}` };
    }
  }
  return undefined;
}
