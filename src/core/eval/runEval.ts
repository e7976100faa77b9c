import { copyFile, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AgentError, toAgentError, type ErrorInfo } from '../errors/agentError';
import { untrustedTreeGit } from '../hostGit/untrustedTreeGit';
import type { LlmClient } from '../llm/types';
import { getLogger } from '../logging/logger';
import { redactSecrets } from '../security/redact';
import { createProcessSandbox, type SandboxMode } from '../osSandbox';
import { RecordingLlmClient } from '../replay/recordingClient';
import type { SupervisorEvent } from '../tdd/events';
import { runKataSession } from '../tdd/supervisor/kataSession';
import type { SessionSummary } from '../tdd/sessionSummary';
import { SessionCheckout, type AcceptanceResult, type CommitReplay } from './acceptance';
import {
  acceptanceFor,
  identifyEvalSet,
  kataFileOf,
  productVersion,
  type EvalExercise,
  type EvalLanguage,
  type EvalSet,
} from './evalSet';
import {
  costOf,
  renderMarkdown,
  summarize,
  type EvalFrontEnd,
  type EvalReport,
  type EvalRunOptions,
  type EvalRunResult,
  type TokenPrice,
} from './report';
import { evalMismatch } from './sameEval';
import { evalJobs, shardJobs, type EvalJob, type EvalShard } from './shard';
import { type Language } from '../vocabulary';

const log = getLogger('eval');

/** What `tdd-agent eval` and the VS Code command hand to {@link runEval}. */
export interface EvalOptions {
  set: EvalSet;
  /** The exercises to run (see `selectExercises`). */
  exercises: readonly EvalExercise[];
  language: Language;
  /** Sessions per kata (default 1); with more, the report gives pass@k for k = runs. */
  runs?: number;
  /** Sessions at once (default {@link defaultConcurrency}). */
  concurrency?: number;
  /** The configured model: every session's requests go to it, each recorded to its own cassette. */
  llm: LlmClient;
  model: string;
  provider: string;
  /** Limit of one model call in ms (default: the agents' own). */
  modelTimeoutMs?: number;
  /** The model's price (the price table's); null or absent: tokens only. */
  price?: TokenPrice | null;
  /** Where `report.json`, `report.md`, `recordings/` and the kata files (`katas/`, for replaying) go (created). */
  outDir: string;
  /** Who started the eval (default `cli`): the report names it, and says how to give a model's price there. */
  frontEnd?: EvalFrontEnd;
  /** Where each run's throw-away repository is made (default: the system's temp folder); each is removed after its run. */
  workRoot?: string;
  /** The sessions' OS sandbox (the acceptance tests and the replay of commits run in the same). */
  sandbox?: SandboxMode;
  testTimeoutMs?: number;
  /** Overrides each kata's `max_cycles`. */
  maxCycles?: number;
  /** Role configs instead of the bundled ones. */
  agentsDir?: string;
  /** Ctrl-C: the running sessions are cancelled, nothing more starts, and the report keeps the runs that finished. */
  signal?: AbortSignal;
  /** Progress, for a terminal or a progress notification. */
  onProgress?: (event: EvalProgress) => void;
  /** Only this part of the runs (`--shard i/n`, see `shardJobs`); the report says which part it is. */
  shard?: EvalShard;
  /**
   * A report this eval wrote before in `outDir` (`--resume DIR`, and `file` its path): its scored runs are kept and not
   * run again, the others run. A report of another eval is an AgentError (`CONFIG`) naming the file and what differs.
   */
  resume?: { report: EvalReport; file: string };
}

/** What an eval reports while it runs. */
export type EvalProgress =
  /** `--resume`: the runs kept from the report in the folder, which do not run again. */
  | { type: 'resumed'; kept: number; total: number }
  | { type: 'run_started'; kata: string; run: number; index: number; total: number }
  /**
   * A run finished: `done` of `total` (kept runs of a resumed eval included), `passing` of them so far, and the time
   * left estimated from this process's pace so far (wall time per run finished, the runs at once included).
   */
  | { type: 'run_finished'; result: EvalRunResult; done: number; total: number; passing: number; eta_ms: number }
  /** A run ended on a provider failure that is not the model's doing: no new run starts (see `isProviderFailure`). */
  | { type: 'stopping'; stopped: EvalStop }
  | { type: 'report_written'; json: string; markdown: string };

