import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { toolCallPreviewSchema, type ToolCallPreviewMessage } from '../../../src/core/control/messages';
import {
  ApprovalPreviewSchema,
  HOST_MESSAGE,
  LOG_MESSAGE_LIMIT,
  PANEL_COMMANDS,
  PANEL_MESSAGE,
  approvalResponseMessage,
  commandMessage,
  emptyPanelState,
  isNewerSnapshot,
  logMessage,
  parseHostMessage,
  parsePanelMessage,
  parsePanelState,
  readyMessage,
  stateMessage,
  type ApprovalPreview,
} from '../../../src/shared/panelProtocol';
import { approvalState, failedState, finishedState } from '../../browser/fixtures/panelStates';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// Compile-time: a control-protocol preview is an approval-card preview (the host passes it through).
const previewsMatch: Same<ApprovalPreview, ToolCallPreviewMessage> = true;

describe('panel protocol', () => {
  describe('parseHostMessage', () => {
    for (const [name, state] of [
      ['finished session', finishedState()],
      ['approvals pending', approvalState(Date.now() + 60_000)],
      ['failed session', failedState()],
      ['empty state', emptyPanelState({ instanceId: 'x', trusted: false })],
    ] as const) {
      it(`accepts a state message (${name}) and returns it unchanged`, () => {
        const { message, reason } = parseHostMessage(stateMessage(state));
        assert.equal(reason, undefined);
        assert.ok(message);
        assert.equal(message.type, HOST_MESSAGE.state);
        assert.deepEqual(JSON.parse(JSON.stringify(message.state)), JSON.parse(JSON.stringify(state)));
      });
    }

    it('drops non-objects with a reason', () => {
      for (const value of [null, undefined, 42, 'state', [], true]) {
        const { message, reason } = parseHostMessage(value);
        assert.equal(message, undefined);
        assert.match(reason ?? '', /invalid host→panel message/);
      }
    });

    it('drops an unknown message type', () => {
      const { message, reason } = parseHostMessage({ type: 'deleteEverything', state: finishedState() });
      assert.equal(message, undefined);
      assert.match(reason ?? '', /type deleteEverything/);
    });

    it('drops a state with an unknown status and names the path', () => {
      const state = finishedState();
      const bad = { ...state, session: { ...state.session, status: 'exploded' } };
      const { message, reason } = parseHostMessage({ type: 'state', state: bad });
      assert.equal(message, undefined);
      assert.match(reason ?? '', /state\.session\.status/);
    });

    it('drops an approval with an unknown danger level, preview kind or a negative expiry', () => {
      const base = approvalState(Date.now() + 1000);
      const variants = [
        { ...base.approvals[0]!, dangerLevel: 'EXTREME' },
        { ...base.approvals[0]!, preview: { kind: 'html', html: '<script>' } },
        { ...base.approvals[0]!, expiresAt: -1 },
        { ...base.approvals[0]!, requestId: '' },
      ];
      for (const approval of variants) {
        const { message } = parseHostMessage({ type: 'state', state: { ...base, approvals: [approval] } });
        assert.equal(message, undefined, JSON.stringify(approval).slice(0, 80));
      }
    });

    it('drops a state with fractional or negative counts and a confidence above 1', () => {
      const state = finishedState();
      const badTotals = { ...state, session: { ...state.session!, totals: { ...state.session!.totals, tokens: 1.5 } } };
      const badConfidence = { ...state, answers: [{ ...state.answers[0]!, confidence: 1.2 }] };
      const badCycle = { ...state, cycles: [{ ...state.cycles[0]!, n: 0 }] };
      for (const bad of [badTotals, badConfidence, badCycle])
        assert.equal(parseHostMessage(stateMessage(bad as never)).message, undefined);
    });

    it('never echoes the offending value in the reason (safe to log)', () => {
      const state = finishedState();
      const secret = 'sk-live-should-not-appear-in-logs';
      const { reason } = parseHostMessage({
        type: 'state',
        state: { ...state, session: { ...state.session, model: { secret } } },
      });
      assert.ok(reason);
      assert.ok(!reason.includes(secret), reason);
    });

    it('summarises many issues without listing them all', () => {
      const { reason } = parseHostMessage({ type: 'state', state: {} });
      assert.match(reason ?? '', /\(\+\d+ more\)/);
    });
  });

  describe('parsePanelMessage', () => {
    it('accepts every message the builders make', () => {
      const built = [
        readyMessage(),
        approvalResponseMessage('req-1', 'approve'),
        approvalResponseMessage('req-1', 'deny'),
        approvalResponseMessage('req-1', 'always'),
        ...PANEL_COMMANDS.map((name) => commandMessage(name)),
        logMessage('warn', 'hello'),
      ];
      for (const value of built) assert.deepEqual(parsePanelMessage(value).message, value);
    });

    it('accepts a message that crossed postMessage as plain JSON', () => {
      const { message } = parsePanelMessage(JSON.parse('{"type":"approvalResponse","requestId":"r-9","decision":"always"}'));
      assert.deepEqual(message, { type: PANEL_MESSAGE.approvalResponse, requestId: 'r-9', decision: 'always' });
    });

    it('drops approval responses without a request id, with a bad decision, or with extra fields', () => {
      for (const value of [
        { type: 'approvalResponse', decision: 'approve' },
        { type: 'approvalResponse', requestId: '', decision: 'approve' },
        { type: 'approvalResponse', requestId: 'x'.repeat(201), decision: 'approve' },
        { type: 'approvalResponse', requestId: 'r', decision: 'yes' },
        { type: 'approvalResponse', requestId: 'r', decision: 'approve', policy: 'allow-all' },
      ]) {
        const { message, reason } = parsePanelMessage(value);
        assert.equal(message, undefined, JSON.stringify(value));
        assert.match(reason ?? '', /invalid panel→host message \(type approvalResponse\)/);
      }
    });

    it('drops unknown commands and unknown types', () => {
      assert.equal(parsePanelMessage({ type: 'command', name: 'runShell' }).message, undefined);
      assert.equal(parsePanelMessage({ type: 'state', state: finishedState() }).message, undefined);
      assert.equal(parsePanelMessage({}).message, undefined);
    });

    it('bounds log lines: the builder truncates, the parser rejects longer ones', () => {
      const long = 'x'.repeat(LOG_MESSAGE_LIMIT + 10);
      assert.equal(logMessage('info', long).message.length, LOG_MESSAGE_LIMIT);
      assert.ok(parsePanelMessage(logMessage('info', long)).message);
      assert.equal(parsePanelMessage({ type: 'log', level: 'info', message: long }).message, undefined);
      assert.equal(parsePanelMessage({ type: 'log', level: 'fatal', message: 'x' }).message, undefined);
    });
  });

  describe('snapshots', () => {
    it('parsePanelState validates a persisted state on its own', () => {
      assert.deepEqual(parsePanelState(failedState()), failedState());
      assert.equal(parsePanelState({ revision: 1 }), undefined);
    });

    it('isNewerSnapshot: newer or equal revision within an instance, anything from a new instance', () => {
      const current = finishedState(10);
      assert.equal(isNewerSnapshot(undefined, current), true);
      assert.equal(isNewerSnapshot(current, finishedState(11)), true);
      assert.equal(isNewerSnapshot(current, finishedState(10)), true);
      assert.equal(isNewerSnapshot(current, finishedState(9)), false);
      assert.equal(isNewerSnapshot(current, { ...finishedState(1), instanceId: 'host-2' }), true);
    });
  });

  describe('previews match the control protocol', () => {
    it('an approval card’s previews are those of the control protocol', () => {
      assert.equal(previewsMatch, true);
      const previews = [
        { kind: 'diff', path: 'a.js', diff: '+x' },
        { kind: 'command', commandLine: 'npm test' },
        { kind: 'request', method: 'GET', url: 'https://example.com', hasBody: false },
        { kind: 'text', text: 'MCP tool echo' },
      ];
      for (const preview of previews) {
        assert.ok(toolCallPreviewSchema.safeParse(preview).success);
        assert.deepEqual(ApprovalPreviewSchema.safeParse(preview).data, preview);
      }
      assert.equal(ApprovalPreviewSchema.safeParse({ kind: 'html', html: '<b>' }).success, false);
    });
  });

  it('the shared modules import nothing but zod/mini, each other and the core’s vocabulary, which imports nothing (they are bundled for the browser)', () => {
    for (const file of ['panelProtocol.ts', 'panelHtml.ts']) {
      const source = readFileSync(path.join(__dirname, '../../../src/shared', file), 'utf8');
      const imports = [...source.matchAll(/from\s+'([^']+)'/g)].map((match) => match[1]);
      for (const specifier of imports)
        assert.ok(
          specifier === 'zod/mini' || specifier === '../core/vocabulary' || specifier?.startsWith('./'),
          `${file} imports ${specifier}`,
        );
    }
    const vocabulary = readFileSync(path.join(__dirname, '../../../src/core/vocabulary/index.ts'), 'utf8');
    assert.deepEqual(vocabulary.match(/^\s*(import|export\s.*\sfrom)\b.*$/gm), null);
  });
});

describe('panel protocol: follow-up questions (issue 11)', () => {
  it('a follow-up is one strict message with the answer id and a trimmed, bounded, non-blank question', async () => {
    const { FOLLOW_UP_LIMIT, followUpMessage, parsePanelMessage } = await import('../../../src/shared/panelProtocol');
    assert.deepEqual(parsePanelMessage(followUpMessage('qa-1', '  And for 45?  ')).message, {
      type: 'followUp',
      answerId: 'qa-1',
      question: 'And for 45?',
    });
    for (const bad of [
      { type: 'followUp', answerId: 'qa-1', question: '   ' },
      { type: 'followUp', answerId: '', question: 'why?' },
      { type: 'followUp', answerId: 'qa-1', question: 'x'.repeat(FOLLOW_UP_LIMIT + 1) },
      { type: 'followUp', answerId: 'qa-1', question: 'why?', context: 'injected' },
    ]) {
      assert.equal(parsePanelMessage(bad).message, undefined, JSON.stringify(bad).slice(0, 80));
    }
  });
});
