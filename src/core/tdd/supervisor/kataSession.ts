import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentFactory } from '../../agentsAsData/agentFactory';
import { AuditTrail, toolCallAuditSink } from '../../audit/auditTrail';
import { AgentError, toAgentError } from '../../errors/agentError';
import { getLogger } from '../../logging/logger';
import type { McpHub } from '../../mcp/mcpHub';
import { createProcessSandbox, worktreePolicy, type ProcessSandbox } from '../../osSandbox';
import { DEFAULT_TEST_TIMEOUT_MS, detectTestRunner, runnerInFolder } from '../../testRunners';
import type { TestRunner } from '../../testRunners/types';
import { ApprovalPolicy } from '../../tools/approvalPolicy';
import { createAskPersonTool, createWorkspaceTools } from '../../tools/builtin';
import { ToolExecutor } from '../../tools/executor';
import { ToolRegistry } from '../../tools/registry';
import { type SupervisorEvent } from '../events';
import { ROLES } from '../../vocabulary';
import {
  initRepository,
  inspectWorkspace,
  removeSessionWorktree,
  SESSION_BRANCH_PREFIX,
  sessionsDirFor,
  SessionWorktree,
  type PersonRepository,
} from '../git';
import { kataInFolder, type Kata } from '../kata';
import { createAgentRoleRunner, createAgentRoleRunners, type AgentRoleRunnerOptions } from '../roles/agentRoleRunner';
import { isTddRole } from '../roles/roleRunner';
import { CycleLoop } from './cycleLoop';
import { loopGit } from '../commits/loopGit';
import { scaffoldCommitSubject } from '../git/setupCommits';
import { PersonQuestions } from '../roles/personQuestions';
import { ApprovedProtectedWrites } from '../commits/protectedChanges';
import { connectSessionMcpServers } from './sessionMcpServers';
import type { SessionSummary } from '../sessionSummary';
import type { KataSessionOptions } from './kataSessionOptions';
import { installDependencies, sessionManifests } from '../dependencies/installDependencies';
import {
  missingDependenciesMessage,
  prepareProjectDependencies,
  previewProjectDependencies,
} from '../dependencies/projectDependencies';
import { openSessionView } from './sessionView';
import { prepareProject, projectProfileEvent, projectRunnerOptions, resolveSessionKata } from './workspaceSetup';
import { SessionStore } from '../session/sessionStore';
import { findResumableSession } from '../session/findSession';
import { SessionLock } from '../session/sessionLock';
import type { SessionState } from '../session/sessionState';
import { approveKataCommands, checkProvider, checkTestRunner } from './preflight';
import { SessionRecorder } from '../session/sessionRecorder';

export type { KataSessionOptions } from './kataSessionOptions';

const DEFAULT_MAX_CYCLES = 10;
const log = getLogger('tdd.session');

function checkAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new AgentError('CANCELLED', 'The session was cancelled before it started; nothing was changed.', {});
}

/** What the preflight found: where to work, and the saved session when resuming. */
interface Preflight {
  workspace: Awaited<ReturnType<typeof inspectWorkspace>>;
  resumed?: SessionState;
}

/**
 * Everything that can refuse a session, checked before anything is created or changed: the kata and
 * role configs, the folder, the saved session when resuming, the OS sandbox, the test runner, the model
 * provider, and a person's approval of a kata's own test command.
 */