/** The finished eval: the report and where it was written. */
export interface EvalOutcome {
  report: EvalReport;
  jsonPath: string;
  markdownPath: string;
}

/**
 * Failures of the model provider that are not the model's doing: the server refused or reset the connection, its name
 * did not resolve, it cut an answer off (`CONNECTION`), rejected the key (`AUTH`), no provider is configured, or — for
 * a model call, whose error names the server (`details.baseURL`) — it did not answer in time after the client's
 * retries (`TIMEOUT`), kept rate limiting or had no quota left (`RATE_LIMIT`), or failed itself (HTTP 5xx). A run that
 * ends on one says nothing about the model: it is not scored, and the eval starts no new run. What the model did is
 * scored: a conversation too long for it, an answer too large, a request the server refused as invalid, a test run
 * that timed out (a `TIMEOUT` without a server).
 */
export function isProviderFailure(error: { error_code: string; details?: Record<string, unknown> } | undefined): boolean {
  if (!error) return false;
  if (error.error_code === 'CONNECTION' || error.error_code === 'AUTH' || error.error_code === 'PROVIDER_NOT_CONFIGURED')
    return true;
  const details = error.details ?? {};
  if (typeof details.baseURL !== 'string') return false;
  if (error.error_code === 'TIMEOUT' || error.error_code === 'RATE_LIMIT') return true;
  return error.error_code === 'UNKNOWN' && typeof details.status === 'number' && details.status >= 500;
}

/** Why an eval started no new run: the first run that ended on a provider failure (see `isProviderFailure`). */
export interface EvalStop {
  kata: string;
  run: number;
  error_code: string;
  message: string;
}

/** `20261126-0712`: the name of an eval's report folder, which sorts by time (the CLI's default `--out`, VS Code's). */
export function evalFolderStamp(date = new Date()): string {
  return date.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
}

/** Sessions at once by default: half the CPUs (each session's test runs keep a core busy), between 1 and 4. */
export function defaultConcurrency(cpuCount: number = cpus().length): number {
  return Math.max(1, Math.min(4, Math.floor(cpuCount / 2)));
}

/**
 * Runs each exercise `runs` times, each session in a throw-away repository with the usual worktree and sandbox,
 * recording every model exchange; after each session its commits are checked out and their own tests run again
 * (a red commit counts as a discipline event), and the held-back acceptance tests run on its final commit. The
 * report (JSON and Markdown) is rewritten after every run, so a stopped eval keeps what finished.
 * Throws only for what would stop every run, checked before any starts: no OS sandbox, a provider that does not
 * answer or serve the model, an unusable output folder.
 */
export async function runEval(options: EvalOptions): Promise<EvalOutcome> {
  const identity = evalIdentity(options, await identifyEvalSet(options.set));
  const jobs = options.shard
    ? shardJobs(evalJobs(options.exercises, options.runs ?? 1), options.language, options.shard)
    : evalJobs(options.exercises, options.runs ?? 1);
  const results = resumedResults(options, identity, jobs);
  await createProcessSandbox(options.sandbox ?? 'auto', { writableRoots: [] });
  await options.llm.checkModel?.(options.model, options.signal);
  const outDir = await prepareOutDir(options);
  const keptCount = results.filter(Boolean).length;
  const state: EvalState = {
    options,
    identity,
    jobs,
    results,
    startedAt: options.resume?.report?.started_at ?? new Date().toISOString(),
    concurrency: Math.max(1, options.concurrency ?? defaultConcurrency()),
    pending: jobs.map((_, i) => i).filter((i) => results[i] === undefined),
    keptCount,
    done: keptCount,
    started: 0,
    next: 0,
    passing: results.filter((r) => r?.passed).length,
    clock: performance.now(),
    outDir,
    workRoot: await mkdtemp(join(options.workRoot ?? tmpdir(), 'tdd-agent-eval-')),
    paths: { jsonPath: join(outDir, 'report.json'), markdownPath: join(outDir, 'report.md') },
    writing: Promise.resolve(),
  };
  if (options.resume) options.onProgress?.({ type: 'resumed', kept: keptCount, total: jobs.length });
  let report: EvalReport;
  try {
    await Promise.all(Array.from({ length: Math.min(state.concurrency, state.pending.length) }, () => runWorker(state)));
    report = buildReport(state, !options.signal?.aborted);
    await writeReport(state, report);
  } finally {
    await rm(state.workRoot, { recursive: true, force: true }).catch(() => undefined);
  }
  options.onProgress?.({ type: 'report_written', json: state.paths.jsonPath, markdown: state.paths.markdownPath });
  return { report, ...state.paths };
}

