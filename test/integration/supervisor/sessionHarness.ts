import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleGit } from 'simple-git';
import { createOpenAIClient } from '../../../src/core/llm';
import type { SupervisorEvent } from '../../../src/core/tdd/events';
import { runKataSession, type KataSessionOptions } from '../../../src/core/tdd/supervisor/kataSession';
import type { SessionSummary } from '../../../src/core/tdd/supervisor/sessionSummary';
import { startOpenAIServer, type OpenAITestServer } from '../../support/openaiServer';
import { scriptedKataModel, type KataScript, type PlayedTurn } from '../../support/scriptedKataModel';

/** A git identity for the temp repositories, so commits work on machines without one. */
export const GIT_ENV = { GIT_AUTHOR_NAME: 'Test', GIT_AUTHOR_EMAIL: 'test@example.invalid', GIT_COMMITTER_NAME: 'Test', GIT_COMMITTER_EMAIL: 'test@example.invalid' };

export interface SessionRun {
  summary: SessionSummary;
  events: SupervisorEvent[];
  played: PlayedTurn[];
  workspace: string;
  server: OpenAITestServer;
}

/** Temp workspace + loopback model server for one scripted session; `cleanup()` removes both. */
export class SessionHarness {
  workspace = '';
  server!: OpenAITestServer;

  async setUp(): Promise<void> {
    this.workspace = await mkdtemp(join(tmpdir(), 'tdd-session-'));
    this.server = await startOpenAIServer();
  }

  async cleanup(): Promise<void> {
    await this.server?.close();
    if (this.workspace) await rm(this.workspace, { recursive: true, force: true });
  }

  /** Runs a session against the scripted model; approvals auto-granted up to MEDIUM unless overridden. */
  async run(script: KataScript, options: Partial<KataSessionOptions> = {}): Promise<SessionRun> {
    const { reply, played } = scriptedKataModel(script);
    this.server.setFallback(reply);
    const events: SupervisorEvent[] = [];
    const summary = await runKataSession({
      workspace: this.workspace,
      kataPath: 'fizzbuzz',
      llm: createOpenAIClient({ baseURL: this.server.baseURL, apiKey: 'sk-test-session-key-000', maxRetries: 0 }),
      model: 'test-model',
      provider: 'openai',
      maxCycles: 6,
      approvalPolicy: { autoApproveUpTo: 'MEDIUM' },
      testTimeoutMs: 20_000,
      onEvent: (e) => events.push(e),
      ...options,
    });
    return { summary, events, played, workspace: this.workspace, server: this.server };
  }

  git() {
    return simpleGit(this.workspace);
  }
}

/** Subjects of the session branch's commits, oldest first. */
export async function commitSubjects(workspace: string, branch: string): Promise<string[]> {
  const log = await simpleGit(workspace).log({ from: undefined, to: undefined, [branch]: null } as never);
  return log.all.map((c) => c.message).reverse();
}