async function preflight(options: KataSessionOptions, kata: Kata, signal: AbortSignal): Promise<Preflight> {
  if (!options.roles) for (const role of ROLES) AgentFactory.create(role, 'v1', undefined, { configRoot: options.agentsDir });
  for (const phase of options.phases ?? [])
    if (!isTddRole(phase.role)) AgentFactory.create(phase.role, 'v1', undefined, { configRoot: options.agentsDir });
  const workspace = await inspectWorkspace(options.workspace);
  let resumed: SessionState | undefined;
  if (options.resume) {
    if (workspace.kind !== 'repository')
      throw new AgentError('CONFIG', `There is no session to resume in ${workspace.path}: it is not a git repository.`, {
        workspace: workspace.path,
      });
    resumed = await findResumableSession(
      sessionsDirFor(workspace.repository.commonDir),
      kata.slug,
      typeof options.resume === 'string' ? options.resume : undefined,
    );
  }
  await createProcessSandbox(options.sandbox ?? 'auto', { writableRoots: [] }); // throws SANDBOX_UNAVAILABLE before anything changed
  // The project's dependencies: the person's installs, or a lockfile the shared store can install; else say what to run.
  const plan =
    workspace.kind === 'repository'
      ? await previewProjectDependencies(workspace.repository, {
          sandbox: options.sandbox,
          testCommand: kata.testCommand ?? kata.project?.testCommand,
        })
      : undefined;
  // The test command's interpreter is probed in the sandbox the session's tests get (never on the host).
  await checkTestRunner(kata, {
    sandbox: options.sandbox,
    passEnvironment: options.sandboxEnvironment,
    python: plan?.sandbox.python && { ...plan.sandbox.python, refusedRoots: plan.python?.refusedRoots },
    pythonNeeds: plan?.pythonNeeds,
    signal,
  });
  if (plan?.missing.length && workspace.kind === 'repository') {
    const message = missingDependenciesMessage(plan.missing, workspace.repository.root);
    throw new AgentError('CONFIG', `${message} Nothing was created.`, { missing: plan.missing.map((m) => m.command) });
  }
  await checkProvider(options.llm, options.model, signal);
  if (!resumed) await approveKataCommands(kata, { policy: options.approvalPolicy, control: options.control, signal });
  checkAborted(signal);
  return { workspace, resumed };
}

/** The person's repository, created (`git init`, nothing else) only for a folder that is not one yet. */
async function openRepository(facts: Preflight['workspace']): Promise<{ repo: PersonRepository; created: boolean }> {
  if (facts.kind === 'repository') return { repo: facts.repository, created: false };
  if (facts.kind === 'missing') await mkdir(facts.path, { recursive: true });
  const repo = await initRepository(facts.path);
  log.info('created a git repository for the session', { workspace: repo.root });
  return { repo, created: true };
}

/**
 * Runs a whole kata session — a bundled kata, a kata file, or a task in plain words (the `task` option: the
 * `tdd-agent task` command), which is a kata whose description is the sentence — in its own git worktree on a
 * `tdd/<kata>-<timestamp>` branch: preflight first
 * (nothing is created before it passes), then scaffolding, red-green-refactor cycles with the agent roles
 * behind tool approvals, every test run, gate and command in the OS sandbox, progress saved to the
 * session's record after every phase. The person's working tree, index, HEAD, stash and ignored files are
 * never touched; the result is the branch. A finished or failed session's worktree is removed (a worktree the
 * person locked stays); an interrupted one keeps it for resuming. MCP servers are started before the first cycle and stopped at the end.
 * Never throws for a failed session: the summary says how it ended. Problems found by the preflight
 * (unknown kata, invalid role config, no sandbox, no test runner, unreachable provider, unapproved kata
 * command, nothing to resume) do throw, with nothing changed.
 */
export async function runKataSession(options: KataSessionOptions): Promise<SessionSummary> {
  const signal = options.signal ?? new AbortController().signal;
  const emit = (event: SupervisorEvent): void => {
    try {
      options.onEvent?.(event);
    } catch (err) {
      log.warn('a session event listener threw; ignoring it', { event: event.type, error: err });
    }
  };

  const resolved: Kata = await resolveSessionKata(options);
  const checked = await preflight(options, resolved, signal);
  // A workspace package named by the person: the session is the repository's, its tests run in that folder.
  const folder = checked.workspace.kind === 'repository' ? checked.workspace.folder : undefined;
  const kata = folder ? kataInFolder(resolved, folder) : resolved;

  const { repo, created } = await openRepository(checked.workspace);
  const { worktree, lock } = await attachOrCreate(repo, kata, options, checked, created);
  try {
    return await runInWorktree(options, kata, checked, repo, worktree, emit, signal);
  } finally {
    await lock.release().catch((err) => log.warn('could not release the session lock', { error: err }));
  }
}