/** What an eval is, which a report it resumes must share: the model, the set, the options, this product. */
function evalIdentity(options: EvalOptions, setIdentity: Awaited<ReturnType<typeof identifyEvalSet>>) {
  const runOptions: EvalRunOptions = {
    max_cycles: options.maxCycles ?? null,
    test_timeout_ms: options.testTimeoutMs ?? null,
    model_timeout_ms: options.modelTimeoutMs ?? null,
    agents: options.agentsDir ? 'own' : 'bundled',
  };
  return {
    format: 'tdd-agent-eval' as const,
    version: 1 as const,
    model: options.model,
    provider: options.provider,
    language: options.language,
    runs_per_kata: options.runs ?? 1,
    set: { ...setIdentity, katas: options.exercises.map((e) => e.slug) },
    tdd_agent: { version: productVersion(), front_end: options.frontEnd ?? 'cli' },
    price: options.price ?? null,
    options: runOptions,
  };
}

type EvalIdentity = ReturnType<typeof evalIdentity>;

/** An eval under way: its jobs, what each gave, where the report goes, and what the report says of a stop. */
interface EvalState {
  options: EvalOptions;
  identity: EvalIdentity;
  jobs: EvalJob[];
  /** By job: a run kept from the resumed report or finished here. */
  results: Array<EvalRunResult | undefined>;
  startedAt: string;
  concurrency: number;
  /** The jobs to run here, by index. */
  pending: number[];
  keptCount: number;
  done: number;
  started: number;
  next: number;
  passing: number;
  /** When the runs here began (for the pace). */
  clock: number;
  outDir: string;
  workRoot: string;
  paths: { jsonPath: string; markdownPath: string };
  /** The report's writes, one after another. */
  writing: Promise<void>;
  sandboxKind?: string;
  stopped?: EvalStop;
}

/**
 * The runs a resumed report keeps, by job (a scored run stays; one the provider's failure ended runs again); a report
 * of another eval is refused.
 */
function resumedResults(options: EvalOptions, identity: EvalIdentity, jobs: EvalJob[]): Array<EvalRunResult | undefined> {
  const results = new Array<EvalRunResult | undefined>(jobs.length);
  const previous = options.resume?.report;
  if (!options.resume || !previous) return results;
  const shardOf = (s: { index: number; count: number } | undefined): string => (s ? `shard ${s.index}/${s.count}` : 'whole');
  const problem =
    evalMismatch(previous, identity) ??
    (shardOf(previous.shard) !== shardOf(options.shard)
      ? `${shardOf(previous.shard)}, not ${shardOf(options.shard)}`
      : undefined);
  if (problem)
    throw new AgentError('CONFIG', `Cannot resume: ${options.resume.file} is a report of another eval (${problem}).`, {
      file: options.resume.file,
    });
  const kept = new Map(previous.runs.filter((r) => r.scored !== false).map((r) => [`${r.kata}\0${r.run}`, r]));
  jobs.forEach((job, i) => (results[i] = kept.get(`${job.exercise.slug}\0${job.run}`)));
  return results;
}

/** The report's folder, with `recordings/` and the kata texts beside them (the folder replays on its own, wherever it is shared). */
async function prepareOutDir(options: EvalOptions): Promise<string> {
  const outDir = resolve(options.outDir);
  await mkdir(join(outDir, 'recordings'), { recursive: true });
  await mkdir(join(outDir, 'katas'), { recursive: true });
  for (const exercise of options.exercises)
    await copyFile(kataFileOf(options.set, exercise), join(outDir, 'katas', `${exercise.slug}.md`));
  return outDir;
}

