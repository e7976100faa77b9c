import { realpath } from 'node:fs/promises';
import { delimiter, dirname, join, resolve } from 'node:path';
import { getLogger } from '../logging/logger';
import { writeTreeFile } from '../workspaceSandbox/untrustedTree';
import type { ProcessSandbox } from '../osSandbox/types';
import { runProcess, type RunProcessResult } from '../process/runProcess';
import {
  describeProblem,
  diagnoseLoadError,
  diagnoseMissingRunner,
  type LoadProblem,
  missingPytestPlugins,
  type TestErrorKind,
} from './diagnoseLoadError';
import { stripAnsi, type TestCounts } from './parsers/testCounts';
import { parserFor, type RunnerKind } from './runnerKinds';
import { findTestFiles } from './testFiles';
import { buildFolder, mavenModules } from './mavenSetup';
import { collectReport, prepareReport, withoutReportLines, type PreparedReport } from './reports/runReport';
import { MINITEST_REPORT_DIR } from './reports/minitestReport';
import { simpleCommandWords } from './reports/commandLine';
import { scriptFor } from './reports/reportCommand';
import { subsetCommand, type SubsetCommand } from './subsets/subsetCommand';
import { existingSubsetFiles, mochaConfigNamesSpec } from './subsets/subsetFiles';
import type { ParsedReport } from './reports/reportedTest';
import { DEFAULT_OUTPUT_LIMIT, truncateHeadTail } from './truncateOutput';
import type { TestCaseResult, TestRunner, TestRunOptions, TestRunResult, TestSubset } from './types';

const log = getLogger('testRunners');

/** Default limit for one test run: long enough for a slow suite, short enough that an infinite loop costs a minute. */
export const DEFAULT_TEST_TIMEOUT_MS = 60_000;

/** A TestRunResult with the diagnosis behind an `error`, for the supervisor's decisions. */
export interface DiagnosedTestRunResult extends TestRunResult {
  runner: RunnerKind;
  /** Set when status is `error` (and for a run with no tests yet, `no_tests`). */
  errorKind?: TestErrorKind;
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
  /**
   * package.json's `scripts`, so that a command like `npm test` or `npm run test:unit` can be seen through to the
   * runner its script runs (detectTestRunner passes them).
   */
  packageScripts?: Readonly<Record<string, unknown>>;
  /**
   * Ask the runner for a machine-readable report of each test (default true): the run's `tests`. Only for commands
   * whose runner is known (see `reportingCommand`); any other command runs exactly as written.
   */
  reportTests?: boolean;
}

/**
 * The environment of a test run: the person's, as their own `npm test` would see it, less what would change how a
 * nested runner behaves (a parent node:test run, a loader of ours), with `CI=true` so that no runner starts a watch
 * mode (react-scripts, vitest) with nobody to quit it. Colours are left as the person has them: a library whose tests
 * read `NO_COLOR` or `FORCE_COLOR` (lukeed/kleur's "colors enabled by default") must pass as it does for them, and the
 * output is read without its colour codes (see `CommandTestRunner.run`).
 */
function testEnvironment(
  workspace: string,
  extra: NodeJS.ProcessEnv = {},
  toolchain?: (env: NodeJS.ProcessEnv, realWorkspace: string) => NodeJS.ProcessEnv,
  realWorkspace = workspace,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_TEST_CONTEXT; // set when we are ourselves under node --test: the child would report to it instead
  delete env.NODE_OPTIONS; // a loader of ours (e.g. tsx) must not leak into the workspace's runner
  const merged = { ...env, ...extra };
  return {
    CI: 'true',
    PYTHONDONTWRITEBYTECODE: '1', // no __pycache__ folders to commit
    ...merged,
    ...(toolchain ? toolchain(merged, realWorkspace) : {}),
    // like `npm test`: the workspace's own binaries first, then each parent folder's (a workspace package's runner is
    // often installed at the monorepo's root)
    PATH: [...binFolders(workspace), merged.PATH ?? ''].join(delimiter),
  };
}

/**
 * How `go test` runs in a session: offline and with the toolchain it finds, never fetching one or a module
 * (`GOPROXY=off`, `GOTOOLCHAIN=local`, `-mod=mod` added to `GOFLAGS` unless they name a `-mod` of their own); the
 * modules from the person's module cache (`GOMODCACHE`, as the host's go would find it: shown read-only by the sandbox
 * when it lies under the hidden HOME); the build cache in the workspace's session-state folder (`.tdd/go-build`, which
 * git, commits and the roles leave alone): the session's own, kept from one run to the next, never shared with another
 * session or the person's own cache (`GOCACHE`).
 */
