import { delimiter, join } from 'node:path';
import type { ProcessSandbox } from '../osSandbox/types';
import { runProcess, type RunProcessResult } from '../process/runProcess';
import {
  describeProblem,
  diagnoseLoadError,
  diagnoseMissingRunner,
  type LoadProblem,
  type TestErrorKind,
} from './diagnoseLoadError';
import type { TestCounts } from './parsers/testCounts';
import { parserFor, type RunnerKind } from './runnerKinds';
import { findTestFiles } from './testFiles';
import { DEFAULT_OUTPUT_LIMIT, truncateHeadTail } from './truncateOutput';
import type { TestRunner, TestRunResult } from './types';

/** Default limit for one test run: long enough for a slow suite, short enough that an infinite loop costs a minute. */
export const DEFAULT_TEST_TIMEOUT_MS = 60_000;

/** A TestRunResult with the diagnosis behind an `error`, for the supervisor's decisions. */
export interface DiagnosedTestRunResult extends TestRunResult {
  runner: RunnerKind;
  /** Set when status is `error` (and for a run with no tests yet, `no_tests`). */
  errorKind?: TestErrorKind;
  /** For missing_module / missing_export: the module or name that was not found. */
  missingName?: string;
}

/** Options of CommandTestRunner. */
export interface CommandTestRunnerOptions {
  workspace: string;
  kind: RunnerKind;
  /** A shell command line, run exactly as a person would type it in the workspace. */
  command: string;
  /** Extra environment for the test process. */
  env?: NodeJS.ProcessEnv;
  /** Characters of output kept for the model (head and tail). */
  outputLimit?: number;
  /** Default time limit of each run; 60 s when unset. */
  timeoutMs?: number;
  /** Runs the test command inside this OS sandbox. */
  sandbox?: ProcessSandbox;
}

/** Variables that would change how a nested runner behaves (a parent node:test run, colours, watch mode). */
function testEnvironment(workspace: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_TEST_CONTEXT; // set when we are ourselves under node --test: the child would report to it instead
  delete env.NODE_OPTIONS; // a loader of ours (e.g. tsx) must not leak into the workspace's runner
  const merged = { ...env, ...extra };
  return {
    CI: 'true',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    PYTHONDONTWRITEBYTECODE: '1', // no __pycache__ folders to commit
    ...merged,
    // like `npm test`: the workspace's own binaries first
    PATH: [join(workspace, 'node_modules', '.bin'), merged.PATH ?? ''].join(delimiter),
  };
}

/**
 * Runs one test command in a workspace and reports passed / failed / total, telling apart tests that
 * fail (`failed`) from tests that could not run (`error`), a `timeout` (the whole process tree is
 * killed) and `cancelled`. The command is run verbatim through the shell — no reporter flags are
 * added — so what the agent sees is what the person would see running it themselves.
 */
export class CommandTestRunner implements TestRunner {
  /** The runner kind, as a display name. */
  readonly name: string;
  /** The command line run through the shell. */
  readonly command: string;
  /** Which runner's output is parsed. */
  readonly kind: RunnerKind;
  /** The folder the command runs in. */
  readonly workspace: string;
  private readonly env?: NodeJS.ProcessEnv;
  private readonly outputLimit: number;
  private readonly defaultTimeoutMs: number;
  private readonly sandbox?: ProcessSandbox;

  constructor(options: CommandTestRunnerOptions) {
    this.workspace = options.workspace;
    this.kind = options.kind;
    this.name = options.kind;
    this.command = options.command;
    this.env = options.env;
    this.outputLimit = options.outputLimit ?? DEFAULT_OUTPUT_LIMIT;
    this.defaultTimeoutMs = options.timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS;
    this.sandbox = options.sandbox;
  }

  /** Runs the tests once. Never rejects: every outcome is a result. */
  async run(options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<DiagnosedTestRunResult> {
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const result = await runProcess({
      cwd: this.workspace,
      command: this.command,
      shell: true,
      env: testEnvironment(this.workspace, this.env),
      timeoutMs,
      maxOutputBytes: 4 * 1024 * 1024,
      signal: options.signal,
      sandbox: this.sandbox,
    });
    return this.interpret(result, timeoutMs);
  }

  private async interpret(result: RunProcessResult, timeoutMs: number): Promise<DiagnosedTestRunResult> {
    const counts: TestCounts | undefined = parserFor(this.kind)(result.output);
    const base = {
      runner: this.kind,
      passed: counts?.passed ?? 0,
      failed: counts?.failed ?? 0,
      total: counts?.total ?? 0,
      output: truncateHeadTail(result.output, this.outputLimit),
      command: this.command,
      exitCode: result.exitCode,
      durationMs: result.durationMs,
    };
    const errorResult = (problem: LoadProblem): DiagnosedTestRunResult => ({
      ...base,
      status: 'error',
      errorKind: problem.kind,
      missingName: problem.module,
      reason: describeProblem(problem),
    });

    if (result.cancelled) return { ...base, status: 'cancelled', reason: 'The test run was cancelled.' };
    if (result.timedOut) {
      return {
        ...base,
        status: 'timeout',
        reason: `Tests did not finish within ${+(timeoutMs / 1000).toFixed(1)} s and were killed — look for an infinite loop or a test that never ends.`,
      };
    }
    if (result.spawnError) return errorResult({ kind: 'runner_missing', line: result.spawnError });

    const loadProblem = diagnoseLoadError(result.output, this.kind);
    if (loadProblem) return errorResult(loadProblem);
    if (!counts) {
      const missing = diagnoseMissingRunner(result.output, result.exitCode);
      if (missing) return errorResult(missing);
      if (/No test files found|No tests found/i.test(result.output)) return this.noTests(base);
      if (result.exitCode === 0) {
        return {
          ...base,
          status: 'passed',
          reason: 'The test command succeeded but printed no test summary, so tests were not counted.',
        };
      }
      const firstError = /^.*\b(Error|error|ERR!|FAIL)\b.*$/m.exec(result.output)?.[0].trim() ?? `exit code ${result.exitCode}`;
      return errorResult({ kind: 'crash', line: firstError });
    }
    if ((counts.errors ?? 0) > 0 && counts.failed === 0) {
      return errorResult({ kind: 'collection', line: `${counts.errors} error(s) outside test bodies (setup or collection)` });
    }
    if (counts.failed > 0) return { ...base, status: 'failed' };
    if (result.exitCode !== 0 && counts.total > 0) {
      return errorResult({ kind: 'crash', line: `the runner exited with code ${result.exitCode} although no test failed` });
    }
    if (counts.total === 0) return this.noTests(base);
    return { ...base, status: 'passed' };
  }

  /** Zero tests: fine while the workspace has no test files ("no tests yet"), an error when it has some. */
  private async noTests(base: Omit<DiagnosedTestRunResult, 'status'>): Promise<DiagnosedTestRunResult> {
    const testFiles = await findTestFiles(this.workspace, 5);
    if (testFiles.length > 0) {
      const line = `test files exist (${testFiles.join(', ')}) but no test ran — do they define tests the runner finds?`;
      return { ...base, status: 'error', errorKind: 'no_tests', reason: describeProblem({ kind: 'no_tests', line }) };
    }
    return { ...base, status: 'passed', errorKind: 'no_tests', reason: 'No tests yet: the workspace has no test files.' };
  }
}