/**
 * The session's worktree with its lock held: a resumed session is locked before it is attached (and its record read
 * again under the lock, since another process may have run it meanwhile); a new one right after its branch exists.
 */
async function attachOrCreate(
  repo: PersonRepository,
  kata: Kata,
  options: KataSessionOptions,
  checked: Preflight,
  created: boolean,
): Promise<{ worktree: SessionWorktree; lock: SessionLock }> {
  const sessionsDir = sessionsDirFor(repo.commonDir);
  if (checked.resumed) {
    const lock = await SessionLock.acquire(sessionsDir, checked.resumed.id, 'a kata session');
    try {
      checked.resumed = await findResumableSession(sessionsDir, kata.slug, checked.resumed.id);
      return { worktree: await SessionWorktree.attach(checked.resumed.git), lock };
    } catch (err) {
      await lock.release();
      throw err;
    }
  }
  const { worktree } = await SessionWorktree.create(repo, {
    slug: kata.slug,
    fromWorkingTree: options.fromWorkingTree,
    createdRepository: created,
    worktreesRoot: options.worktreesRoot,
  });
  const id = worktree.info.sessionBranch.slice(SESSION_BRANCH_PREFIX.length);
  return { worktree, lock: await SessionLock.acquire(sessionsDir, id, 'a kata session') };
}

/** The session proper, once its worktree is attached and locked. */
async function runInWorktree(
  options: KataSessionOptions,
  kata: Kata,
  checked: Preflight,
  repo: PersonRepository,
  worktree: SessionWorktree,
  emit: (event: SupervisorEvent) => void,
  signal: AbortSignal,
): Promise<SessionSummary> {
  const { dependencies, view, sandbox } = await sessionSandbox(options, kata, repo, worktree);
  const store = new SessionStore(
    sessionsDirFor(worktree.info.commonDir),
    worktree.info.sessionBranch.slice(SESSION_BRANCH_PREFIX.length),
  );
  const maxCycles = options.maxCycles ?? checked.resumed?.maxCycles ?? kata.maxCycles ?? DEFAULT_MAX_CYCLES;
  const recorder = checked.resumed
    ? SessionRecorder.resume(store, checked.resumed, sandbox.kind)
    : SessionRecorder.start(store, {
        kata,
        workspace: repo.root,
        branch: worktree.info.sessionBranch,
        model: options.model,
        provider: options.provider,
        maxCycles,
        git: worktree.info,
        sandbox: sandbox.kind,
      });
  const run: SessionRun = { options, kata, checked, repo, worktree, emit, signal, sandbox, store, recorder, maxCycles };
  const closing: { mcpHub?: McpHub; audit?: AuditTrail } = {};
  try {
    await recorder.save();
    const scaffolded = await prepareWorktree(run, dependencies);
    const result = await runCycles(run, scaffolded, closing);
    recorder.finish(result.status, result.error?.toJSON());
  } catch (err) {
    const error = toAgentError(err);
    emit({ type: 'error', error: error.toJSON() });
    await worktree.rollbackToHead().catch(() => undefined);
    recorder.finish(signal.aborted ? 'cancelled' : 'failed', error.toJSON());
  } finally {
    view?.close(); // its mounts end with it; the layer stays with a kept worktree
    // Stops every MCP child process, also after a failure or a cancel.
    await closing.mcpHub?.close().catch((err) => log.error('could not close the MCP servers', { error: err }));
    await closing.audit?.close();
  }
  return endSession(run);
}

/** A session under way in its worktree: what its parts share. */
interface SessionRun {
  options: KataSessionOptions;
  kata: Kata;
  checked: Preflight;
  repo: PersonRepository;
  worktree: SessionWorktree;
  emit: (event: SupervisorEvent) => void;
  signal: AbortSignal;
  sandbox: ProcessSandbox;
  store: SessionStore;
  recorder: SessionRecorder;
  maxCycles: number;
}

