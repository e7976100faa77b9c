import { z } from 'zod';
import { AgentError } from '../../errors/agentError';
import { redactSecrets } from '../../security/redact';
import { compactTestOutput } from '../../testRunners/compactTestOutput';
import type { TestRunner, TestRunResult } from '../../testRunners/types';
import { defineTool } from '../types';
import { BuiltinToolError } from './errors';
import { DEFAULT_MAX_CONTENT_CHARS, truncateText } from './textLimits';

/** Parameters of `run_tests` (exactly `{}`, as the TDD roles use it). */
export const runTestsParameters = z.object({});

/** How `run_tests` runs. */
export interface RunTestsOptions {
  /** The workspace's test runner; without one the tool returns a clear error. */
  testRunner?: TestRunner;
  /** Passed to the runner (it has its own default). */
  timeoutMs?: number;
}

function summarize(result: TestRunResult): string {
  const counts = `${result.passed} passed, ${result.failed} failed, ${result.total} total`;
  switch (result.status) {
    case 'passed':
      return `Tests PASSED (${counts}).`;
    case 'failed':
      return `Tests FAILED (${counts}).`;
    case 'timeout':
      return `Tests TIMED OUT${result.reason ? `: ${result.reason}` : ''} (${counts}).`;
    case 'cancelled':
      return 'The test run was cancelled.';
    default:
      return `The tests could not run${result.reason ? `: ${result.reason}` : ''}.`;
  }
}

/** Writes the workspace's absolute path as `.` in a runner's output. */
function relativeToWorkspace(text: string, root: string): string {
  const trimmed = root.replace(/[\\/]+$/, '');
  return trimmed.length > 1 ? text.split(trimmed).join('.') : text;
}

/**
 * `run_tests` runs the workspace's tests through the injected {@link TestRunner} and reports
 * status, counts and (capped) output, the workspace's absolute path written `.` and compacted as
 * `compactTestOutput` says; `data` is the full TestRunResult.
 *
 * Danger MEDIUM, not HIGH: it does execute workspace code, but the command line is fixed by the
 * host's runner (the model cannot choose it), the child gets a scrubbed environment and a time
 * limit, and the code it runs could only get there through write_file/edit_file, which are
 * themselves MEDIUM. Asking at HIGH on every red-green step would make TDD unusable without
 * making it safer than approving the writes.
 */
export function createRunTestsTool(options: RunTestsOptions = {}) {
  return defineTool({
    name: 'run_tests',
    description: 'Run the tests; returns counts and output.',
    category: 'test',
    dangerLevel: 'MEDIUM',
    parameters: runTestsParameters,
    // run_tests takes no parameters: its approval card shows the command line the runner will run.
    ...(options.testRunner
      ? { preview: () => ({ kind: 'command' as const, commandLine: options.testRunner?.command ?? '' }) }
      : {}),
    async execute(_params, context) {
      const runner = options.testRunner;
      if (!runner) {
        throw new BuiltinToolError(
          'run_tests',
          'No test runner is configured for this workspace, so no tests were run. Ask the person to configure one.',
        );
      }
      context.logger.debug('run_tests', { runner: runner.name, command: runner.command });
      const result = await runner.run({ signal: context.signal, timeoutMs: options.timeoutMs });
      if (result.status === 'cancelled')
        throw new AgentError('CANCELLED', 'The test run was cancelled.', { command: result.command });
      // Runners print the workspace's absolute path on every line; written `.` it says the same in fewer tokens.
      // Runtime stack frames, timings and the runner's platform header are left out (compactTestOutput).
      const local = (text: string) => compactTestOutput(relativeToWorkspace(text, context.workspaceRoot));
      const output = truncateText(
        redactSecrets(local(result.output)),
        DEFAULT_MAX_CONTENT_CHARS,
        'the test output is longer',
      ).text;
      const summary = summarize(result.reason ? { ...result, reason: local(result.reason) } : result);
      return { content: `$ ${result.command}\n${summary}\n\n${output}`, data: result };
    },
  });
}
