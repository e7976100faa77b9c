import { mkdir, realpath } from 'node:fs/promises';
import { simpleGit } from 'simple-git';
import type { ControlProtocol } from '../../control/controlProtocol';
import { AgentError, toAgentError } from '../../errors/agentError';
import type { LlmClient } from '../../llm/types';
import { getLogger } from '../../logging/logger';
import { detectTestRunner } from '../../testRunners';
import type { TestRunner } from '../../testRunners/types';
import { ApprovalPolicy, type ApprovalPolicyConfig } from '../../tools/approvalPolicy';
import { createWorkspaceTools, previewToolCall } from '../../tools/builtin';
import { ToolExecutor } from '../../tools/executor';
import { ToolRegistry } from '../../tools/registry';
import type { SupervisorEvent } from '../events';
import { GitWorkspace } from '../git';
import { resolveKata, type Kata, type KataLanguage } from '../kata';
import { createAgentRoleRunners } from '../roles/agentRoleRunner';
import type { RoleRunners } from '../roles/roleRunner';
import { CycleLoop, type LoopGit } from './cycleLoop';
import type { SessionSummary } from './sessionSummary';
import { SessionTally } from './sessionTally';
import { prepareProject } from './workspaceSetup';
import { SessionPersistence } from './sessionPersistence';

/** Everything a kata session needs; the CLI and the VS Code extension each fill it in. */
export interface KataSessionOptions {
  /** The workspace folder (created if missing). */
  workspace: string;
  /** A kata markdown file, or the slug of a bundled kata (e.g. `fizzbuzz`). */
  kataPath: string;
  /** Overrides the kata's language. */
  language?: KataLanguage;
  llm: LlmClient;
  model: string;
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
  signal?: AbortSignal;
  onEvent?: (event: SupervisorEvent) => void;
  /** Replaces the agent roles (tests of the loop itself); default: agents defined in config/agents. */
  roles?: RoleRunners;
  /** Time a person has to answer an approval request (default 5 minutes). */
  approvalTimeoutMs?: number;
}

const DEFAULT_MAX_CYCLES = 10;
const DEFAULT_TEST_TIMEOUT_MS = 60_000;
const log = getLogger('tdd.session');

/** Adapts the session's GitWorkspace to what the loop and its checkpoints need. */
function loopGit(git: GitWorkspace): LoopGit {
  const raw = simpleGit(git.dir);
  return {
    changedFiles: () => git.changedFiles(),
    async headContent(path) {
      try {
        return await raw.show([`HEAD:${path}`]);
      } catch {
        return null;
      }
    },
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
 * returns the person to their branch. Never throws for a failed session: the summary says how it ended.
 * Configuration problems found before anything changed (dirty workspace, unknown kata) do throw.
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
  await mkdir(options.workspace, { recursive: true });
  const workspace = await realpath(options.workspace);
  const persistence = new SessionPersistence(workspace);
  const previous = options.resume ? await persistence.loadForResume(kata) : undefined;

  const git = previous ? await GitWorkspace.attach(workspace, previous.git) : await GitWorkspace.open(workspace, { stash: options.stashDirty, signal });
  let branch: string;
  let summary: SessionSummary | undefined;
  try {
    if (previous) {
      branch = previous.git.sessionBranch!;
      await git.continueSessionBranch(branch);
      await git.rollbackToHead(); // a crash may have left a half-done phase behind
    } else {
      branch = await git.startSessionBranch(kata.slug);
      if (await prepareProject(workspace, kata)) await git.commitAll(`chore: scaffold a ${kata.language} project for ${kata.title}`);
    }

    const testTimeoutMs = options.testTimeoutMs ?? DEFAULT_TEST_TIMEOUT_MS;
    const testRunner: TestRunner = await detectTestRunner(workspace, { testCommand: kata.testCommand, timeoutMs: testTimeoutMs });
    const executor = new ToolExecutor({
      registry: new ToolRegistry().register(...createWorkspaceTools({ testRunner, testTimeoutMs })),
      workspaceRoot: workspace,
      policy: new ApprovalPolicy(options.approvalPolicy ?? {}),
      control: options.control,
      approvalTimeoutMs: options.approvalTimeoutMs,
      preview: (name, params) => previewToolCall(name, params, workspace),
      defaultTimeoutMs: testTimeoutMs + 5_000,
    });
    executor.on('approval_requested', (e) => emit({ type: 'approval_requested', requestId: e.requestId, tool: e.tool, dangerLevel: e.dangerLevel, params: e.params, expiresAt: Date.now() + (options.approvalTimeoutMs ?? 5 * 60_000) }));
    executor.on('approval_answered', (e) => emit({ type: 'approval_answered', requestId: e.requestId, decision: e.outcome }));

    const maxCycles = options.maxCycles ?? kata.maxCycles ?? DEFAULT_MAX_CYCLES;
    const firstCycle = previous ? previous.cycles.length + 1 : 1;
    const tally = previous ? SessionTally.from(previous.cycles, previous.totals) : new SessionTally();
    emit({ type: 'session_started', kata: kata.title, branch, baseBranch: git.info.originalBranch, model: options.model, provider: options.provider, maxCycles, workspace, resumedFromCycle: previous ? firstCycle : undefined });

    const loop = new CycleLoop({
      workspaceRoot: workspace,
      kata,
      git: loopGit(git),
      testRunner,
      roles: options.roles ?? createAgentRoleRunners({ llm: options.llm, model: options.model, toolbox: executor, emit }),
      maxCycles: previous ? Math.max(1, maxCycles - previous.cycles.length) : maxCycles,
      firstCycle,
      tally,
      qualityGates: options.qualityGates,
      testTimeoutMs,
      signal,
      emit,
      onProgress: ({ cycle, phase }) => persistence.save({ kata, branch, git: git.info, status: 'running', cycle, phase, tally }),
    });
    const result = await loop.run();
    summary = {
      status: result.status,
      kata: kata.title,
      branch,
      cycles: result.tally.cycles,
      totals: result.tally.totals,
      ...(result.error ? { error: { error_code: result.error.error_code, message: result.error.message } } : {}),
    };
    await persistence.save({ kata, branch, git: git.info, status: result.status, cycle: result.tally.cycles.length, phase: 'DONE', tally: result.tally });
  } catch (err) {
    const error = toAgentError(err);
    emit({ type: 'error', error: error.toJSON() });
    await git.rollbackToHead().catch(() => undefined);
    summary = { status: signal.aborted ? 'cancelled' : 'failed', kata: kata.title, branch: git.info.sessionBranch ?? '', cycles: [], totals: new SessionTally().totals, error: { error_code: error.error_code, message: error.message } };
  } finally {
    // A repository the session created has no branch of the person's to go back to: stay on the work.
    if (!git.info.createdRepository) await git.finish().catch((err) => log.error('could not restore the branch', { error: err }));
  }
  emit({ type: 'session_finished', status: summary.status, summary });
  return summary;
}