export function goOffline(env: NodeJS.ProcessEnv, workspace: string): NodeJS.ProcessEnv {
  const flags = env.GOFLAGS?.trim() ?? '';
  const gopath = env.GOPATH?.split(delimiter).find(Boolean) ?? (env.HOME ? join(env.HOME, 'go') : undefined);
  const modCache = env.GOMODCACHE || (gopath ? join(gopath, 'pkg', 'mod') : undefined);
  return {
    GOFLAGS: /(?:^|\s)-mod=/.test(flags) ? flags : `${flags} -mod=mod`.trim(),
    GOPROXY: 'off',
    GOTOOLCHAIN: 'local',
    ...(modCache ? { GOMODCACHE: modCache } : {}),
    GOCACHE: join(workspace, GO_BUILD_CACHE),
  };
}

/** Where a Go run's build cache is kept, workspace-relative: the session-state folder, out of every commit. */
export const GO_BUILD_CACHE = '.tdd/go-build';

/**
 * Makes a build folder in the session-state folder (Go's build cache, cargo's target) one that git leaves alone (a
 * `.gitignore` of `*` in it): a session commits every untracked file of its worktree but its own state, and the build is the session's, never the project's. Never throws:
 * without it the run goes on (and a commit would show the cache).
 */
async function keepBuildOutOfCommits(workspace: string, folder: string): Promise<void> {
  try {
    await writeTreeFile(workspace, `${folder}/.gitignore`, Buffer.from('*\n'));
  } catch (error) {
    log.warn('Could not mark the build folder as ignored: it may show in the session’s commits.', { error, folder });
  }
}

/**
 * How `cargo test` runs in a session: offline (`CARGO_NET_OFFLINE`, as `--offline` would: the crates come from the
 * person's registry cache, `~/.cargo/registry` and `~/.cargo/git`, shown read-only by the sandbox under the hidden
 * HOME, and nothing is fetched); the build in the workspace's session-state folder (`.tdd/cargo-target`, as Go's build
 * cache: the session's own, kept from one run to the next, never in a commit and never the person's `target/`); no
 * colour, and short panics (`RUST_BACKTRACE=0`: a failure's message is the panic's, not a backtrace). A `Cargo.lock`
 * that cargo writes is the toolchain's, not a role's change (see the role boundaries).
 */
export function cargoOffline(env: NodeJS.ProcessEnv, workspace: string): NodeJS.ProcessEnv {
  // Named as the host's cargo finds them, since the sandbox hides HOME: rustup's toolchains and the registry cache.
  const home = env.HOME;
  return {
    ...(env.CARGO_HOME || home ? { CARGO_HOME: env.CARGO_HOME || join(home!, '.cargo') } : {}),
    ...(env.RUSTUP_HOME || home ? { RUSTUP_HOME: env.RUSTUP_HOME || join(home!, '.rustup') } : {}),
    CARGO_NET_OFFLINE: 'true',
    CARGO_TARGET_DIR: join(workspace, CARGO_TARGET),
    CARGO_TERM_COLOR: 'never',
    RUST_BACKTRACE: '0',
  };
}

/** Where a cargo run builds, workspace-relative: the session-state folder, out of every commit. */
export const CARGO_TARGET = '.tdd/cargo-target';

/**
 * How Maven runs in a session: against the person's local repository (`~/.m2/repository`, shown read-only by the
 * sandbox under the hidden HOME; Maven writes nothing there when every artifact is present) named in `MAVEN_OPTS` as
 * `-Dmaven.repo.local`, since the sandbox's HOME is empty and the JVM's `user.home` is not HOME anyway: in the
 * environment rather than on the command line, so that every run of the session uses it, with or without the report
 * flags (`-o -B`, see RUNNER_REPORTS), and the person's command stays as written. The person's own `MAVEN_OPTS` is not
 * passed on (it may name a proxy with its password); their `settings.xml` stays hidden with the rest of `~/.m2` (it
 * holds server passwords), so a repository moved there is not seen: name it with `-Dmaven.repo.local` in the test
 * command.
 */
export function mavenOffline(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const repository = env.HOME ? join(env.HOME, '.m2', 'repository') : undefined;
  return { MAVEN_OPTS: repository ? `-Dmaven.repo.local=${repository}` : '' };
}

/**
 * Keeps each Maven module's `target/` out of the session's commits: Maven builds there whatever the command line says
 * (only the POM moves it), and a session commits every untracked file that git does not ignore, so a `.gitignore` of
 * `*` is written in each module's `target/` before a run, as for the build folders in `.tdd/` (a project whose own
 * `.gitignore` names `target/` needs none, and gets one all the same: it is ignored too). Never throws.
 */