/** The report of the runs so far (`finished`: all that were to run here ran). */
function buildReport(state: EvalState, finished: boolean): EvalReport {
  const { options, identity, jobs } = state;
  const previous = options.resume?.report;
  const list = state.results.filter((r): r is EvalRunResult => r !== undefined);
  const { summary, katas } = summarize(list, identity.runs_per_kata, identity.price);
  return {
    format: 'tdd-agent-eval',
    version: 1,
    started_at: state.startedAt,
    finished_at: new Date().toISOString(),
    interrupted: Boolean(options.signal?.aborted) || !finished,
    model: options.model,
    provider: options.provider,
    language: options.language,
    runs_per_kata: identity.runs_per_kata,
    concurrency: state.concurrency,
    tdd_agent: identity.tdd_agent,
    set: identity.set,
    price: identity.price,
    machine: {
      sandbox: state.sandboxKind ?? previous?.machine.sandbox ?? (options.sandbox === 'off' ? 'none' : 'unknown'),
      cpus: cpus().length,
      node: process.versions.node,
      platform: `${process.platform}-${process.arch}`,
    },
    options: identity.options,
    ...(options.shard
      ? {
          shard: {
            index: options.shard.index,
            count: options.shard.count,
            runs: jobs.map((j) => ({ kata: j.exercise.slug, run: j.run })),
          },
        }
      : {}),
    ...(state.stopped ? { stopped: { ...state.stopped, not_started: state.pending.length - state.started } } : {}),
    summary,
    katas,
    runs: list,
  };
}

/** Writes the report (JSON and Markdown) after the writes before it. */
function writeReport(state: EvalState, report: EvalReport): Promise<void> {
  state.writing = state.writing.then(async () => {
    await writeAtomically(state.paths.jsonPath, `${JSON.stringify(report, null, 2)}\n`);
    await writeAtomically(state.paths.markdownPath, renderMarkdown(report));
  });
  return state.writing;
}

/** Takes the next pending job until none is left, the eval is cancelled, or a provider failure stopped it. */
async function runWorker(state: EvalState): Promise<void> {
  const { options, jobs } = state;
  while (state.next < state.pending.length && !options.signal?.aborted && !state.stopped) {
    const index = state.pending[state.next++]!;
    state.started++;
    const { exercise, run } = jobs[index]!;
    options.onProgress?.({ type: 'run_started', kata: exercise.slug, run, index: index + 1, total: jobs.length });
    const result = await runOne(options, exercise, run, state.outDir, state.workRoot);
    if (result) await recordRun(state, index, result); // undefined: cancelled, not kept
  }
}

/** A finished run: kept, written, announced with the pace; a provider's failure stops the eval. */
async function recordRun(state: EvalState, index: number, result: { run: EvalRunResult; sandbox?: string }): Promise<void> {
  const { options, jobs } = state;
  const { exercise, run } = jobs[index]!;
  state.sandboxKind ??= result.sandbox;
  state.results[index] = result.run;
  state.done++;
  if (result.run.passed) state.passing++;
  // This process's pace: wall time per run finished here (the runs at once included), times the runs left.
  const finishedHere = state.done - state.keptCount;
  const etaMs = Math.round(((performance.now() - state.clock) / finishedHere) * (jobs.length - state.done));
  // The provider failed, not the model: every run after this one would fail alike and be scored as the model's.
  const providerError = !result.run.scored && !state.stopped ? result.run.error : undefined;
  if (providerError)
    state.stopped = { kata: exercise.slug, run, error_code: providerError.error_code, message: providerError.message };
  // On disk before it is announced: a person who sees the run done and stops the eval twice keeps it.
  await writeReport(state, buildReport(state, false)).catch((err) => log.warn('could not write the eval report', { error: err }));
  options.onProgress?.({
    type: 'run_finished',
    result: result.run,
    done: state.done,
    total: jobs.length,
    passing: state.passing,
    eta_ms: etaMs,
  });
  if (providerError && state.stopped) options.onProgress?.({ type: 'stopping', stopped: state.stopped });
}

/** `text` with the run's throw-away folder shown as `<run>`, then redacted (which also writes the home folder as `~`). */
function withoutLocalPaths(text: string, runDir: string): string {
  return redactSecrets(text.split(runDir).join('<run>'));
}

/** Writes a file through a temporary name, so a reader never sees half of it. */
async function writeAtomically(path: string, text: string): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, text);
  await rename(temp, path);
}

/** What one session's events add up to. */
interface EventTally {
  /** The error the session ended on, with its details (the summary keeps only code and message). */
  error?: ErrorInfo;
  requests: number;
  prompt: number;
  completion: number;
  revertedRefactors: number;
  testCommand?: string;
}

function tally(): { counts: EventTally; onEvent: (event: SupervisorEvent) => void } {
  const counts: EventTally = { requests: 0, prompt: 0, completion: 0, revertedRefactors: 0 };
  return {
    counts,
    onEvent: (event) => {
      if (event.type === 'model_called') {
        counts.requests++;
        counts.prompt += event.promptTokens;
        counts.completion += event.completionTokens;
      } else if (event.type === 'reverted' && event.role === 'refactorer') counts.revertedRefactors++;
      else if (event.type === 'project_profile') counts.testCommand = event.profile.testCommand;
      else if (event.type === 'error') counts.error = event.error;
    },
  };
}

