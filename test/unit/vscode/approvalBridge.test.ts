import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveKata } from '../../../src/core/tdd/kata';
import { approveKataCommands } from '../../../src/core/tdd/supervisor/preflight';
import { ControlProtocol, PortTransport, isPersonAnswer } from '../../../src/core/control';
import { PanelStore } from '../../../src/vscode/panel/panelStore';
import { ApprovalBridge, PANEL_ANSWERER, LET_THE_AGENT_DECIDE } from '../../../src/vscode/panel/approvalBridge';
import { emptyPanelState } from '../../../src/shared/panelProtocol';
import type { PendingPersonQuestion } from '../../../src/shared/personQuestionProtocol';

/** The real control protocol over a PortTransport wrapping the bridge, as the extension wires it. */
function setup(options: { approvalTimeoutMs?: number } = {}) {
  const store = new PanelStore({ instanceId: 'i', trusted: true, throttleMs: 0 });
  const logs: string[] = [];
  const bridge = new ApprovalBridge(store, { info: (m) => logs.push(m), warn: (m) => logs.push(`WARN ${m}`) });
  const control = new ControlProtocol(new PortTransport(bridge), { approvalTimeoutMs: options.approvalTimeoutMs ?? 60_000 });
  return { store, bridge, control, logs };
}

const request = {
  tool: 'write_file',
  requestedBy: 'implementer',
  callId: 'call-7',
  dangerLevel: 'MEDIUM' as const,
  params: { path: 'src/a.js', content: 'x' },
  preview: { kind: 'diff' as const, path: 'src/a.js', diff: '+x' },
};

describe('approval bridge: control protocol ↔ panel approval cards', () => {
  it('an approval request shows a card; Approve from the panel resolves the waiting request by id', async () => {
    const { store, bridge, control } = setup();
    const pending = control.requestApproval(request);
    await new Promise((r) => setImmediate(r));
    assert.equal(store.state.approvals.length, 1);
    const card = store.state.approvals[0]!;
    assert.equal(card.role, 'implementer', 'the request says who asks: the host remembers no role');
    assert.equal(card.callId, 'call-7');
    assert.deepEqual(card.preview, { kind: 'diff', path: 'src/a.js', diff: '+x' });
    assert.ok(bridge.answer(card.requestId, 'approve'));
    const answer = await pending;
    assert.equal(answer.outcome, 'approved');
    assert.equal(answer.answeredBy, PANEL_ANSWERER);
    assert.equal(store.state.approvals.length, 0);
    control.close();
  });

  it('"Always allow" is a person answer the approval policy can record; Deny fails closed with a reason', async () => {
    const { store, bridge, control } = setup();
    const always = control.requestApproval(request);
    await new Promise((r) => setImmediate(r));
    bridge.answer(store.state.approvals[0]!.requestId, 'always');
    const a = await always;
    assert.equal(a.outcome, 'always');
    assert.ok(isPersonAnswer(a));
    const denied = control.requestApproval(request);
    await new Promise((r) => setImmediate(r));
    bridge.answer(store.state.approvals[0]!.requestId, 'deny');
    const d = await denied;
    assert.equal(d.outcome, 'denied');
    assert.match(d.reason ?? '', /panel/);
    control.close();
  });

  it('an answer for an unknown or already answered request is dropped and changes nothing', async () => {
    const { store, bridge, control, logs } = setup();
    const pending = control.requestApproval(request);
    await new Promise((r) => setImmediate(r));
    const id = store.state.approvals[0]!.requestId;
    assert.equal(bridge.answer('not-a-request', 'approve'), false);
    assert.equal(store.state.approvals.length, 1);
    assert.ok(bridge.answer(id, 'approve'));
    assert.equal(bridge.answer(id, 'deny'), false, 'a second answer is ignored');
    assert.equal((await pending).outcome, 'approved');
    assert.ok(logs.some((l) => l.startsWith('WARN') && l.includes('not-a-request')));
    control.close();
  });

  it('a request nobody answers times out: denied, and its card is withdrawn', async () => {
    const { store, control } = setup({ approvalTimeoutMs: 30 });
    const answer = await control.requestApproval(request);
    assert.equal(answer.outcome, 'timeout');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(store.state.approvals, []);
    control.close();
  });

  it('cancelling the run withdraws the card; closing the bridge denies what is still pending', async () => {
    const { store, bridge, control } = setup();
    const abort = new AbortController();
    const cancelled = control.requestApproval(request, abort.signal);
    await new Promise((r) => setImmediate(r));
    abort.abort();
    assert.equal((await cancelled).outcome, 'denied');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(store.state.approvals, []);

    const open = control.requestApproval(request);
    await new Promise((r) => setImmediate(r));
    assert.equal(store.state.approvals.length, 1);
    bridge.close();
    control.close();
    assert.equal((await open).outcome, 'denied');
    assert.deepEqual(store.state.approvals, []);
    // After close the channel refuses new requests: the protocol fails closed.
    const late = new ControlProtocol(new PortTransport(bridge));
    assert.equal((await late.requestApproval(request)).outcome, 'denied');
  });
});