async function keepMavenBuildsOutOfCommits(workspace: string): Promise<void> {
  for (const module of await mavenModules(workspace)) await keepBuildOutOfCommits(workspace, buildFolder(module));
}

/**
 * How a minitest run reports each test: the folder of the reporting plugin (see `minitestReport.ts`) first on ruby's
 * load path, where minitest's plugin search finds it in every ruby process the command starts.
 */
export function minitestReporting(env: NodeJS.ProcessEnv, workspace: string): NodeJS.ProcessEnv {
  return { RUBYLIB: [join(workspace, MINITEST_REPORT_DIR), env.RUBYLIB].filter(Boolean).join(delimiter) };
}

/** The environment a runner kind's toolchain needs in a session (offline, its caches, its report), if any. */
const TOOLCHAIN_ENVIRONMENT: Partial<Record<RunnerKind, (env: NodeJS.ProcessEnv, workspace: string) => NodeJS.ProcessEnv>> = {
  'go-test': goOffline,
  'cargo-test': cargoOffline,
  maven: mavenOffline,
  minitest: minitestReporting,
};
/** The build folder of a runner kind in the session-state folder, marked ignored before each run. */
const BUILD_FOLDERS: Partial<Record<RunnerKind, string>> = {
  'go-test': GO_BUILD_CACHE,
  'cargo-test': CARGO_TARGET,
  minitest: MINITEST_REPORT_DIR,
};

/** `<folder>/node_modules/.bin` for the folder and each of its parents, nearest first, as npm puts them on PATH. */
function binFolders(folder: string): string[] {
  const out: string[] = [];
  for (let at = resolve(folder); ; at = dirname(at)) {
    out.push(join(at, 'node_modules', '.bin'));
    if (dirname(at) === at) return out;
  }
}