/** The session's commits, oldest first: those its phases made (the green commits the supervisor vouches for). */
function sessionCommits(summary: SessionSummary): string[] {
  const commits = summary.cycles.flatMap((c) => c.phases.flatMap((p) => p.commits_made ?? []));
  const fromCycles = summary.cycles.map((c) => c.commit).filter((c): c is string => Boolean(c));
  return [...new Set(commits.length > 0 ? commits : fromCycles)];
}

/**
 * The cycles a run counts: its green ones, each a behaviour test-driven and committed. A failed cycle is not one (the
 * status and "What went wrong" tell of it), nor the Tester's closing turn that answers KATA_COMPLETE: it adds no test
 * and commits nothing (so a replay's "Session completed: 4 cycles" is 3 here).
 */
export function greenCycles(summary: Pick<SessionSummary, 'cycles'>): number {
  return summary.cycles.filter((c) => c.outcome === 'green').length;
}

/**
 * One run: the session, the replay of its commits, the acceptance tests; undefined when Ctrl-C cancelled it (its
 * recording is removed then: the report and `recordings/` list the same runs).
 */
async function runOne(
  options: EvalOptions,
  exercise: EvalExercise,
  run: number,
  outDir: string,
  workRoot: string,
): Promise<{ run: EvalRunResult; sandbox?: string } | undefined> {
  const entry = acceptanceFor(exercise, options.language)!;
  const runDir = await mkdtemp(join(workRoot, `${exercise.slug}-${run}-`));
  const recording = join('recordings', `${exercise.slug}-${options.language}-${run}.json`);
  const llm = new RecordingLlmClient(
    options.llm,
    join(outDir, recording),
    `tdd-agent eval: ${exercise.slug} (${options.language}) run ${run}, ${options.provider} ${options.model}`,
  );
  const { counts, onEvent } = tally();
  const started = performance.now();
  const { summary, error } = await runEvalSession(options, exercise, runDir, llm, onEvent);
  const sessionMs = performance.now() - started;
  // A cancelled run is not in the report, so its partial recording does not stay in recordings/ either.
  const dropRecording = async (): Promise<void> => {
    await llm.flush().catch(() => undefined);
    await rm(join(outDir, recording), { force: true }).catch(() => undefined);
  };
  if (options.signal?.aborted || summary?.status === 'cancelled') {
    await rm(runDir, { recursive: true, force: true }).catch(() => undefined);
    await dropRecording();
    return undefined;
  }
  const checked = await checkSessionCommits(options, { exercise, run, entry, runDir }, summary, counts.testCommand);
  await rm(runDir, { recursive: true, force: true }).catch(() => undefined);
  if (options.signal?.aborted) {
    await dropRecording();
    return undefined;
  }
  const timing = { session_ms: Math.round(sessionMs), wall_ms: Math.round(performance.now() - started) };
  return {
    sandbox: summary?.session?.sandbox,
    run: runResult(options, { exercise, run, recording, runDir }, { summary, error, counts, checked, timing }),
  };
}

/** The session of one run, in a fresh repository of the run's folder, approving up to MEDIUM itself. */
async function runEvalSession(
  options: EvalOptions,
  exercise: EvalExercise,
  runDir: string,
  llm: LlmClient,
  onEvent: (event: SupervisorEvent) => void,
): Promise<{ summary?: SessionSummary; error?: AgentError }> {
  try {
    const summary = await runKataSession({
      workspace: join(runDir, 'repository'),
      kataPath: kataFileOf(options.set, exercise),
      language: options.language,
      llm,
      model: options.model,
      provider: options.provider,
      maxCycles: options.maxCycles,
      approvalPolicy: { autoApproveUpTo: 'MEDIUM' },
      testTimeoutMs: options.testTimeoutMs,
      modelTimeoutMs: options.modelTimeoutMs,
      agentsDir: options.agentsDir,
      sandbox: options.sandbox,
      worktreesRoot: join(runDir, 'worktrees'),
      signal: options.signal,
      onEvent,
    });
    return { summary };
  } catch (err) {
    return { error: toAgentError(err) };
  }
}

