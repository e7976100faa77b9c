/**
 * The kata's tests in VS Code's Testing view: a `TestController` ('tddAgent', "TDD Agent kata") whose
 * items are the tests of the supervisor's last test run (each test's result from the runner's report when the
 * run has one, else names, results and assertion messages read from its output), and a run profile that runs them again in the session's worktree through the same
 * OS-sandboxed test runner the supervisor uses.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { z } from 'zod';
import { productGit, redactSecrets, type SandboxMode } from '../../core';
import { detectTestRunner, sessionTestSandbox, type SessionTestSandbox, type SupervisorEvent } from '../../core/tddApi';
import { workspaceFilePath } from '../panel/workspacePath';
import { casesFromReport, parseTestCases, type TestCaseResult } from './testCaseResults';

/** The controller's id and label (the Testing view shows the label). */
export const KATA_TEST_CONTROLLER = { id: 'tddAgent', label: 'TDD Agent kata' } as const;

/** What the Testing view keeps across a window reload: where the last session's tests ran, and their last run. */
const SavedKataTestsSchema = z.object({
  worktree: z.string(),
  branch: z.optional(z.object({ name: z.string(), repository: z.string() })),
  command: z.optional(z.string()),
  /** The supervisor's last test output (the event's head and tail), whose turn it was, and its tests when reported. */
  last: z.optional(
    z.object({
      output: z.string(),
      role: z.string(),
      testCases: z.optional(
        z.array(
          z.object({
            id: z.string(),
            name: z.string(),
            file: z.optional(z.string()),
            outcome: z.enum(['passed', 'failed', 'skipped']),
            message: z.optional(z.string()),
            line: z.optional(z.number()),
          }),
        ),
      ),
    }),
  ),
});
export type SavedKataTests = z.infer<typeof SavedKataTestsSchema>;

/** What the Testing view needs from the rest of the host. */
export interface KataTestsDeps {
  log: vscode.LogOutputChannel;
  /** True while a session runs in this window (a run from the Testing view then waits for it to end). */
  running(): boolean;
  /** The `tddAgent.sandbox`, `tddAgent.sandboxEnvironment` and `tddAgent.testTimeoutMs` settings. */
  settings(): { sandbox: SandboxMode; sandboxEnvironment?: string[]; testTimeoutMs: number };
  /** What an earlier window saved (workspaceState; anything invalid is ignored). */
  saved?: unknown;
  /** Saves the state after each session start and supervisor run (workspaceState). */
  save?(state: SavedKataTests | undefined): PromiseLike<void> | void;
  /** A run from the Testing view ended with these counts (the panel's header and the status bar show them). */
  ranTests?(tests: { passed: number; failed: number }): void;
}

/** The Testing view's kata tests. */
export class KataTests implements vscode.Disposable {
  private readonly controller = vscode.tests.createTestController(KATA_TEST_CONTROLLER.id, KATA_TEST_CONTROLLER.label);
  private worktree: string | undefined;
  private command: string | undefined;
  /** The session's branch and the person's repository (a completed session's worktree is removed: its branch is checked out for a run). */
  private branch: { name: string; repository: string } | undefined;
  private last: SavedKataTests['last'];
  /**
   * The last whole-suite supervisor run, shown once its tree is committed (or is the baseline): the view shows the
   * session's committed state, as the panel's header does, not a red run the supervisor then rolled back.
   */
  private pending: { event: Extract<SupervisorEvent, { type: 'test_run_finished' }>; cases: TestCaseResult[] } | undefined;

  constructor(private readonly deps: KataTestsDeps) {
    this.controller.createRunProfile(
      'Run in the session worktree',
      vscode.TestRunProfileKind.Run,
      (request, token) => this.runTests(request, token),
      true,
    );
    this.restore(deps.saved);
  }

  /** The last session's tests as an earlier window left them (after a reload), when it saved any. */
  private restore(saved: unknown): void {
    const parsed = SavedKataTestsSchema.safeParse(saved);
    if (!parsed.success) return;
    ({ worktree: this.worktree, branch: this.branch, command: this.command, last: this.last } = parsed.data);
    if (this.last)
      this.report(
        new vscode.TestRunRequest(),
        `Supervisor run (${this.last.role}, before the reload)`,
        this.last.testCases ? casesFromReport(this.last.testCases) : parseTestCases(this.last.output),
      );
  }

