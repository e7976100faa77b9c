import assert from 'node:assert/strict';
import {
  approvalResponseMessage,
  cancelQuestionMessage,
  commandMessage,
  followUpMessage,
  handlePanelMessage,
  logMessage,
  openCommitMessage,
  openDiffMessage,
  openFileMessage,
  openTestOutputMessage,
  PANEL_MESSAGE,
  PANEL_MESSAGES,
  parsePanelMessage,
  emptyPanelState,
  parsePanelState,
  personQuestionAnswerMessage,
  personQuestionDeclineMessage,
  readyMessage,
  retryQuestionMessage,
  sessionActionMessage,
  type PanelHost,
  type PanelMessage,
} from '../../../src/shared/panelProtocol';
import { openLogMessage } from '../../../src/shared/panelMessages/openLog';

/** A host that records every call (method name and arguments). */
function recordingHost(): { host: PanelHost; calls: unknown[][] } {
  const calls: unknown[][] = [];
  const record =
    (name: string) =>
    (...args: unknown[]) =>
      void calls.push([name, ...args]);
  const log = {
    debug: record('log.debug'),
    info: record('log.info'),
    warn: record('log.warn'),
    error: record('log.error'),
    show: record('log.show'),
  };
  const host = new Proxy({ log } as unknown as PanelHost, {
    get: (target, name: string) => (name === 'log' ? target.log : record(name)),
  });
  return { host, calls };
}

const SESSION = 'fizzbuzz-20261122-074300';

/** Each message (as the panel builds it) and the host call it must become. */
const ROUTES: [PanelMessage, unknown[]][] = [
  [readyMessage(), ['panelReady']],
  [approvalResponseMessage('r-1', 'always'), ['answerApproval', 'r-1', 'always']],
  [commandMessage('stopKata'), ['runCommand', 'stopKata']],
  [sessionActionMessage('merge', SESSION), ['sessionAction', 'merge', SESSION]],
  [openCommitMessage(SESSION, 'c0ffee12'), ['openCommit', SESSION, 'c0ffee12']],
  [openFileMessage('src/a.js', 3), ['openWorkspaceFile', 'src/a.js', 3]],
  [openFileMessage('src/a.js', undefined, true), ['openSessionFile', 'src/a.js', undefined]],
  [openTestOutputMessage('tests-1'), ['openTestOutput', 'tests-1']],
  [openDiffMessage('call-2'), ['openDiff', 'call-2']],
  [followUpMessage('qa-1', ' and zero? '), ['askFollowUp', 'qa-1', 'and zero?']],
  [cancelQuestionMessage('qa-2'), ['cancelQuestion', 'qa-2']],
  [retryQuestionMessage('cot-3'), ['retryQuestion', 'cot-3']],
  [logMessage('warn', 'render failed'), ['log.warn', 'panel: render failed']],
  [personQuestionAnswerMessage('q-1', 'start at 1'), ['answerPersonQuestion', 'q-1', { text: 'start at 1' }]],
  [personQuestionDeclineMessage('q-1'), ['answerPersonQuestion', 'q-1', { declined: true }]],
  // The example of docs/extending.md, "A new panel message".
  [openLogMessage(), ['log.show']],
];

describe('panel messages: one definition each, registered in one list', () => {
  it('every registered message has a unique type, and PANEL_MESSAGE names each', () => {
    const types = PANEL_MESSAGES.map((m) => m.type);
    assert.equal(new Set(types).size, types.length);
    assert.deepEqual(Object.keys(PANEL_MESSAGE).sort(), [...types].sort());
  });

  it('every message the panel builds is valid, and the host carries it out through its own definition', () => {
    const covered = new Set<string>();
    for (const [built, call] of ROUTES) {
      const { message, reason } = parsePanelMessage(JSON.parse(JSON.stringify(built)));
      assert.ok(message, `${built.type}: ${reason}`);
      const { host, calls } = recordingHost();
      handlePanelMessage(message, host);
      assert.deepEqual(calls, [call], built.type);
      covered.add(built.type);
    }
    assert.deepEqual([...covered].sort(), PANEL_MESSAGES.map((m) => m.type).sort(), 'every registered message is routed here');
  });

  it('refuses unknown keys (panel messages are strict) and unknown types', () => {
    assert.equal(parsePanelMessage({ ...openDiffMessage('x'), extra: 1 }).message, undefined);
    assert.equal(parsePanelMessage({ type: 'runAnything', command: 'rm -rf /' }).message, undefined);
  });
});

describe('panel state: history entries are a discriminated union', () => {
  it('reads a history saved before entries had a kind (a window persisted by an older version) in today’s shape', () => {
    const saved = {
      instanceId: 'old',
      revision: 3,
      trusted: true,
      session: null,
      cycles: [],
      approvals: [],
      answers: [],
      errors: [],
      actions: [
        {
          id: 'c1',
          role: 'tester',
          tool: 'write_file',
          params: { path: 'a.js' },
          resultSummary: 'ok',
          ok: true,
          approval: 'approved',
          durationMs: 3,
          cycle: 1,
          fileChange: { path: 'a.js', diff: '+x' },
        },
        {
          id: 't1',
          role: 'tester',
          tool: 'test run',
          params: {},
          resultSummary: 'failed',
          ok: true,
          approval: 'auto',
          durationMs: 9,
          cycle: 1,
          testRun: { status: 'failed', passed: 0, failed: 1, expectedRed: true, hasOutput: false },
        },
        {
          id: 'g1',
          role: 'supervisor',
          tool: 'quality_gate',
          params: { command: 'lint' },
          resultSummary: 'bad',
          ok: false,
          approval: 'auto',
          durationMs: 0,
          cycle: 1,
        },
        {
          id: 'm1',
          role: 'tester',
          tool: 'message',
          params: {},
          resultSummary: '',
          ok: true,
          approval: 'auto',
          durationMs: 0,
          cycle: 1,
          message: { text: 'hi', final: true, streaming: false },
        },
      ],
    };
    const state = parsePanelState(saved);
    assert.ok(state);
    assert.deepEqual(
      state.actions.map((a) => a.kind),
      ['toolCall', 'testRun', 'supervisorStep', 'message'],
    );
    const [call, run, step, words] = state.actions;
    assert.ok(call?.kind === 'toolCall' && call.fileChange?.diff === '+x' && call.approval === 'approved');
    assert.ok(run?.kind === 'testRun' && run.expectedRed && run.failed === 1);
    assert.ok(step?.kind === 'supervisorStep' && step.step === 'quality_gate' && !step.ok);
    assert.ok(words?.kind === 'message' && words.text === 'hi' && words.final);
  });

  it('refuses an entry whose fields do not match its kind', () => {
    const state = parsePanelState({
      ...emptyPanelState({ instanceId: 'x', trusted: true }),
      actions: [{ kind: 'message', id: 'm', role: 'tester', tool: 'write_file', params: {}, ok: true }],
    });
    assert.equal(state, undefined);
  });
});
