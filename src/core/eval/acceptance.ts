import { copyFile, mkdir, rm } from 'node:fs/promises';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { untrustedTreeGit } from '../hostGit/untrustedTreeGit';
import { readTreeText } from '../workspaceSandbox/untrustedTree';
import type { GitRun } from '../hostGit/gitClient';
import { createProcessSandbox, worktreePolicy, type ProcessSandbox, type SandboxMode } from '../osSandbox';
import {
  CommandTestRunner,
  DEFAULT_TEST_TIMEOUT_MS,
  detectTestRunner,
  type RunnerKind,
  type TestCaseResult,
  type TestRunResult,
} from '../testRunners';
import { shellWord } from '../testRunners/reports/commandLine';
import { ACCEPTANCE_RUNS, acceptanceLanguages } from './acceptanceRuns';
import { installDependencies } from '../tdd/dependencies/installDependencies';
import type { EvalLanguage } from './evalSet';
import { type Language } from '../vocabulary';
import { AgentError } from '../errors/agentError';

/** How a run did on the held-back acceptance tests, on the session's final commit. */
export interface AcceptanceResult {
  passed: number;
  /** The file's test count, or the set's `cases` when the file could not run (every case counts as failed then). */
  total: number;
  /** The run's status (`error`: the file could not even load the code, e.g. the module or a function is missing). */
  status: TestRunResult['status'] | 'not_run';
  /** One line on why it did not run or failed to load, when it did not. */
  reason?: string;
  /** The names of the acceptance tests that did not pass. */
  failing?: string[];
}

/** What replaying the session's commits found: each commit's own tests run again on a checkout of it. */
export interface CommitReplay {
  /** The commits checked, oldest first. */
  checked: number;
  /** Those whose tests did not pass (failed, errored or timed out): a red commit the session should never have made. */
  red: Array<{ sha: string; status: TestRunResult['status']; failed: number }>;
}

/**
 * A checkout of a session's commits in a folder of its own (a detached worktree of the eval's throw-away repository,
 * outside anything the agents wrote in), where the acceptance tests and the replay of each commit run in the same OS
 * sandbox as the session's test runs: writable only there, the repository's git dir readable.
 */
export class SessionCheckout {
  private constructor(
    /** The checkout's folder. */
    readonly dir: string,
    private readonly git: GitRun,
    private readonly sandbox: ProcessSandbox,
    private readonly repository: string,
    /** Go's build cache for every run here, beside the checkout: it outlives `checkout` (which cleans the folder). */
    private readonly goBuildCache: string,
    /** cargo's target folder for every run here, beside the checkout likewise: each commit's build starts from the last. */
    private readonly cargoTarget: string,
  ) {}

  /**
   * Adds a detached worktree of `repository` at `dir`, on `commit`, and makes its sandbox. When the commit's
   * package.json declares packages (a TypeScript kata's tsx), they are installed into the checkout's `node_modules` as
   * the session installed them (npm with `--ignore-scripts`, from that commit's manifests, approved at MEDIUM as the
   * eval approves the session's writes); it stays there across `checkout`.
   */
  static async open(
    repository: string,
    dir: string,
    commit: string,
    mode: SandboxMode = 'auto',
    signal?: AbortSignal,
  ): Promise<SessionCheckout> {
    const repoGit = await untrustedTreeGit(repository);
    await repoGit(['worktree', 'add', '--detach', '--force', dir, commit]);
    const commonDirText = (await repoGit(['rev-parse', '--git-common-dir'])).trim();
    const commonDir = isAbsolute(commonDirText) ? commonDirText : resolve(repository, commonDirText);
    const policy = worktreePolicy(dir, commonDir);
    const goBuildCache = `${dir}-go-build`;
    const cargoTarget = `${dir}-cargo-target`;
    await mkdir(goBuildCache, { recursive: true });
    await mkdir(cargoTarget, { recursive: true });
    // Python imports the kata's module from src/ (the scaffold's pytest config says so too; this holds if the agents changed it).
    const sandbox = await createProcessSandbox(mode, {
      ...policy,
      writableRoots: [...policy.writableRoots, goBuildCache, cargoTarget],
      prependPaths: { PYTHONPATH: [join(dir, 'src')] },
    });
    const checkout = new SessionCheckout(dir, await untrustedTreeGit(dir), sandbox, repository, goBuildCache, cargoTarget);
    if (await declaresPackages(dir))
      await installDependencies(dir, {
        manifests: {
          description: `commit ${commit.slice(0, 10)}`,
          read: (path) => repoGit(['cat-file', 'blob', `${commit}:${path}`]).catch(() => null),
        },
        policy: { autoApproveUpTo: 'MEDIUM' },
        sandbox: mode,
        signal,
      });
    return checkout;
  }

  /** Moves the checkout to `commit`, with nothing left of a previous run (untracked and ignored files removed, the installed packages kept). */
  async checkout(commit: string): Promise<void> {
    await this.git(['checkout', '--detach', '--force', '--quiet', commit]);
    await this.git(['clean', '-ffdxq', '-e', '/node_modules']);
  }

  /**
   * Runs the session's own test command on each of `commits` (oldest first) and lists those that were not green.
   * A commit without any test yet (the scaffold) is not red.
   */
  async replayCommits(
    commits: readonly string[],
    testCommand: string | undefined,
    options: RunLimits = {},
  ): Promise<CommitReplay> {
    const red: CommitReplay['red'] = [];
    for (const sha of commits) {
      if (options.signal?.aborted) break;
      await this.checkout(sha);
      const detected = await detectTestRunner(this.dir, {
        ...(testCommand ? { testCommand } : {}),
        sandbox: this.sandbox,
        timeoutMs: options.timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS,
        reportTests: false,
      }).catch(() => undefined);
      const runner =
        detected?.kind === 'go-test' || detected?.kind === 'cargo-test'
          ? this.runner(detected.kind, detected.command, options.timeoutMs, false)
          : detected;
      if (!runner) {
        red.push({ sha, status: 'error', failed: 0 });
        continue;
      }
      const result = await runner.run({ signal: options.signal });
      const noTestsYet = result.status === 'error' && result.errorKind === 'no_tests';
      if (result.status !== 'passed' && !noTestsYet && result.status !== 'cancelled')
        red.push({ sha, status: result.status, failed: result.failed });
    }
    return { checked: commits.length, red };
  }

