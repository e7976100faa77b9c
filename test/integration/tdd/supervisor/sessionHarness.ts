import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';
import { readRawBlock } from '../../../../src/core/agentsAsData/inputPayload';
import { runProcess } from '../../../../src/core/process/runProcess';
import { createOpenAIClient } from '../../../../src/core/llm';
import type { SupervisorEvent } from '../../../../src/core/tdd/events';
import { runKataSession, type KataSessionOptions } from '../../../../src/core/tdd/supervisor/kataSession';
import type { SessionSummary } from '../../../../src/core/tdd/sessionSummary';
import type { SessionState } from '../../../../src/core/tdd/session';
import type { LlmClient } from '../../../../src/core/llm/types';
import {
  startOpenAIServer,
  type OpenAITestServer,
  type RecordedRequest,
  type ScriptedReply,
} from '../../../support/openaiServer';
import { FIZZBUZZ_WITHOUT_EXAMPLES, fizzbuzzJs } from '../../../support/fizzbuzzPlans';
import { scriptedKataModel, type KataScript, type PlayedTurn } from '../../../support/scriptedKataModel';
import { createScriptedLlmClient, type ScriptedLlmClient } from '../../../support/scriptedLlmClient';

/** A git identity for the temp repositories, so commits work on machines without one. */
export const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
};

/**
 * The kata the harness's sessions run unless a test names another: FizzBuzz without stated examples. Their scripted
 * Testers stop after one to three cycles to test something else, and with no example to check, their KATA_COMPLETE
 * ends them `completed`; the completion check has tests of its own (test/integration/cli/verdicts.test.ts).
 */
export const HARNESS_KATA = FIZZBUZZ_WITHOUT_EXAMPLES;

/** What the scripted model offers the tests, in process or over loopback HTTP: the same calls either way. */
export type ScriptedModel = Pick<OpenAITestServer, 'requests' | 'chatRequests' | 'enqueue' | 'setFallback' | 'models'>;

export interface SessionRun {
  summary: SessionSummary;
  events: SupervisorEvent[];
  played: PlayedTurn[];
  workspace: string;
  server: ScriptedModel;
}

/**
 * Temp workspace + scripted model for one session; `cleanup()` removes both. By default the model answers in
 * process (`createScriptedLlmClient`: the supervisor's logic is the subject, not the wire); `{ wire: true }`
 * serves it from the loopback HTTP server instead (`wireServer` and `createOpenAIClient`), for the tests about
 * what reaches the network (API keys in headers, a generated test calling the server).
 */
export class SessionHarness {
  /** The person's folder (a temp dir the session may `git init`). */
  workspace = '';
  /** The last session's worktree (from its `session_started` event): where the agents' files are. */
  worktree = '';
  /** The scripted model: its recorded requests, its replies. */
  server!: ScriptedModel;
  /** The loopback server, with `{ wire: true }` only. */
  wireServer?: OpenAITestServer;
  private client?: ScriptedLlmClient;

  constructor(private readonly options: { wire?: boolean } = {}) {}

  async setUp(): Promise<void> {
    this.workspace = await mkdtemp(join(tmpdir(), 'tdd-session-'));
    if (this.options.wire) {
      this.wireServer = await startOpenAIServer();
      this.server = this.wireServer;
      this.client = undefined;
    } else {
      this.client = createScriptedLlmClient();
      this.server = this.client;
    }
  }

  async cleanup(): Promise<void> {
    await this.wireServer?.close();
    if (this.workspace) await rm(this.workspace, { recursive: true, force: true });
  }

  /** The client sessions use: the in-process one, or an OpenAI client pointed at the loopback server. */
  llm(): LlmClient {
    if (this.wireServer)
      return createOpenAIClient({ baseURL: this.wireServer.baseURL, apiKey: 'sk-test-session-key-000', maxRetries: 0 });
    if (!this.client) throw new Error('SessionHarness: setUp() first');
    return this.client;
  }