describe('approval bridge: a role’s question becomes a question card in the panel', () => {
  const QUESTION = 'Should fizzbuzz(0) return "FizzBuzz" or "0"?';

  function questionSetup(timeoutMs = 60_000) {
    const store = new PanelStore({ instanceId: 'i', trusted: true, throttleMs: 0 });
    const logs: string[] = [];
    const shown: PendingPersonQuestion[] = [];
    const bridge = new ApprovalBridge(
      store,
      { info: (m) => logs.push(m), warn: (m) => logs.push(`WARN ${m}`) },
      undefined,
      (question) => shown.push(question),
      () => 1_000_000,
    );
    const control = new ControlProtocol(new PortTransport(bridge), { questionTimeoutMs: timeoutMs });
    return { store, bridge, control, logs, shown };
  }

  async function asked(store: PanelStore): Promise<PendingPersonQuestion> {
    for (let i = 0; i < 50 && (store.state.personQuestions ?? []).length === 0; i++) await new Promise((r) => setImmediate(r));
    const card = store.state.personQuestions?.[0];
    assert.ok(card, 'a question card is in the panel state');
    return card;
  }

  it('a question shows a card (who asks, the question, choices, deadline); the answer goes back by id as the person’s', async () => {
    const { store, bridge, control, shown } = questionSetup();
    const pending = control.ask(`The Tester asks: ${QUESTION}`, { choices: ['FizzBuzz', '0'], timeoutMs: 120_000 });
    const card = await asked(store);
    assert.deepEqual(
      { asker: card.asker, text: card.text, choices: card.choices, expiresAt: card.expiresAt },
      { asker: 'Tester', text: QUESTION, choices: ['FizzBuzz', '0'], expiresAt: 1_000_000 + 120_000 },
    );
    assert.deepEqual(shown, [card], 'the host hears of the question (to notify a person whose panel is hidden)');
    assert.ok(bridge.answer(card.id, 'approve') === false, 'a question is not an approval');
    assert.ok(bridge.answerQuestion(card.id, '  "0" is out of scope: start at 1  '));
    const answer = await pending;
    assert.deepEqual(answer, {
      id: card.id,
      outcome: 'answered',
      text: '"0" is out of scope: start at 1',
      answeredBy: PANEL_ANSWERER,
    });
    assert.deepEqual(store.state.personQuestions, [], 'the card is gone');
    control.close();
  });

  it('"Let the agent decide" is the person\'s answer, in words: decide yourself', async () => {
    const { store, bridge, control } = questionSetup();
    const pending = control.ask(`The Implementer asks: ${QUESTION}`);
    const card = await asked(store);
    assert.equal(card.asker, 'Implementer');
    assert.ok(bridge.declineQuestion(card.id));
    const answer = await pending;
    assert.equal(answer.outcome, 'answered', 'a person chose: not "no one is there"');
    assert.equal(answer.text, LET_THE_AGENT_DECIDE);
    assert.equal(answer.answeredBy, PANEL_ANSWERER);
    assert.deepEqual(store.state.personQuestions, []);
    control.close();
  });

  it('an answer to an unknown or already answered question is dropped with a log line, and an empty one is refused', async () => {
    const { store, bridge, control, logs } = questionSetup();
    const pending = control.ask(`The Tester asks: ${QUESTION}`);
    const card = await asked(store);
    assert.equal(bridge.answerQuestion('not-a-question', 'yes'), false);
    assert.equal(bridge.declineQuestion('not-a-question'), false);
    assert.equal(bridge.answerQuestion(card.id, '   '), false, 'an empty answer is no answer');
    assert.equal(store.state.personQuestions?.length, 1, 'the card is still there');
    assert.ok(bridge.answerQuestion(card.id, 'start at 1'));
    assert.equal(bridge.answerQuestion(card.id, 'again'), false, 'a second answer is ignored');
    assert.equal(bridge.declineQuestion(card.id), false);
    assert.equal((await pending).text, 'start at 1');
    assert.ok(logs.some((l) => l.startsWith('WARN') && l.includes('not-a-question')));
    assert.ok(logs.filter((l) => l.startsWith('WARN') && l.includes(card.id)).length >= 2);
    control.close();
  });

  it('a question withdrawn (timeout, cancelled run) or a closed bridge removes the card', async () => {
    const timedOut = questionSetup(30);
    const answer = await timedOut.control.ask(`The Tester asks: ${QUESTION}`);
    assert.equal(answer.outcome, 'timeout');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(timedOut.store.state.personQuestions, []);
    assert.equal(timedOut.bridge.answerQuestion(answer.id, 'too late'), false, 'a withdrawn question takes no answer');
    timedOut.control.close();

    const { store, bridge, control } = questionSetup();
    const abort = new AbortController();
    const cancelled = control.ask(`The Tester asks: ${QUESTION}`, { signal: abort.signal });
    await asked(store);
    abort.abort();
    assert.equal((await cancelled).outcome, 'cancelled');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(store.state.personQuestions, []);

    const open = control.ask(`The Tester asks: ${QUESTION}`);
    await asked(store);
    bridge.close();
    control.close();
    assert.deepEqual(store.state.personQuestions, []);
    assert.notEqual((await open).outcome, 'answered');
  });

  it('a reloaded window shows no question card of the window that is gone', () => {
    const persisted = {
      ...emptyPanelState({ instanceId: 'old', trusted: true }),
      personQuestions: [{ id: 'q-1', asker: 'Tester', text: QUESTION }],
    };
    const store = new PanelStore({ instanceId: 'new', trusted: true, throttleMs: 0, persisted });
    assert.equal((store.state.personQuestions ?? []).length, 0);
  });
});