  /**
   * Copies the acceptance file under its own name on `commit` into the folder its language's row of ACCEPTANCE_RUNS
   * names, and runs it there: `node --test` for JavaScript, `tsx --test` for TypeScript, pytest for Python, and
   * `go test -run '^TestAcceptance' .` for Go (the file is in the kata's package, at the module's root), `cargo test --test
   * <crate>` for Rust (the file an integration test in tests/). Each run is
   * judged by test identity from the runner's report; a language without a row is an AgentError (`CONFIG`).
   */
  async runAcceptance(
    commit: string,
    setDir: string,
    language: Language,
    entry: EvalLanguage,
    options: RunLimits = {},
  ): Promise<AcceptanceResult> {
    const how = ACCEPTANCE_RUNS[language];
    if (!how)
      throw new AgentError(
        'CONFIG',
        `The eval cannot run acceptance tests in ${language} (it can in ${acceptanceLanguages().join(', ')}).`,
        { language },
      );
    await this.checkout(commit);
    // The set's own file name (`<slug>.test.js`, `test_<slug_with_underscores>.py`): an importable module name for pytest.
    const fileName = basename(entry.acceptance);
    const folder = join(this.dir, how.folder);
    if (how.folder !== '.') {
      await rm(folder, { recursive: true, force: true });
      await mkdir(folder, { recursive: true });
    }
    await copyFile(join(setDir, entry.acceptance), join(folder, fileName));
    const result = await this.runner(how.kind, how.command(fileName), options.timeoutMs).run({ signal: options.signal });
    return acceptanceOf(result, entry.cases, how.ownTests);
  }

  /** A runner of `command` here; Go's and cargo's with their build folders beside the checkout (the command's own assignment wins). */
  private runner(kind: RunnerKind, command: string, timeoutMs?: number, reportTests = true): CommandTestRunner {
    const build =
      kind === 'go-test'
        ? `GOCACHE=${shellWord(this.goBuildCache)} `
        : kind === 'cargo-test'
          ? `CARGO_TARGET_DIR=${shellWord(this.cargoTarget)} `
          : '';
    return new CommandTestRunner({
      workspace: this.dir,
      kind,
      command: `${build}${command}`,
      sandbox: this.sandbox,
      timeoutMs: timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS,
      reportTests,
    });
  }

  /** Removes the checkout (its folder and the repository's record of it). */
  async close(): Promise<void> {
    const repoGit = await untrustedTreeGit(this.repository).catch(() => undefined);
    await repoGit?.(['worktree', 'remove', '--force', this.dir]).catch(() => undefined);
    await rm(this.dir, { recursive: true, force: true });
    await rm(this.goBuildCache, { recursive: true, force: true });
    await rm(this.cargoTarget, { recursive: true, force: true });
  }
}

/**
 * True when the checkout's package.json declares dependencies or devDependencies (a malformed one declares none). The
 * checkout is the agents' commit: a link or special file is no package.json, and one over 1 MiB is not read.
 */
async function declaresPackages(dir: string): Promise<boolean> {
  try {
    const text = await readTreeText(dir, 'package.json', 1024 * 1024);
    if (text === undefined) return false;
    const pkg = JSON.parse(text) as { dependencies?: object; devDependencies?: object } | null;
    return Object.keys(pkg?.dependencies ?? {}).length + Object.keys(pkg?.devDependencies ?? {}).length > 0;
  } catch {
    return false;
  }
}

/** A test run's time limit and cancellation. */
export interface RunLimits {
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Passed / total of an acceptance run: from each test's result when the runner's report was read, else from the
 * counts; a file that could not run at all counts every case as failed. A test is a case: one that holds others (Go's
 * table test, whose subtests are the cases) is not counted; with `ownTests`, only the tests it matches by name count
 * (others the command ran, as the session's own, do not).
 */
export function acceptanceOf(result: TestRunResult, cases: number, ownTests?: RegExp): AcceptanceResult {
  const tests = result.tests && caseResults(result.tests, ownTests).filter((t) => t.outcome !== 'skipped');
  const passed = tests ? tests.filter((t) => t.outcome === 'passed').length : result.passed;
  const ran = tests ? tests.length : result.total;
  const total = Math.max(ran, cases);
  const failing = tests?.filter((t) => t.outcome === 'failed').map((t) => t.name);
  return {
    passed,
    total,
    status: result.status,
    ...(result.status === 'passed' ? {} : { reason: (result.reason ?? firstLine(result.output)).slice(0, 300) }),
    ...(failing && failing.length > 0 ? { failing } : {}),
  };
}

/** The tests that are cases: leaves of the tree of names (`A > b` makes `A` a group), matching `ownTests` if given. */
function caseResults(tests: readonly TestCaseResult[], ownTests?: RegExp): TestCaseResult[] {
  const groups = new Set(
    tests.flatMap((t) =>
      t.name
        .split(' > ')
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join(' > ')),
    ),
  );
  return tests.filter((t) => !groups.has(t.name) && (!ownTests || ownTests.test(t.name)));
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => /error|fail|assert/i.test(l)) ?? ''
  );
}