/** The session's sandbox, with the project's dependencies and the person's ignored files shown read-only. */
async function sessionSandbox(options: KataSessionOptions, kata: Kata, repo: PersonRepository, worktree: SessionWorktree) {
  // The person's node_modules / virtual environment (or the shared install of the same lockfile), shown read-only.
  const dependencies = await prepareProjectDependencies(worktree.info, {
    sandbox: options.sandbox,
    testCommand: kata.testCommand ?? kata.project?.testCommand,
  });
  // The person's ignored files (node_modules at every level, the venv, generated modules) at the same paths, copy-on-write.
  const view = await openSessionView(worktree, options);
  const sandbox: ProcessSandbox = await createProcessSandbox(options.sandbox ?? 'auto', {
    ...worktreePolicy(worktree.dir, worktree.info.commonDir, options.sandboxEnvironment, dependencies.sandbox),
    ...(view?.pid ? { view } : {}),
    unseenRoots: [repo.root], // the person's checkout: seen only through the worktree and the view
  });
  return { dependencies, view, sandbox };
}

/** The worktree ready for the first turn: a resumed one rolled back, a new one scaffolded; dependencies installed. */
async function prepareWorktree(
  { options, kata, checked, worktree, signal }: SessionRun,
  dependencies: Awaited<ReturnType<typeof prepareProjectDependencies>>,
): Promise<boolean> {
  let scaffolded = false;
  if (checked.resumed) {
    await worktree.rollbackToHead(); // a stop or crash may have left a half-done phase behind
  } else if (!kata.folder && (scaffolded = await prepareProject(worktree.dir, kata))) {
    await worktree.commitAll(scaffoldCommitSubject(kata.language, kata.title));
  }
  // Before any agent turn, so package.json is the scaffold's or the person's; node_modules is git-ignored.
  await installDependencies(worktree.dir, {
    manifests: await sessionManifests(worktree.info, { resumed: Boolean(checked.resumed), kata }),
    dependencies,
    sandbox: options.sandbox,
    policy: options.approvalPolicy,
    control: options.control,
    signal,
  });
  return scaffolded;
}

/** The session's test runner: the project's, in the kata's folder when it names one. */
async function sessionTestRunner({ kata, worktree, sandbox, recorder }: SessionRun, scaffolded: boolean, testTimeoutMs: number) {
  const projectDir = kata.folder ? join(worktree.dir, kata.folder) : worktree.dir;
  const folderRunner: TestRunner = await detectTestRunner(projectDir, {
    ...projectRunnerOptions(kata, projectDir, scaffolded),
    timeoutMs: testTimeoutMs,
    sandbox,
  });
  const testRunner = kata.folder ? runnerInFolder(folderRunner, kata.folder) : folderRunner;
  recorder.state.testCommand = testRunner.command;
  return testRunner;
}

/** The cycles, from the tools and approvals of the session to the loop's result. */
async function runCycles(run: SessionRun, scaffolded: boolean, closing: { mcpHub?: McpHub; audit?: AuditTrail }) {
  const { options, kata, worktree, sandbox, recorder, maxCycles, signal } = run;
  const testTimeoutMs = options.testTimeoutMs ?? DEFAULT_TEST_TIMEOUT_MS;
  const testRunner = await sessionTestRunner(run, scaffolded, testTimeoutMs);
  const record = (event: SupervisorEvent): void => {
    if (event.type === 'model_called')
      recorder.modelCall(
        { promptTokens: event.promptTokens, completionTokens: event.completionTokens },
        event.latencyMs,
        event.toolCallsFromText,
      );
    run.emit(event);
  };
  const questions = new PersonQuestions({
    control: options.control,
    timeoutMs: options.approvalTimeoutMs,
    recorder,
    emit: record,
  });
  const { executor, approvedWrites } = await sessionTools(run, { testRunner, testTimeoutMs, questions }, closing);
  const firstCycle = recorder.nextCycle;
  announceStart(run, firstCycle, testRunner, scaffolded);
  const agents: AgentRoleRunnerOptions = {
    llm: options.llm,
    model: options.model,
    toolbox: executor,
    emit: record,
    configRoot: options.agentsDir,
    timeoutMs: options.modelTimeoutMs,
    streamText: options.streamRoleText,
    onModelCall: (usage, latencyMs) => recorder.modelCall(usage, latencyMs),
  };
  return new CycleLoop({
    workspaceRoot: worktree.dir,
    kata,
    git: loopGit(worktree),
    testRunner,
    roles: options.roles ?? createAgentRoleRunners(agents),
    runnerFor: (role) => createAgentRoleRunner(agents, role),
    roleHooks: options.roleHooks,
    phases: options.phases,
    maxCycles: Math.max(1, maxCycles - (firstCycle - 1)),
    firstCycle,
    recorder,
    qualityGates: options.qualityGates,
    sandbox,
    testTimeoutMs,
    signal,
    emit: record,
    approvedProtectedChange: (path) => approvedWrites.matches(path),
    questions,
  }).run();
}

