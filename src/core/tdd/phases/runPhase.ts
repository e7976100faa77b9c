import type { AgentLifecycle } from '../../agentRuntime/lifecycle';
import { AgentError, toAgentError, type ErrorCode } from '../../errors/agentError';
import type { PhaseOutcome } from '../sessionVocabulary';
import { isTestFile } from '../boundaries';
import { buildRoleContext } from '../roles/roleContext';
import { isTddRole, type RoleRunner, type RoleTurnResult } from '../roles/roleRunner';
import { withTurnFeedback, type FileWriteOutcome } from '../roles/turnFeedback';
import type { PhaseCheckpoint } from '../commits/phaseCheckpoint';
import { fileRuleHook } from './fileRuleHook';
import { Cancelled } from './loopState';
import { turnChanges } from './turnChanges';
import { roleTitle, type PhaseHost } from './phaseHost';
import type { CycleSoFar, PhaseResult, PhaseSpec } from './phaseSpec';

/** Errors of a role's turn that another attempt may not meet again (see `attemptTurn`). */
const RETRIED_TURN_ERRORS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'TIMEOUT',
  'CONNECTION',
  'RATE_LIMIT',
  'INVALID_REQUEST',
  'RESPONSE_TOO_LARGE',
  'OUTPUT_VALIDATION_FAILED',
  'HOOK_REJECTED',
  'TOOL_FAILED',
  'UNKNOWN',
]);

/** One attempt's turn, with what it needs beyond the spec. */
interface TurnRequest {
  spec: PhaseSpec;
  cycle: CycleSoFar;
  attempt: number;
  hint: string | undefined;
  checkpoint: PhaseCheckpoint;
  /** The spec's extra context section, if any. */
  extra: string | undefined;
  /** What each file-changing call of this turn did (applied, refused by the role rules, failed). */
  writes: FileWriteOutcome[];
}

/**
 * Runs one phase of a cycle (any {@link PhaseSpec}): up to `maxAttempts` turns of its role, each from a checkpoint.
 * After a turn the supervisor reads the diff (never the role's report): a change outside the spec's file rule is a
 * violation, undone and told to the role; anything else goes to the spec's judge, whose verdict accepts the attempt,
 * sends it back with a hint, or fails the phase. A write the rule's hook refused changed nothing: it is no violation,
 * and the rest of the attempt is judged as it stands. A hint sent back says why a turn that changed no file changed
 * nothing, and what stands of each of its writes. When every attempt was used the phase ends with the spec's
 * `exhausted` outcome. A TDD role's phase is reported as `phase_changed` / `phase_finished` events and recorded in the
 * session's record.
 */
export async function runPhase(spec: PhaseSpec, host: PhaseHost, cycle: CycleSoFar): Promise<PhaseResult> {
  const { setup, state } = host;
  const started = Date.now();
  state.turnOutcome = { filesModified: [], testsPassed: state.lastTests.passed };
  const extra = await spec.context?.(cycle, host);
  let hint: string | undefined;
  let report = '';
  for (let attempt = 1; attempt <= spec.maxAttempts; attempt++) {
    if (attempt > 1 && isTddRole(spec.role)) setup.recorder.count('retries', spec.role);
    const checkpoint = await host.commits.checkpoint();
    const writes: FileWriteOutcome[] = [];
    const turn = await attemptTurn(host, { spec, cycle, attempt, hint, checkpoint, extra, writes });
    if ('retry' in turn) {
      hint = turn.retry;
      continue;
    }
    report = turn.report;
    const changes = state.probed?.changes ?? (await turnChanges(checkpoint, setup.workspaceRoot));
    state.turnOutcome.filesModified = changes.map((c) => c.path);
    // The next attempt hears what this one left: why nothing changed, what stands of each write.
    const feedback = async (reason: string): Promise<string> =>
      withTurnFeedback(reason, {
        attempt,
        writes,
        report,
        changed: changes.map((c) => c.path),
        standing: (await checkpoint.changesSince()).map((c) => c.path),
      });

    const outOfBounds = spec.files(changes, setup.kata);
    if (outOfBounds.length) {
      const paths = spec.restoreOnViolation === 'paths' ? outOfBounds.flatMap((v) => (v.path ? [v.path] : [])) : undefined;
      hint = await feedback(await host.violation(cycle.n, spec.role, attempt, outOfBounds, checkpoint, paths));
      continue;
    }
    const files = host.tests.turnFiles(changes);
    const verdict = await spec.judge({ attempt, report, changes, files, probed: state.probed?.tests, checkpoint }, cycle, host);
    if (verdict.kind === 'retry') {
      hint = await feedback(verdict.hint);
      continue;
    }
    return endPhase(host, spec, cycle, attempt, verdict.outcome, started, report);
  }
  return endPhase(host, spec, cycle, spec.maxAttempts, spec.exhausted, started, report);
}