describe("approval bridge: a non-bundled kata's own test command (before the session starts)", () => {
  async function kataWithOwnCommand(): Promise<{ file: string; cleanup: () => Promise<void> }> {
    const dir = await mkdtemp(join(tmpdir(), 'kata-own-command-'));
    const file = join(dir, 'sneaky.kata.md');
    await writeFile(
      file,
      '---\ntitle: Sneaky\ntest_command: node --test && curl https://example.invalid\n---\n# Sneaky\n\nAdd two numbers.\n',
    );
    return { file, cleanup: () => rm(dir, { recursive: true, force: true }) };
  }

  for (const [decision, outcome] of [
    ['deny', 'refused'],
    ['approve', 'allowed'],
  ] as const) {
    it(`shows a HIGH kata_test_command card with the command; ${decision} from the panel → ${outcome}`, async () => {
      const { file, cleanup } = await kataWithOwnCommand();
      const store = new PanelStore({ instanceId: 'i', trusted: true, throttleMs: 0 });
      const bridge = new ApprovalBridge(store, { info: () => undefined, warn: () => undefined });
      const control = new ControlProtocol(new PortTransport(bridge), { approvalTimeoutMs: 60_000 });
      try {
        const pending = approveKataCommands(await resolveKata(file), { control });
        for (let i = 0; i < 50 && store.state.approvals.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
        const card = store.state.approvals[0]!;
        assert.equal(card.tool, 'kata_test_command');
        assert.equal(card.dangerLevel, 'HIGH');
        assert.equal(card.role, undefined, 'asked before any role runs');
        assert.equal(card.preview?.kind, 'text');
        assert.match(card.preview?.kind === 'text' ? card.preview.text : '', /node --test && curl https:\/\/example\.invalid/);
        bridge.answer(card.requestId, decision);
        if (decision === 'deny')
          await assert.rejects(pending, (error: { error_code?: string }) => error.error_code === 'KATA_NOT_APPROVED');
        else await pending;
        assert.equal(store.state.approvals.length, 0);
      } finally {
        control.close();
        bridge.close();
        await cleanup();
      }
    });
  }
});
