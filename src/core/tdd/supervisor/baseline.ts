import { AgentError } from '../../errors/agentError';
import { redactSecrets } from '../../security/redact';
import { missingPytestPlugins } from '../../testRunners/diagnoseLoadError';
import { missingOfflineDependency } from '../../testRunners/offlineDependencies';
import { identifyRunner } from '../../testRunners/runnerKinds';
import { truncateHeadTail } from '../../testRunners/truncateOutput';
import type { TestRunResult } from '../../testRunners/types';
import type { SupervisorEvent } from '../events';
import { counts, type LoopState } from '../phases/loopState';
import type { TestRuns } from '../phases/testRuns';
import { failingTests, suiteStateOf, testNames } from '../judging/testJudgement';

/**
 * The run before any model request: the project's tests must run in the session's sandbox. One that could not run
 * (a load error, a missing module or runner, a config error, test files but no test) or timed out stops the session
 * with the runner's own words and a next step. Tests already failing are known failures: listed, and never blamed
 * on a role. Without per-test results, failing tests cannot be told apart, and the session refuses to start.
 */
export async function runBaseline(
  tests: TestRuns,
  state: LoopState,
  emit: (event: SupervisorEvent) => void,
  first: number,
): Promise<void> {
  const baseline = await tests.run('baseline', first);
  if (baseline.status === 'error' || baseline.status === 'timeout') {
    const tail = truncateHeadTail(redactSecrets(baseline.output.trim()), 1_500);
    throw new AgentError(
      'CONFIG',
      `The project's tests cannot run in the session's sandbox (\`${baseline.command}\`): ${baseline.reason ?? baseline.status}\n${tail ? `${tail}\n` : ''}${baselineNextStep(baseline)} No model request was made.`,
      { command: baseline.command, errorKind: baseline.errorKind, status: baseline.status },
    );
  }
  const failing = failingTests(baseline);
  if (baseline.status === 'failed' && failing.length === 0) {
    throw new AgentError(
      'CONFIG',
      `The project's tests are not green before the session starts (${baseline.failed} failing), and the runner does not say which tests fail, so they could not be set aside. Make them pass first, or use a test command whose runner reports each test (node --test, mocha, jest, vitest, pytest). No model request was made.`,
      { command: baseline.command, failed: baseline.failed },
    );
  }
  state.suite = suiteStateOf(baseline, new Set(failing.map((t) => t.id)));
  state.lastTests = state.committedTests = counts(baseline);
  if (failing.length > 0) {
    state.notices.push(
      `These tests already failed before the session started; they are set aside (no role is asked to fix them, and they do not count against anyone):\n${testNames(failing)}`,
    );
    emit({
      type: 'known_failures',
      cycle: first,
      tests: failing.map((t) => redactSecrets(`${t.file ? `${t.file} › ` : ''}${t.name}`)),
    });
  }
}

/** The runners of Ruby's tests: their missing files are gems not installed, fixed by bundler, not by a package manager of the project. */
const RUBY_RUNNERS: ReadonlySet<string> = new Set(['rspec', 'minitest']);

/** What to do when the baseline run could not run the project's tests. */
function baselineNextStep(run: TestRunResult): string {
  const offline = missingOfflineDependency(run.output);
  if (offline) {
    return `Next step: the session builds offline, from your own caches, and ${offline.cache} lacks what the project needs (${offline.line}): run \`${offline.fetch}\` once in your checkout, then start the session again.`;
  }
  switch (run.errorKind) {
    case 'missing_module':
      if (RUBY_RUNNERS.has(identifyRunner(run.command)))
        return `Next step: a file the tests require is not on ruby's load path${run.missingName ? ` (${run.missingName})` : ''}: when it comes from a gem, run \`bundle install\` once in your checkout (the session runs the tests with the gems installed for your ruby, read-only, and installs none), then start the session again; or name the test command with --test-command / test_command.`;
      return "Next step: install the project's dependencies in your checkout (the session reuses them), or name the test command with --test-command / test_command.";
    case 'runner_missing':
      return 'Next step: install the test runner (or the project dependencies that bring it), or name the test command with --test-command / test_command.';
    case 'plugin_missing':
      return pluginNextStep(run);
    case 'no_tests':
      return "Next step: check that the test command finds the project's test files (its config's include / testMatch / testpaths).";
    default:
      return run.status === 'timeout'
        ? 'Next step: raise the time limit of a test run (--test-timeout, tddAgent.testTimeoutMs) or make the suite faster.'
        : 'Next step: run the same command in your checkout and fix what it reports, or name another test command with --test-command / test_command.';
  }
}

/**
 * The two ways out when pytest was given an option of a plugin that is not installed: install the plugin where the
 * tests run, or run pytest without the option (without the config's `addopts` when the command does not name it).
 */
function pluginNextStep(run: TestRunResult): string {
  const missing = missingPytestPlugins(run.output);
  const packages = missing?.packages ?? [];
  const options = missing?.options ?? [];
  const python = /^(\S*python[\d.]*)\s+-m\s+pytest\b/.exec(run.command)?.[1];
  const pip = python ? `${python} -m pip` : 'pip';
  const install =
    packages.length > 0
      ? `install ${packages.join(' and ')} in the project's environment (\`${pip} install ${packages.join(' ')}\`)`
      : `install the pytest plugin that provides ${options.join(' ') || 'the option'} in the project's environment`;
  const words = run.command.split(/\s+/);
  const named = (option: string): boolean =>
    option.startsWith('-p ') ? /\s-p\s*(\S+)/.exec(run.command)?.[1] === option.slice(3) : words.includes(option);
  const inCommand = options.length > 0 && options.every(named);
  const without = inCommand
    ? `remove ${options.join(' ')} from the test command (--test-command / test_command)`
    : `run pytest without the config's addopts: --test-command "${run.command} -o addopts=''" (this drops every option addopts names; add back those the tests need)`;
  return `Next step: ${install}, or ${without}.`;
}
