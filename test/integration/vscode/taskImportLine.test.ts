/**
 * Issue 35, as a newcomer met it in VS Code: "Start TDD task…" on a small npm project whose Tester edits only the
 * test file's import line (a name the module does not export yet, and no new test). Driven through the extension
 * host's own kata runner (a fake `vscode`: the user's settings, a trusted folder, progress and messages), against the
 * loopback model server, with real node --test runs in the sandbox and real commits. On the main branch before the
 * change, the import line alone was taken as red and the branch got `feat: whisper lower-cases the text` with no test.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type * as vscode from 'vscode';
import { startOpenAIServer, type OpenAITestServer } from '../../support/openaiServer';
import { scriptedKataModel } from '../../support/scriptedKataModel';
import { importOnlyTester, STRINGS_PROJECT, WHISPER_TASK } from '../../support/verdictPlayers';
import { fakeVscode, installFakeVscode } from '../../unit/vscode/fakeVscode';

const ROOT = resolve(__dirname, '..', '..', '..');
const IDENTITY = {
  GIT_AUTHOR_NAME: 'Newcomer',
  GIT_AUTHOR_EMAIL: 'new@example.invalid',
  GIT_COMMITTER_NAME: 'Newcomer',
  GIT_COMMITTER_EMAIL: 'new@example.invalid',
};

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, ...IDENTITY } }).trim();
}

describe('VS Code: Start TDD task… where the Tester edits only the import line (issue 35)', function () {
  this.timeout(180_000);
  let dir: string;
  let server: OpenAITestServer;
  const savedIdentity = Object.fromEntries(Object.keys(IDENTITY).map((k) => [k, process.env[k]]));

  before(async () => {
    installFakeVscode();
    Object.assign(process.env, IDENTITY);
    dir = await mkdtemp(join(tmpdir(), 'vscode-task-import-'));
    for (const [path, content] of Object.entries(STRINGS_PROJECT)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), content);
    }
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'strings');
    server = await startOpenAIServer({ models: ['test-model'], ollama: false });
  });

  after(async () => {
    for (const [k, v] of Object.entries(savedIdentity)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    fakeVscode.reset();
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('the branch gets no feat: commit without its test; the panel and the end message show the session completed', async () => {
    fakeVscode.reset();
    fakeVscode.workspaceFolders = [dir];
    // A newcomer's user settings: their own server, and file writes allowed without asking (commands still ask).
    fakeVscode.settings.user = {
      'tddAgent.provider': 'openai',
      'tddAgent.baseUrl': server.baseURL,
      'tddAgent.model': 'test-model',
      'tddAgent.approvalPolicy': { SAFE: 'allow', LOW: 'allow', MEDIUM: 'allow', HIGH: 'ask', CRITICAL: 'ask' },
    };
    server.setFallback(scriptedKataModel(importOnlyTester()).reply);

    const { KataRunner } = await import('../../../src/vscode/session/kataRunner');
    const { PanelStore } = await import('../../../src/vscode/panel/panelStore');
    const { PanelConversation } = await import('../../../src/vscode/panel/panelConversation');
    const { currentSettings } = await import('../../../src/vscode/config/currentSettings');
    const store = new PanelStore({ instanceId: 'test', trusted: true, throttleMs: 0 });
    const lines: string[] = [];
    const log = Object.fromEntries(
      ['trace', 'debug', 'info', 'warn', 'error', 'appendLine'].map((level) => [level, (line: string) => lines.push(line)]),
    ) as unknown as vscode.LogOutputChannel;
    const runner = new KataRunner({
      store,
      conversation: new PanelConversation(store, log),
      log,
      extensionPath: ROOT,
      settings: currentSettings,
      apiKey: () => Promise.resolve('sk-test-newcomer-000'),
      openPanel: () => Promise.resolve(undefined),
    });

    const summary = await runner.run({ task: WHISPER_TASK, resume: false, fromWorkingTree: false });
    assert.ok(summary, lines.join('\n'));

    // Every feat: commit of the branch adds a test: the import line alone never reached it.
    const feats = git(dir, 'log', '--format=%H %s', `main..${summary.branch}`)
      .split('\n')
      .filter((line) => / feat: /.test(line));
    assert.ok(feats.length > 0, lines.join('\n'));
    for (const line of feats) {
      const added = git(dir, 'show', '--format=', '--unified=0', line.slice(0, 40), '--', 'test');
      assert.match(added, /^\+\s*test\('/m, `${line.slice(41)}: a feat: commit without a test of its own`);
    }
    assert.equal(summary.status, 'completed');

    // The panel: the cycle is titled after its test; the history holds the Tester's retry and why.
    const state = store.state;
    assert.equal(state.session?.status, 'completed');
    assert.deepEqual(
      state.cycles.map((c) => c.title),
      ['feat: whisper lower-cases the text', 'kata complete: nothing left to test'],
    );
    assert.ok(
      fakeVscode.messages.some((m) => /Task "Add whisper\(text\)[^"]*" completed/.test(m)),
      fakeVscode.messages.join('\n'),
    );
    const tester = server.chatRequests().find((r) => {
      const user = String(
        (r.body.messages as Array<{ role: string; content?: unknown }>).find((m) => m.role === 'user')?.content,
      );
      return /- attempt: 2/.test(user) && /^agent: tester\//.test(String(r.body.messages[0].content));
    });
    assert.ok(tester, 'the Tester had a second attempt');
    assert.match(JSON.stringify(tester.body.messages), /You added no new test/);
  });
});