/** The roles' tools (the workspace's, ask_person, the MCP servers'), behind the approvals and the audit trail. */
async function sessionTools(
  { options, worktree, sandbox, store, signal }: SessionRun,
  { testRunner, testTimeoutMs, questions }: { testRunner: TestRunner; testTimeoutMs: number; questions: PersonQuestions },
  closing: { mcpHub?: McpHub; audit?: AuditTrail },
) {
  const dir = worktree.dir;
  const registry = new ToolRegistry().register(
    ...createWorkspaceTools({ testRunner, testTimeoutMs }),
    createAskPersonTool(questions.ask),
  );
  if (options.mcpServers && options.mcpServers.length > 0) {
    const mcp = await connectSessionMcpServers(registry, options.mcpServers, dir, signal);
    closing.mcpHub = mcp.hub;
    try {
      options.onMcpServers?.(mcp.statuses);
    } catch (err) {
      log.warn('an MCP status listener threw; ignoring it', { error: err });
    }
  }
  // Which protected files a person approved a tool call for: a test writing them gets them put back before a commit.
  const approvedWrites = new ApprovedProtectedWrites(dir);
  // The session's audit log is the framework's audit trail: one line per tool call, in the role's name.
  const audit = (closing.audit = AuditTrail.toFile(store.auditPath));
  const executor = new ToolExecutor({
    audit: toolCallAuditSink(audit, store.id),
    wrap: approvedWrites.wrapToolCall,
    registry,
    workspaceRoot: dir,
    policy: new ApprovalPolicy(options.approvalPolicy ?? {}),
    control: options.control,
    approvalTimeoutMs: options.approvalTimeoutMs,
    defaultTimeoutMs: testTimeoutMs + 5_000,
    sandbox,
  });
  return { executor, approvedWrites };
}

/** `session_started`, then the project the session works in. */
function announceStart(run: SessionRun, firstCycle: number, testRunner: TestRunner, scaffolded: boolean): void {
  const { options, kata, checked, repo, worktree, sandbox, store, emit } = run;
  emit({
    type: 'session_started',
    kata: kata.title,
    branch: worktree.info.sessionBranch,
    baseBranch: worktree.info.baseBranch,
    model: options.model,
    provider: options.provider,
    maxCycles: run.maxCycles,
    workspace: repo.root,
    sessionId: store.id,
    worktree: worktree.dir,
    sandbox: sandbox.description,
    ...(sandbox.notice ? { sandboxNotice: sandbox.notice } : {}),
    resumedFromCycle: checked.resumed ? firstCycle : undefined,
    resumedTokens: checked.resumed ? checked.resumed.metrics.tokens.total : undefined,
  });
  const profileEvent = projectProfileEvent(kata, testRunner, scaffolded);
  if (profileEvent) emit(profileEvent);
}

/** The end: a finished or failed session's worktree removed (a cancelled one kept to resume), the record saved. */
async function endSession({ worktree, recorder, emit }: SessionRun): Promise<SessionSummary> {
  if (recorder.state.status !== 'cancelled') {
    // Finished or failed: the branch holds every green commit and the worktree sits at the last one, so it is no longer
    // needed (a cancelled session keeps it to be resumed).
    if (
      await removeSessionWorktree(worktree.info).catch((err) => log.warn('could not remove the session worktree', { error: err }))
    )
      recorder.worktreeRemoved();
  }
  await recorder.save().catch((err) => log.error('could not save the session state', { error: err }));
  const summary = recorder.summary();
  emit({ type: 'session_finished', status: summary.status, summary });
  return summary;
}