  /** Runs a session against the scripted model; approvals auto-granted up to MEDIUM unless overridden. */
  async run(script: KataScript, options: Partial<KataSessionOptions> = {}): Promise<SessionRun> {
    const { reply, played } = scriptedKataModel(script);
    const { summary, events } = await runWithReply(this, reply, options);
    return { summary, events, played, workspace: this.workspace, server: this.server };
  }

  git() {
    return simpleGit(this.workspace);
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers for the failure scenarios (added; the happy paths above do not use them).

/** Runs a session against any reply function (e.g. a scripted model wrapped to misbehave or to abort). */
export async function runWithReply(
  h: SessionHarness,
  reply: (req: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>,
  options: Partial<KataSessionOptions> = {},
): Promise<{ summary: SessionSummary; events: SupervisorEvent[] }> {
  h.server.setFallback(reply);
  const events: SupervisorEvent[] = [];
  const summary = await runKataSession({
    workspace: h.workspace,
    kataPath: HARNESS_KATA,
    llm: h.llm(),
    model: 'test-model',
    provider: 'openai',
    maxCycles: 6,
    approvalPolicy: { autoApproveUpTo: 'MEDIUM' },
    testTimeoutMs: 20_000,
    ...options,
    onEvent: (e) => {
      if (e.type === 'session_started') h.worktree = e.worktree;
      events.push(e);
      options.onEvent?.(e);
    },
  });
  return { summary, events };
}

/**
 * A FizzBuzz session of the harness's workspace cancelled at its first Implementer turn (cycle 1's red test is in its
 * worktree): a resumable session, and the folder of the repository's session records.
 */
export async function cancelledSession(h: SessionHarness): Promise<{ sessions: string; state: SessionState }> {
  const controller = new AbortController();
  const script = scriptedKataModel({ cycles: fizzbuzzJs(2) });
  const run = await runWithReply(
    h,
    async (req) => {
      if (turnOfRequest(req).role === 'implementer') controller.abort();
      return script.reply(req);
    },
    { signal: controller.signal },
  );
  assert.equal(run.summary.status, 'cancelled');
  const sessions = join(h.workspace, '.git', 'tdd-agent', 'sessions');
  return {
    sessions,
    state: JSON.parse(await readFile(join(sessions, `${run.summary.session!.id}.json`), 'utf8')) as SessionState,
  };
}

/** Role, cycle and attempt of a chat request, as the scripted model reads them. */
export function turnOfRequest(req: RecordedRequest): { role: string; cycle: number; attempt: number; step: number } {
  const messages: Array<{ role: string; content?: unknown }> = req.body?.messages ?? [];
  const text = (m?: { content?: unknown }): string => (typeof m?.content === 'string' ? m.content : '');
  const role = /^agent: (\w+)\//.exec(text(messages.find((m) => m.role === 'system')))?.[1] ?? 'unknown';
  const user = text(messages.find((m) => m.role === 'user'));
  return {
    role,
    cycle: Number(/- cycle: (\d+)/.exec(user)?.[1] ?? 0),
    attempt: Number(/- attempt: (\d+)/.exec(user)?.[1] ?? 0),
    step: messages.filter((m) => m.role === 'assistant').length,
  };
}

/** The context message (the user message) the model received for one role turn; throws when that turn never happened. */
export function contextOf(server: Pick<ScriptedModel, 'chatRequests'>, role: string, cycle: number, attempt: number): string {
  const req = server.chatRequests().find((r) => {
    const t = turnOfRequest(r);
    return t.role === role && t.cycle === cycle && t.attempt === attempt && t.step === 0;
  });
  if (!req) throw new Error(`no ${role} turn for cycle ${cycle}, attempt ${attempt}`);
  const user = String(req.body.messages.find((m: { role: string }) => m.role === 'user').content);
  // The agent prompt shows a multi-line input raw between `<context>` and `</context>` lines (a one-line one as
  // `context = "<JSON string>"`); take it out to compare with file contents.
  const block = readRawBlock(user, 'context');
  if (block !== undefined) return block;
  const line = /^context = (".*")$/m.exec(user)?.[1];
  return line ? (JSON.parse(line) as string) : user;
}

/** The `## <path>` block of a context's "# File contents" section, or undefined when the file was not shown. */
export function fileInContext(context: string, path: string): string | undefined {
  const start = context.indexOf(`## ${path}\n\`\`\`\n`);
  if (start < 0) return undefined;
  const body = context.slice(start + `## ${path}\n\`\`\`\n`.length);
  return body.slice(0, body.indexOf('\n```'));
}

/** Makes `workspace` a person's repository: a commit of `files` on their own branch (default `work`). */
export async function initPersonRepo(workspace: string, files: Record<string, string>, branch = 'work'): Promise<SimpleGit> {
  const git = simpleGit(workspace);
  await git.raw(['init', '-q', '-b', branch]);
  await git.addConfig('user.name', GIT_ENV.GIT_AUTHOR_NAME).addConfig('user.email', GIT_ENV.GIT_AUTHOR_EMAIL);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(workspace, path)), { recursive: true });
    await writeFile(join(workspace, path), content);
  }
  await git.add('.');
  await git.commit('the person’s own work');
  return git;
}