/**
 * Runs one test command in a workspace and reports passed / failed / total, telling apart tests that
 * fail (`failed`) from tests that could not run (`error`), a `timeout` (the whole process tree is
 * killed) and `cancelled`.
 *
 * When the command is a direct invocation of node:test, mocha, jest, vitest or pytest, or a package script that is
 * one (`npm test`), the runner is also asked — in the same process, by flags added to the command — for a
 * machine-readable report written to `.tdd/reports/` in the workspace, which gives each test's result (`tests`,
 * see {@link TestCaseResult}). The console output stays what the person would see running the command themselves
 * (the runners' lines naming the report file are left out), and `command` stays the person's. The report is read
 * like anything else the tests could have written: no link followed, at most 16 MiB, parsed strictly; a report that
 * cannot be used leaves `tests` undefined and the counts those of the console, as for any other command.
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
  private readonly packageScripts?: Readonly<Record<string, unknown>>;
  private readonly reportTests: boolean;

  constructor(options: CommandTestRunnerOptions) {
    this.workspace = options.workspace;
    this.kind = options.kind;
    this.name = options.kind;
    this.command = options.command;
    this.env = options.env;
    this.outputLimit = options.outputLimit ?? DEFAULT_OUTPUT_LIMIT;
    this.defaultTimeoutMs = options.timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS;
    this.sandbox = options.sandbox;
    this.packageScripts = options.packageScripts;
    this.reportTests = options.reportTests ?? true;
  }

  /**
   * Runs the tests once. Never rejects: every outcome is a result. With `only`, the command narrowed to that subset
   * (see `subsetCommand`): the result's `scope` is `related`, `command` the narrowed command line and `relatedFiles`
   * the files given to the runner; when the command cannot be narrowed, the whole suite runs and `fullRunReason` says
   * why.
   */
  async run(options: TestRunOptions = {}): Promise<DiagnosedTestRunResult> {
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const realWorkspace = await realpath(this.workspace).catch(() => this.workspace);
    const narrowed = options.only ? await this.subset(options.only, realWorkspace) : undefined;
    const subset = narrowed && 'subset' in narrowed ? narrowed.subset : undefined;
    const command = subset?.command ?? this.command;
    const report =
      this.reportTests && (!subset || subset.reportable)
        ? await prepareReport(this.workspace, realWorkspace, command, this.packageScripts, subset)
        : undefined;
    const buildFolder = BUILD_FOLDERS[this.kind];
    if (buildFolder) await keepBuildOutOfCommits(this.workspace, buildFolder);
    if (this.kind === 'maven') await keepMavenBuildsOutOfCommits(this.workspace);
    const ran = await runProcess({
      cwd: this.workspace,
      command: report?.command ?? command,
      shell: true,
      env: testEnvironment(this.workspace, this.env, TOOLCHAIN_ENVIRONMENT[this.kind], realWorkspace),
      timeoutMs,
      maxOutputBytes: 4 * 1024 * 1024,
      signal: options.signal,
      sandbox: this.sandbox,
    });
    // Colours are the person's (a FORCE_COLOR of theirs, or a runner that colours under CI): what is read, shown to the
    // roles and the person, and stored is the plain text.
    const result = { ...ran, output: stripAnsi(ran.output) };
    const scope = subset
      ? { scope: 'related' as const, relatedFiles: subset.files }
      : { scope: 'full' as const, ...(narrowed && 'reason' in narrowed ? { fullRunReason: narrowed.reason } : {}) };
    if (!report) return { ...(await this.interpret(result, timeoutMs, command)), ...scope };
    const raw = withoutReportLines(result.output, report);
    // A report on stdout (`go test -json`) is not what a person reads: the console text is made from it.
    const output = report.adapter.consoleText ? report.adapter.consoleText(raw) : raw;
    const finished = !result.cancelled && !result.timedOut && !result.spawnError;
    const parsed = await collectReport(report, { workspace: this.workspace, realWorkspace, output: raw }, finished);
    return {
      ...(await this.interpret({ ...result, output }, timeoutMs, command, parsed && this.agreeing(parsed, output, report))),
      ...scope,
    };
  }

  /**
   * The command narrowed to `only`, or why it cannot be (then the whole suite runs): the files that are there to run,
   * the person's command form (see `subsetCommand`), and for mocha a config that names spec files of its own.
   */
  private async subset(only: TestSubset, realWorkspace: string): Promise<{ subset: SubsetCommand } | { reason: string }> {
    const files = await existingSubsetFiles(this.workspace, only);
    const plan = subsetCommand(this.command, this.packageScripts, files, realWorkspace);
    const why = (reason: string): { reason: string } => {
      log.debug('The whole suite runs: the test command cannot be narrowed to the changed files.', {
        command: this.command,
        reason,
      });
      return { reason: `\`${this.command}\` cannot run only the changed tests (${reason}), so the whole suite ran` };
    };
    if (!plan.ok) return why(plan.reason);
    if (plan.subset.kind === 'mocha') {
      const words = simpleCommandWords(scriptFor(this.command, this.packageScripts) ?? this.command) ?? [];
      if (await mochaConfigNamesSpec(this.workspace, words)) {
        return why("mocha's configuration names spec files, which mocha runs besides any file given to it");
      }
    }
    return { subset: plan.subset };
  }

  /**
   * The report's tests and counts when they agree with the console's summary (same failed and total), or when the
   * console printed none (a summary cut off by the output limit, or mocha's console reporter not found). A report
   * that says otherwise than the console is not used: `tests` stays undefined, the counts are the console's.
   */
  private agreeing(parsed: ParsedReport, output: string, report: PreparedReport): ParsedReport | undefined {
    const summary = parserFor(this.kind)(output);
    if (!summary || (summary.failed === parsed.counts.failed && summary.total === parsed.counts.total)) return parsed;
    log.warn(`The ${report.kind} report disagrees with the console's summary; only the console output is read.`, {
      console: { failed: summary.failed, total: summary.total },
      report: { failed: parsed.counts.failed, total: parsed.counts.total },
    });
    return undefined;
  }

  private async interpret(
    result: RunProcessResult,
    timeoutMs: number,
    command: string,
    report?: ParsedReport,
  ): Promise<DiagnosedTestRunResult> {
    const consoleCounts = parserFor(this.kind)(result.output);
    const counts: TestCounts | undefined = consoleCounts ?? (report && report.counts.total > 0 ? report.counts : undefined);
    const tests: TestCaseResult[] | undefined = report?.tests;
    const base = {
      runner: this.kind,
      passed: counts?.passed ?? 0,
      failed: counts?.failed ?? 0,
      total: counts?.total ?? 0,
      output: truncateHeadTail(result.output, this.outputLimit),
      command,
      exitCode: result.exitCode,
      durationMs: result.durationMs,
      ...(tests ? { tests } : {}),
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
      const plugins = missingPytestPlugins(result.output);
      if (plugins) {
        const module = plugins.packages.length > 0 ? plugins.packages.join(', ') : undefined;
        return errorResult({ kind: 'plugin_missing', line: plugins.line, ...(module ? { module } : {}) });
      }
      const missing = diagnoseMissingRunner(result.output, result.exitCode);
      if (missing) return errorResult(missing);
      // go test: a module without packages yet, or packages without `_test.go` files.
      if (/No test files found|No tests found|^no packages to test$|\t\[no test files\]$/im.test(result.output))
        return this.noTests(base);
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