function endPhase(
  host: PhaseHost,
  spec: PhaseSpec,
  cycle: CycleSoFar,
  attempts: number,
  outcome: PhaseOutcome,
  started: number,
  report: string,
): PhaseResult {
  const durationMs = Date.now() - started;
  if (isTddRole(spec.role)) {
    host.setup.recorder.endPhase(spec.role, attempts, outcome, durationMs, host.state.turnOutcome);
    host.setup.emit({ type: 'phase_finished', cycle: cycle.n, role: spec.role, outcome, attempts, durationMs });
  }
  return { outcome, attempts, report };
}

/**
 * One attempt of a role (001's execute_with_retry): a turn that throws an error a new attempt may not meet again (a
 * provider error, a model timeout, malformed output, a failed tool) has its changes undone and counts as a failed
 * attempt, the next attempt hearing why; at the last attempt the error ends the session, saying how many attempts
 * failed. Errors no retry can mend (authentication, configuration, the sandbox, git, a replay that diverged, a
 * context that is too long) end it at once.
 */
async function attemptTurn(host: PhaseHost, request: TurnRequest): Promise<RoleTurnResult | { retry: string }> {
  const { spec, cycle, attempt, checkpoint } = request;
  host.state.probed = undefined;
  try {
    return await turn(host, request);
  } catch (err) {
    if (err instanceof Cancelled) throw err;
    const error = toAgentError(err);
    if (!RETRIED_TURN_ERRORS.has(error.error_code)) throw error;
    const who = roleTitle(spec.role);
    if (attempt >= spec.maxAttempts) {
      throw new AgentError(
        error.error_code,
        `The ${who}'s turn failed ${attempt} times; the last time: ${error.message}`,
        error.details,
        {
          cause: err,
        },
      );
    }
    await checkpoint.restore();
    host.state.turnOutcome.error = {
      error_code: error.error_code === 'TIMEOUT' ? 'TIMEOUT' : 'EXECUTION_FAILED',
      message: error.message.split('\n')[0]!,
    };
    if (isTddRole(spec.role))
      host.setup.emit({
        type: 'reverted',
        cycle: cycle.n,
        role: spec.role,
        reason: `The ${who}'s turn ended with an error (${error.error_code}: ${error.message.split('\n')[0]}); its changes were undone and it tries again.`,
      });
    return {
      retry: `Your previous attempt ended with an error before it finished (${error.message.split('\n')[0]}); its changes were undone. Try again.`,
    };
  }
}

/** The runner of a phase's role: one of the TDD roles', or a team's role's from `runnerFor`. */
function runnerOf(host: PhaseHost, role: string): RoleRunner {
  const runner = isTddRole(role) ? host.setup.roles[role] : host.setup.runnerFor?.(role);
  if (!runner) throw new AgentError('CONFIG', `No runner for the role '${role}' of a phase: give the loop runnerFor.`, { role });
  return runner;
}