  private save(): void {
    if (!this.worktree || !this.deps.save) return;
    // Unset fields are undefined, which the workspace state (JSON) leaves out.
    const state: SavedKataTests = { worktree: this.worktree, branch: this.branch, command: this.command, last: this.last };
    Promise.resolve(this.deps.save(state)).catch((error: unknown) =>
      this.deps.log.warn(`Testing view: could not save the last run: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  /** A new session's worktree, and the results of each supervisor test run whose tree was kept. */
  event(event: SupervisorEvent): void {
    if (event.type === 'session_started') {
      this.worktree = event.worktree;
      this.branch = { name: event.branch, repository: event.workspace };
      this.last = undefined;
      this.pending = undefined;
      this.save();
    } else if (event.type === 'test_run_finished' && event.output && event.scope !== 'related') {
      // A related run holds a subset of the tests and a narrowed command: the view keeps the last whole-suite run.
      if (event.command) this.command = event.command;
      const cases = event.testCases ? casesFromReport(event.testCases) : parseTestCases(event.output);
      if (cases.length > 0 || event.tests.total === 0) {
        this.pending = { event, cases };
        if (event.role === 'baseline') this.showPending();
      }
    } else if (event.type === 'commit_made') {
      this.showPending();
    }
  }

  /** Shows the last whole-suite run as the session's test state (its tree was just committed, or is the baseline). */
  private showPending(): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    const { event, cases } = pending;
    this.report(new vscode.TestRunRequest(), `Supervisor run (${event.role})`, cases);
    // Kept in the workspace state: redacted like everything else this extension writes down.
    const testCases = event.testCases?.map((t) => ({
      ...t,
      name: redactSecrets(t.name),
      ...(t.message ? { message: redactSecrets(t.message) } : {}),
    }));
    this.last = { output: redactSecrets(event.output ?? ''), role: event.role, ...(testCases ? { testCases } : {}) };
    this.save();
  }

  /** The session on branch `branch` was deleted: its tests leave the view. */
  forget(branch: string): void {
    if (this.branch?.name !== branch) return;
    this.controller.items.replace([]);
    this.worktree = undefined;
    this.branch = undefined;
    this.command = undefined;
    this.last = undefined;
    this.pending = undefined;
    void Promise.resolve(this.deps.save?.(undefined)).catch(() => undefined);
  }

  /** Replaces the items with `cases` and reports their results as one finished run. */
  private report(request: vscode.TestRunRequest, name: string, cases: TestCaseResult[], output?: string): void {
    const items = cases.map((c) => this.item(c));
    this.controller.items.replace(items);
    const run = this.controller.createTestRun(request, name, false);
    if (output) run.appendOutput(output.replace(/\r?\n/g, '\r\n'));
    cases.forEach((c, i) => {
      const item = items[i]!;
      if (c.skipped) run.skipped(item);
      else if (c.passed) run.passed(item);
      else {
        const message = new vscode.TestMessage(c.message ?? 'failed');
        if (item.uri && item.range) message.location = new vscode.Location(item.uri, item.range);
        run.failed(item, message);
      }
    });
    run.end();
  }

  private item(result: TestCaseResult): vscode.TestItem {
    const file = result.location && this.worktree ? locate(this.worktree, result.location.path) : undefined;
    const item = this.controller.createTestItem(result.id ?? result.name, result.name, file ? vscode.Uri.file(file) : undefined);
    if (file && result.location) item.range = new vscode.Range(result.location.line - 1, 0, result.location.line - 1, 0);
    return item;
  }

  /** The run profile: the session's test command in its worktree, in the OS sandbox (as the supervisor runs it). */
  private async runTests(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const worktree = this.worktree;
    const refuse = (why: string): void => {
      void vscode.window.showWarningMessage(`TDD Agent: ${why}`);
      const run = this.controller.createTestRun(request, 'Kata tests', false);
      this.controller.items.forEach((item) => run.errored(item, new vscode.TestMessage(why)));
      run.end();
    };
    if (!worktree || !this.command) return refuse('no session of this window has run its tests yet: run a kata first.');
    if (this.deps.running())
      return refuse('a kata session is running in this worktree: run the tests when it has ended (or stop it).');
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    let checkout: string | undefined;
    let confinement: SessionTestSandbox | undefined;
    try {
      const settings = this.deps.settings();
      let dir = worktree;
      if (!(await stat(worktree).catch(() => undefined)) && this.branch) {
        // A completed session's worktree is removed: its branch goes into a temporary detached worktree for this run.
        checkout = await mkdtemp(path.join(os.tmpdir(), 'tdd-agent-tests-'));
        await productGit(this.branch.repository).run(['worktree', 'add', '--detach', checkout, this.branch.name]);
        dir = checkout;
      }
      // The same confinement as the session's own runs; in the session's own worktree, one process at a time (a CLI
      // `--resume` elsewhere is refused meanwhile, and vice versa).
      confinement = await sessionTestSandbox({
        dir,
        branch: this.branch?.name,
        lockAs: checkout ? undefined : 'a Testing-view run',
        mode: settings.sandbox,
        passEnvironment: settings.sandboxEnvironment,
      });
      const { sandbox } = confinement;
      const runner = await detectTestRunner(dir, { testCommand: this.command, timeoutMs: settings.testTimeoutMs, sandbox });
      const result = await runner.run({ signal: abort.signal });
      this.deps.log.info(
        `Testing view: ${runner.command} in ${checkout ? `a checkout of ${this.branch?.name}` : dir}: ${result.status} (${result.passed} passed, ${result.failed} failed)`,
      );
      this.report(
        request,
        'Kata tests',
        result.tests ? casesFromReport(result.tests) : parseTestCases(result.output),
        result.output,
      );
      this.deps.ranTests?.({ passed: result.passed, failed: result.failed });
    } catch (error) {
      refuse(`the kata's tests could not run: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      cancel.dispose();
      await confinement?.release();
      if (checkout && this.branch) {
        await productGit(this.branch.repository)
          .run(['worktree', 'remove', '--force', checkout])
          .catch(() => undefined);
        await rm(checkout, { recursive: true, force: true });
      }
    }
  }

  dispose(): void {
    this.controller.dispose();
  }
}

/** An absolute path inside `worktree` for a runner's location (absolute or relative); undefined outside it. */
function locate(worktree: string, file: string): string | undefined {
  return workspaceFilePath(worktree, path.isAbsolute(file) ? path.relative(worktree, file) : file);
}