/**
 * Clones the workspace into a scratch folder, checks out every commit of `branch` in turn and runs its
 * tests with `command`; returns one entry per commit (oldest first) with the run's exit code and output.
 */
export async function testEveryCommit(
  workspace: string,
  branch: string,
  command = 'node --test',
): Promise<Array<{ sha: string; subject: string; exitCode: number | null; output: string }>> {
  const scratch = await mkdtemp(join(tmpdir(), 'tdd-history-'));
  try {
    await simpleGit().clone(workspace, scratch, ['-q', '--branch', branch]);
    const clone = simpleGit(scratch);
    const shas = (await clone.raw(['rev-list', '--reverse', branch])).split('\n').filter(Boolean);
    const results = [];
    for (const sha of shas) {
      await clone.raw(['checkout', '-q', '--detach', sha]);
      await clone.raw(['clean', '-fdq']);
      const subject = (await clone.raw(['log', '-1', '--format=%s', sha])).trim();
      const run = await runProcess({ cwd: scratch, command, shell: true, timeoutMs: 30_000 });
      results.push({ sha, subject, exitCode: run.exitCode, output: run.output });
    }
    return results;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The saved record of a session (`<repo>/.git/tdd-agent/sessions/<id>.json`), parsed. */
export async function savedSession(workspace: string, summary: SessionSummary): Promise<SessionState> {
  if (!summary.session) throw new Error('the session never got a record');
  return JSON.parse(
    await readFile(join(workspace, '.git', 'tdd-agent', 'sessions', `${summary.session.id}.json`), 'utf8'),
  ) as SessionState;
}

/** A file as the session branch has it (the person's checkout never holds session files). */
export async function fileOnBranch(workspace: string, branch: string, path: string): Promise<string | null> {
  return simpleGit(workspace)
    .raw(['show', `${branch}:${path}`])
    .catch(() => null);
}

/** Reads a file of the workspace, or null when it does not exist. */
export async function readOrNull(path: string): Promise<string | null> {
  return readFile(path, 'utf8').catch(() => null);
}

/** A three-cycle scripted kata ended as planned: completed, three green cycles (1, 2, 3 tests passing), then complete. */
export function assertThreeGreenCyclesThenComplete(summary: SessionSummary): void {
  assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
  assert.deepEqual(
    summary.cycles.map((c) => c.outcome),
    ['green', 'green', 'green', 'kata_complete'],
  );
  assert.deepEqual(
    summary.cycles.slice(0, 3).map((c) => c.tests.passed),
    [1, 2, 3],
  );
}
