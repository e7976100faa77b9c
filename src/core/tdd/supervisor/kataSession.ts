import { mkdir, realpath } from 'node:fs/promises';
import { AgentFactory } from '../../agentConfig/agentFactory';
import { DEFAULT_APPROVAL_TIMEOUT_MS, type ControlProtocol } from '../../control/controlProtocol';
import { AgentError, toAgentError } from '../../errors/agentError';
import type { LlmClient } from '../../llm/types';
import { getLogger } from '../../logging/logger';
import type { McpServerConfig } from '../../mcp/config';
import type { McpHub, McpServerStatus } from '../../mcp/mcpHub';
import { DEFAULT_TEST_TIMEOUT_MS, detectTestRunner } from '../../testRunners';
import type { TestRunner } from '../../testRunners/types';
import { ApprovalPolicy, type ApprovalPolicyConfig } from '../../tools/approvalPolicy';
import { createWorkspaceTools, previewToolCall } from '../../tools/builtin';
import { ToolExecutor } from '../../tools/executor';
import { ToolRegistry } from '../../tools/registry';
import { ROLES, type SupervisorEvent } from '../events';
import { GitWorkspace } from '../git';
import { resolveKata, type Kata, type KataLanguage } from '../kata';
import { createAgentRoleRunners } from '../roles/agentRoleRunner';
import type { RoleRunners } from '../roles/roleRunner';
import { CycleLoop, type LoopGit } from './cycleLoop';
import { connectSessionMcpServers } from './sessionMcpServers';
import type { SessionSummary } from './sessionSummary';
import { prepareProject } from './workspaceSetup';
import { SessionStore } from '../session/sessionStore';
import { SessionRecorder } from './sessionRecorder';

/** Everything a kata session needs; the CLI and the VS Code extension each fill it in. */
export interface KataSessionOptions {
  /** The workspace folder (created if missing). */
  workspace: string;
  /** A kata markdown file, or the slug of a bundled kata (e.g. `fizzbuzz`). */
  kataPath: string;
  /** Overrides the kata's language. */
  language?: KataLanguage;
  /** The model client the roles call. */
  llm: LlmClient;
  /** The model the person configured (it wins over the model named in a role's config). */
  model: string;
  /** The provider's name, for the session record and the events. */
  provider: string;
  /** Default: the kata's `max_cycles`, else 10. */
  maxCycles?: number;
  /** Where approval requests go (terminal, panel). Without one, every `ask` is denied. */
  control?: ControlProtocol;
  approvalPolicy?: ApprovalPolicyConfig;
  /** Commands run after every green state (e.g. `npx tsc --noEmit`). */
  qualityGates?: string[];
  /** Per test run (default 60 s). */
  testTimeoutMs?: number;
  /** Stash the person's uncommitted work and put it back at the end (default: refuse to start). */
  stashDirty?: boolean;
  /** Continue the session recorded in `.tdd/session.json`. */
  resume?: boolean;
  /** Aborting it cancels the session (the tree goes back to the last green commit). */
  signal?: AbortSignal;
  /** Receives every supervisor event, in order (a listener that throws is logged and ignored). */
  onEvent?: (event: SupervisorEvent) => void;
  /** Replaces the agent roles (tests of the loop itself); default: agents defined in config/agents. */
  roles?: RoleRunners;
  /** Time a person has to answer an approval request (default 5 minutes). */
  approvalTimeoutMs?: number;
  /**
   * MCP servers whose tools join the session's toolbox (`<server>__<tool>`, behind the same approvals).
   * A role is offered them only when its config's `tools` list names or matches them (e.g. `"docs__*"`);
   * the shipped configs list exactly the four workspace tools. A server that fails to start is a logged
   * warning (see `onMcpServers`) and the session goes on without it; every server is stopped at the end.
   */
  mcpServers?: McpServerConfig[];
  /** Called once the MCP servers were connected, with each server's status (hosts show the failures). */
  onMcpServers?: (statuses: McpServerStatus[]) => void;
  /** A folder of agent configs (`tester/v1.json`, `implementer/v1.json`, `refactorer/v1.json`); default: the bundled `config/agents`. */
  agentsDir?: string;
  /** Limit of one model call in ms (default: the agents' 120 s). */
  modelTimeoutMs?: number;
}

const DEFAULT_MAX_CYCLES = 10;
const log = getLogger('tdd.session');

/** Returns the person to their branch (and work); a repository the session created has none, so it stays on the work. */
async function finishGit(git: GitWorkspace): Promise<void> {
  if (git.info.createdRepository) return;
  await git.finish().catch((err) => log.error('could not restore the branch', { error: err }));
}

/** Adapts the session's GitWorkspace to what the loop and its checkpoints need. */
function loopGit(git: GitWorkspace): LoopGit {
  return {
    changedFiles: () => git.changedFiles(),
    headContent: (path) => git.headContent(path),
    async commitAll(message) {
      const sha = await git.commitAll(message);
      if (!sha) throw new AgentError('UNKNOWN', 'Nothing to commit after a green phase; the working tree had no changes.', {});
      return sha;
    },
    async rollbackToHead() {
      await git.rollbackToHead();
    },
    async recentCommits(n) {
      return (await git.recentCommits(n)).map((c) => `${c.shortSha} ${c.subject}`);
    },
  };
}