/** What the session's commits showed when run again: red commits, the acceptance tests on the final one. */
interface CheckedCommits {
  acceptance: AcceptanceResult;
  replay: CommitReplay;
  finalCommit: string | null;
}

/** Checks out the session's final commit, runs its commits' own tests again and the held-back acceptance tests. */
async function checkSessionCommits(
  options: EvalOptions,
  { exercise, run, entry, runDir }: { exercise: EvalExercise; run: number; entry: EvalLanguage; runDir: string },
  summary: SessionSummary | undefined,
  testCommand: string | undefined,
): Promise<CheckedCommits> {
  const checked: CheckedCommits = {
    acceptance: { passed: 0, total: entry.cases, status: 'not_run', reason: 'the session made no commit' },
    replay: { checked: 0, red: [] },
    finalCommit: null,
  };
  const repository = summary?.session?.repository;
  if (!summary || !repository || !summary.branch) return checked;
  let checkout: SessionCheckout | undefined;
  try {
    const finalCommit = (await (await untrustedTreeGit(repository))(['rev-parse', `${summary.branch}^{commit}`])).trim();
    checked.finalCommit = finalCommit;
    checkout = await SessionCheckout.open(repository, join(runDir, 'checkout'), finalCommit, options.sandbox, options.signal);
    const limits = { timeoutMs: options.testTimeoutMs, signal: options.signal };
    checked.replay = await checkout.replayCommits(sessionCommits(summary), testCommand, limits);
    checked.acceptance = await checkout.runAcceptance(finalCommit, options.set.dir, options.language, entry, limits);
  } catch (err) {
    const problem = toAgentError(err);
    log.warn('could not check the session’s commits', { kata: exercise.slug, run, error: problem });
    checked.acceptance = { passed: 0, total: entry.cases, status: 'not_run', reason: problem.message.slice(0, 300) };
  } finally {
    await checkout?.close().catch(() => undefined);
  }
  return checked;
}

/** One run's line of the report, scored unless a provider's failure ended it; no path of this machine in it. */
function runResult(
  options: EvalOptions,
  { exercise, run, recording, runDir }: { exercise: EvalExercise; run: number; recording: string; runDir: string },
  {
    summary,
    error,
    counts,
    checked: { acceptance, replay, finalCommit },
    timing,
  }: {
    summary?: SessionSummary;
    error?: AgentError;
    counts: EventTally;
    checked: CheckedCommits;
    timing: { session_ms: number; wall_ms: number };
  },
): EvalRunResult {
  // Green means a green commit at the end: a session whose only cycle failed and whose Tester then found "nothing left
  // to test" completes, yet made nothing.
  const finishedGreen =
    (summary?.status === 'completed' || summary?.status === 'incomplete' || summary?.status === 'max_cycles') &&
    summary.cycles.some((c) => c.outcome === 'green');
  const tokens = { prompt: counts.prompt, completion: counts.completion };
  const fromText = summary?.totals.toolCallsFromText;
  const failure = error ? error.toJSON() : summary?.error;
  const scored = !isProviderFailure(
    error ? error.toJSON() : summary?.status === 'failed' ? (counts.error ?? summary.error) : undefined,
  );
  // A report is made to be shared: no path of this machine in what it quotes.
  const local = (text: string): string => withoutLocalPaths(text, runDir);
  if (acceptance.reason) acceptance.reason = local(acceptance.reason);
  return {
    kata: exercise.slug,
    title: exercise.title,
    run,
    language: options.language,
    status: summary?.status ?? 'error',
    finished_green: finishedGreen,
    cycles: summary ? greenCycles(summary) : 0,
    acceptance,
    passed:
      scored && finishedGreen && acceptance.status === 'passed' && acceptance.total > 0 && acceptance.passed === acceptance.total,
    scored,
    discipline: {
      overshoots: summary?.totals.overshoots ?? 0,
      violations: summary?.totals.violations ?? 0,
      reverted_refactors: counts.revertedRefactors,
      red_commits: replay.red.length,
      commits_checked: replay.checked,
    },
    model_requests: counts.requests,
    tokens,
    ...(fromText !== undefined ? { tool_calls_from_text: fromText } : {}),
    cost_usd: costOf(tokens, options.price ?? null),
    wall_ms: timing.wall_ms,
    session_ms: timing.session_ms,
    recording,
    final_commit: finalCommit,
    ...(failure ? { error: { error_code: failure.error_code, message: local(failure.message) } } : {}),
  };
}
