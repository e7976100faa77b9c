/**
 * What the TDD session examples share: the bundled FizzBuzz kata in JavaScript, run by runKataSession in a fresh
 * temporary git workspace with the model the environment names (see the README), file writes and test runs approved
 * as the CLI's `--yes` does. The workspace is removed afterwards unless KEEP=1 is set.
 */
import { createAgentRuntime } from 'tdd-agent/core';
import { runKataSession, type KataSessionOptions, type SessionSummary } from 'tdd-agent/tdd';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What an example adds to the session: its own options (phases, hooks, events), and how many cycles by default. */
export type FizzBuzzOptions = Partial<Omit<KataSessionOptions, 'workspace' | 'llm' | 'model' | 'provider'>>;

/**
 * Runs FizzBuzz with `options` (MAX_CYCLES overrides `maxCycles`), prints how it ended, lets `inspect` look at the
 * workspace before it is removed, and sets exit code 1 unless the session completed or reached its cycle limit.
 */
export async function runFizzBuzz(
  options: FizzBuzzOptions,
  inspect?: (summary: SessionSummary, workspace: string) => Promise<void>,
): Promise<void> {
  const workspace = await mkdtemp(join(tmpdir(), 'tdd-example-'));
  try {
    const runtime = await createAgentRuntime({ model: process.env.MODEL });
    const summary = await runKataSession({
      kataPath: 'fizzbuzz',
      language: 'javascript',
      approvalPolicy: { autoApproveUpTo: 'MEDIUM' },
      testTimeoutMs: 30_000,
      ...options,
      maxCycles: Number(process.env.MAX_CYCLES ?? options.maxCycles ?? 3),
      workspace,
      llm: runtime.llm,
      model: runtime.provider.model,
      provider: runtime.provider.provider,
    });
    console.log(
      `status: ${summary.status}; ${summary.cycles.length} cycles, ${summary.totals.commits} commits${summary.error ? `; ${summary.error.message}` : ''}`,
    );
    await inspect?.(summary, workspace);
    if (summary.status !== 'completed' && summary.status !== 'max_cycles') process.exitCode = 1;
  } finally {
    if (process.env.KEEP) console.log(`workspace kept at ${workspace}`);
    else await rm(workspace, { recursive: true, force: true });
  }
}

/** Runs an example's main, printing an error's code and message and exiting 1 when it throws. */
export function runMain(main: () => Promise<void>): void {
  main().catch((error: { error_code?: string; message?: string }) => {
    console.error(`${error.error_code ?? 'ERROR'}: ${error.message}`);
    process.exitCode = 1;
  });
}