/**
 * Runs a whole kata session in a git workspace: refuses (or stashes) the person's uncommitted work,
 * works on a `tdd/<kata>-<timestamp>` branch, scaffolds an empty workspace, runs red-green-refactor
 * cycles with the agent roles behind tool approvals, persists progress to `.tdd/session.json`, and
 * returns the person to their branch. Configured MCP servers are started before the first cycle and
 * stopped at the end. Never throws for a failed session: the summary says how it ended.
 * Configuration problems found before anything changed (dirty workspace, unknown kata, a missing or
 * invalid role config in `agentsDir`) do throw.
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

  const kata: Kata = await resolveKata(options.kataPath, { language: options.language });
  // A missing or invalid role config (e.g. in a person's agentsDir) is a CONFIG error now, not mid-session.
  if (!options.roles) for (const role of ROLES) AgentFactory.create(role, 'v1', undefined, { configRoot: options.agentsDir });
  await mkdir(options.workspace, { recursive: true });
  const workspace = await realpath(options.workspace);
  const store = new SessionStore(workspace);
  // Resuming: the saved git facts say which branch to continue and what to restore at the end.
  const resumed = options.resume ? await SessionRecorder.resume(store, kata) : undefined;
  const git = resumed ? await GitWorkspace.attach(workspace, resumed.git!) : await GitWorkspace.open(workspace, { stash: options.stashDirty, signal });
  resumed?.useGit(() => git.info);

  let recorder: SessionRecorder | undefined = resumed;
  let branch = resumed?.state.branch ?? '';
  let mcpHub: McpHub | undefined;
  try {
    if (resumed) {
      await git.continueSessionBranch(branch);
      await git.rollbackToHead(); // a stop or crash may have left a half-done phase behind
    } else {
      branch = await git.startSessionBranch(kata.slug);
      if (await prepareProject(workspace, kata)) await git.commitAll(`chore: scaffold a ${kata.language} project for ${kata.title}`);
    }

    const testTimeoutMs = options.testTimeoutMs ?? DEFAULT_TEST_TIMEOUT_MS;
    const testRunner: TestRunner = await detectTestRunner(workspace, { testCommand: kata.testCommand, timeoutMs: testTimeoutMs });
    const maxCycles = options.maxCycles ?? kata.maxCycles ?? DEFAULT_MAX_CYCLES;
    recorder ??= SessionRecorder.start(store, { kata, workspace, branch, model: options.model, provider: options.provider, maxCycles, testCommand: testRunner.command }, () => git.info);
    const rec = recorder;
    const record = (event: SupervisorEvent): void => {
      if (event.type === 'model_called') rec.modelCall({ promptTokens: event.promptTokens, completionTokens: event.completionTokens }, event.latencyMs);
      emit(event);
    };

    const registry = new ToolRegistry().register(...createWorkspaceTools({ testRunner, testTimeoutMs }));
    if (options.mcpServers && options.mcpServers.length > 0) {
      const mcp = await connectSessionMcpServers(registry, options.mcpServers, workspace, signal);
      mcpHub = mcp.hub;
      try {
        options.onMcpServers?.(mcp.statuses);
      } catch (err) {
        log.warn('an MCP status listener threw; ignoring it', { error: err });
      }
    }
    const executor = new ToolExecutor({
      registry,
      workspaceRoot: workspace,
      policy: new ApprovalPolicy(options.approvalPolicy ?? {}),
      control: options.control,
      approvalTimeoutMs: options.approvalTimeoutMs,
      preview: (name, params) => previewToolCall(name, params, workspace),
      defaultTimeoutMs: testTimeoutMs + 5_000,
    });
    executor.on('approval_requested', (e) => emit({ type: 'approval_requested', requestId: e.requestId, tool: e.tool, dangerLevel: e.dangerLevel, params: e.params, expiresAt: Date.now() + (options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS) }));
    executor.on('approval_answered', (e) => emit({ type: 'approval_answered', requestId: e.requestId, decision: e.outcome }));

    const firstCycle = rec.nextCycle;
    emit({ type: 'session_started', kata: kata.title, branch, baseBranch: git.info.originalBranch, model: options.model, provider: options.provider, maxCycles, workspace, resumedFromCycle: resumed ? firstCycle : undefined });
    const result = await new CycleLoop({
      workspaceRoot: workspace,
      kata,
      git: loopGit(git),
      testRunner,
      roles:
        options.roles ??
        createAgentRoleRunners({ llm: options.llm, model: options.model, toolbox: executor, emit: record, configRoot: options.agentsDir, timeoutMs: options.modelTimeoutMs }),
      maxCycles: Math.max(1, maxCycles - (firstCycle - 1)),
      firstCycle,
      recorder: rec,
      qualityGates: options.qualityGates,
      testTimeoutMs,
      signal,
      emit: record,
    }).run();
    rec.finish(result.status, result.error?.toJSON());
  } catch (err) {
    const error = toAgentError(err);
    emit({ type: 'error', error: error.toJSON() });
    await git.rollbackToHead().catch(() => undefined);
    recorder?.finish(signal.aborted ? 'cancelled' : 'failed', error.toJSON());
    if (!recorder) {
      const summary: SessionSummary = { status: signal.aborted ? 'cancelled' : 'failed', kata: kata.title, branch, cycles: [], totals: { cycles: 0, commits: 0, tests_passed: 0, overshoots: 0, violations: 0, retries: 0, reverts: 0, tokens: 0 }, error: { error_code: error.error_code, message: error.message } };
      await finishGit(git);
      emit({ type: 'session_finished', status: summary.status, summary });
      return summary;
    }
  } finally {
    // Stops every MCP child process, also after a failure or a cancel.
    await mcpHub?.close().catch((err) => log.error('could not close the MCP servers', { error: err }));
  }
  await finishGit(git);
  await recorder.save().catch((err) => log.error('could not save the session state', { error: err }));
  const summary = recorder.summary();
  emit({ type: 'session_finished', status: summary.status, summary });
  return summary;
}