async function turn(host: PhaseHost, request: TurnRequest): Promise<RoleTurnResult> {
  const { setup, state } = host;
  const { spec, cycle, attempt, hint } = request;
  const role = spec.role;
  checkCancelled(host);
  if (isTddRole(role)) {
    setup.emit({ type: 'phase_changed', cycle: cycle.n, phase: spec.phase!, role, attempt, hint: hint?.split('\n')[0] });
    setup.recorder.phaseStarted(role, attempt);
  }
  await setup.recorder.save();
  const runner = runnerOf(host, role);
  let shownBefore = state.shownTo.get(role);
  if (!shownBefore) state.shownTo.set(role, (shownBefore = new Map()));
  const uncommitted = (await setup.git.changedFiles()).filter((c) => c.change !== 'deleted').map((c) => c.path);
  const isTest = (path: string) => isTestFile(path, setup.kata);
  const named = (state.lastRun?.tests ?? [])
    .filter((t) => t.outcome === 'failed' && t.file && !state.suite.knownFailures.has(t.id))
    .map((t) => t.file!);
  const context = await buildRoleContext({
    role,
    shownBefore,
    isTestFile: isTest,
    focusFiles: [...new Set([...uncommitted.filter(isTest), ...state.cycleTestFiles, ...named])],
    sessionFiles: [...new Set([...uncommitted, ...state.sessionFiles])],
    fileTokenBudget: await runner.contextTokens?.(),
    kataTitle: setup.kata.title,
    kataDescription: setup.kata.description,
    language: setup.kata.language,
    sourceDir: setup.kata.sourceDir,
    testDir: setup.kata.testDir,
    testCommand: setup.testRunner.command,
    workspaceRoot: setup.workspaceRoot,
    cycle: cycle.n,
    maxCycles: (setup.firstCycle ?? 1) + setup.maxCycles - 1,
    attempt,
    maxAttempts: spec.maxAttempts,
    recentCommits: await setup.git.recentCommits(5),
    lastTestOutput: state.lastOutput,
    lastTestRun: state.lastRun,
    lastError: hint,
    notices: state.notices.length ? state.notices : undefined,
    answers: setup.questions?.answers(),
    extra: request.extra,
    signal: setup.signal,
  });
  state.notices = [];
  if (isTddRole(role)) setup.questions?.startTurn(role, cycle.n);
  const hooks: AgentLifecycle[] = [
    fileRuleHook({
      rule: spec.files,
      kata: setup.kata,
      workspaceRoot: setup.workspaceRoot,
      onWrite: (outcome) => request.writes.push(outcome),
    }),
    ...(setup.roleHooks?.[role] ?? []),
  ];
  const goalReached = spec.probe ? () => probe(host, request) : undefined;
  try {
    // Every round that may have written files is probed, so the last probe's run (if any) saw the tree as the turn
    // left it: later rounds only read (list, read, run the tests). The phase judges that run.
    return await runner.runTurn({ role, cycle: cycle.n, attempt, context, signal: setup.signal, goalReached, hooks });
  } catch (err) {
    if (setup.signal.aborted) throw new Cancelled();
    throw err;
  } finally {
    checkCancelled(host);
  }
}

/**
 * A turn's goal probe, asked after each tool round that may have written files: the changes since the checkpoint,
 * inside the role's file rule, run as the phase runs them and judged by the spec's `probe.reached`. A write the rule
 * refused changed nothing and does not stop it: the valid work beside it can reach the goal. That run is kept in
 * `probed`; when it says the goal is reached, the turn ends and the phase judges that same run without running the
 * tests again.
 */
async function probe(host: PhaseHost, request: TurnRequest): Promise<boolean> {
  const { spec, checkpoint, cycle } = request;
  host.state.probed = undefined;
  const changes = await turnChanges(checkpoint, host.setup.workspaceRoot);
  if (changes.length === 0 || spec.files(changes, host.setup.kata).length > 0) return false;
  const tests = await spec.probe!.run(host.tests.turnFiles(changes), cycle, host);
  host.state.probed = { tests, changes };
  return spec.probe!.reached(tests, host);
}

function checkCancelled(host: PhaseHost): void {
  if (host.setup.signal.aborted) throw new Cancelled();
}
