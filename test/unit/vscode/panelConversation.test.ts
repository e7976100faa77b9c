import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveKata } from '../../../src/core/tdd/kata';
import { approveKataCommands } from '../../../src/core/tdd/supervisor/preflight';
import { ControlProtocol, PortTransport, isPersonAnswer } from '../../../src/core/control';
import { PanelStore } from '../../../src/vscode/panel/panelStore';
import { PanelConversation, PANEL_ANSWERER, LET_THE_AGENT_DECIDE } from '../../../src/vscode/panel/panelConversation';
import { emptyPanelState } from '../../../src/shared/panelProtocol';
import type { PendingPersonQuestion } from '../../../src/shared/personQuestionProtocol';

/** The real control protocol over a PortTransport wrapping the conversation's channel, as the extension wires it. */
function setup(options: { approvalTimeoutMs?: number } = {}) {
  const store = new PanelStore({ instanceId: 'i', trusted: true, throttleMs: 0 });
  const logs: string[] = [];
  const conversation = new PanelConversation(store, { info: (m) => logs.push(m), warn: (m) => logs.push(`WARN ${m}`) });
  const channel = conversation.open();
  const control = new ControlProtocol(new PortTransport(channel), { approvalTimeoutMs: options.approvalTimeoutMs ?? 60_000 });
  return { store, conversation, channel, control, logs };
}

const request = {
  tool: 'write_file',
  requestedBy: 'implementer',
  callId: 'call-7',
  dangerLevel: 'MEDIUM' as const,
  params: { path: 'src/a.js', content: 'x' },
  preview: { kind: 'diff' as const, path: 'src/a.js', diff: '+x' },
};

describe('panel conversation: control protocol ↔ panel approval cards', () => {
  it('an approval request shows a card; Approve from the panel resolves the waiting request by id', async () => {
    const { store, conversation, control } = setup();
    const pending = control.requestApproval(request);
    await new Promise((r) => setImmediate(r));
    assert.equal(store.state.approvals.length, 1);
    const card = store.state.approvals[0]!;
    assert.equal(card.role, 'implementer', 'the request says who asks: the host remembers no role');
    assert.equal(card.callId, 'call-7');
    assert.deepEqual(card.preview, { kind: 'diff', path: 'src/a.js', diff: '+x' });
    assert.ok(conversation.answerApproval(card.requestId, 'approve'));
    const answer = await pending;
    assert.equal(answer.outcome, 'approved');
    assert.equal(answer.answeredBy, PANEL_ANSWERER);
    assert.equal(store.state.approvals.length, 0);
    control.close();
  });

  it('"Always allow" is a person answer the approval policy can record; Deny fails closed with a reason', async () => {
    const { store, conversation, control } = setup();
    const always = control.requestApproval(request);
    await new Promise((r) => setImmediate(r));
    conversation.answerApproval(store.state.approvals[0]!.requestId, 'always');
    const a = await always;
    assert.equal(a.outcome, 'always');
    assert.ok(isPersonAnswer(a));
    const denied = control.requestApproval(request);
    await new Promise((r) => setImmediate(r));
    conversation.answerApproval(store.state.approvals[0]!.requestId, 'deny');
    const d = await denied;
    assert.equal(d.outcome, 'denied');
    assert.match(d.reason ?? '', /panel/);
    control.close();
  });

  it('an answer for an unknown or already answered request is dropped and changes nothing', async () => {
    const { store, conversation, control, logs } = setup();
    const pending = control.requestApproval(request);
    await new Promise((r) => setImmediate(r));
    const id = store.state.approvals[0]!.requestId;
    assert.equal(conversation.answerApproval('not-a-request', 'approve'), false);
    assert.equal(store.state.approvals.length, 1);
    assert.ok(conversation.answerApproval(id, 'approve'));
    assert.equal(conversation.answerApproval(id, 'deny'), false, 'a second answer is ignored');
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

  it('cancelling the run withdraws the card; closing the conversation denies what is still pending', async () => {
    const { store, conversation, channel, control } = setup();
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
    conversation.close();
    control.close();
    assert.equal((await open).outcome, 'denied');
    assert.deepEqual(store.state.approvals, []);
    // After close the channel refuses new requests: the protocol fails closed.
    const late = new ControlProtocol(new PortTransport(channel));
    assert.equal((await late.requestApproval(request)).outcome, 'denied');
  });

  it('with no session, an answer goes nowhere and the card it was given on is closed (nothing can take it)', () => {
    const store = new PanelStore({ instanceId: 'i', trusted: true, throttleMs: 0 });
    const logs: string[] = [];
    const conversation = new PanelConversation(store, { info: () => undefined, warn: (m) => logs.push(m) });
    const expiresAt = new Date().toISOString();
    store.dispatch({
      type: 'approvalRequested',
      request: { type: 'approval_request', id: 'r-old', timeoutMs: 1000, expiresAt, ...request },
    });
    store.dispatch({ type: 'personQuestionAsked', question: { id: 'q-old', text: 'Which one?' } });
    assert.equal(conversation.answerApproval('r-old', 'approve'), false);
    assert.equal(conversation.answerQuestion('q-old', { text: 'this one' }), false);
    assert.deepEqual(store.state.approvals, []);
    assert.deepEqual(store.state.personQuestions, []);
    assert.equal(logs.length, 2, 'each dropped answer is logged');
  });

  it("a new session's conversation ends the one before: the old channel takes nothing, its cards are gone", async () => {
    const { store, conversation, channel, control } = setup();
    const old = control.requestApproval(request);
    await new Promise((r) => setImmediate(r));
    const oldId = store.state.approvals[0]!.requestId;
    const next = new ControlProtocol(new PortTransport(conversation.open()), { approvalTimeoutMs: 60_000 });
    assert.equal(store.state.approvals.length, 0, "the ended session's card is closed");
    const late = {
      type: 'approval_request' as const,
      id: 'late',
      timeoutMs: 1000,
      expiresAt: new Date().toISOString(),
      ...request,
    };
    assert.equal(channel.send(late), false);
    const pending = next.requestApproval(request);
    await new Promise((r) => setImmediate(r));
    assert.equal(conversation.answerApproval(oldId, 'approve'), false, "the old session's id is not the new one's");
    assert.ok(conversation.answerApproval(store.state.approvals[0]!.requestId, 'approve'));
    assert.equal((await pending).outcome, 'approved');
    control.close();
    assert.equal((await old).outcome, 'denied');
    next.close();
  });
});

describe('panel conversation: a role’s question becomes a question card in the panel', () => {
  const QUESTION = 'Should fizzbuzz(0) return "FizzBuzz" or "0"?';

  function questionSetup(timeoutMs = 60_000) {
    const store = new PanelStore({ instanceId: 'i', trusted: true, throttleMs: 0 });
    const logs: string[] = [];
    const shown: PendingPersonQuestion[] = [];
    const conversation = new PanelConversation(
      store,
      { info: (m) => logs.push(m), warn: (m) => logs.push(`WARN ${m}`) },
      () => 1_000_000,
    );
    const channel = conversation.open({ questionAsked: (question) => shown.push(question) });
    const control = new ControlProtocol(new PortTransport(channel), { questionTimeoutMs: timeoutMs });
    return { store, conversation, control, logs, shown };
  }

  async function asked(store: PanelStore): Promise<PendingPersonQuestion> {
    for (let i = 0; i < 50 && (store.state.personQuestions ?? []).length === 0; i++) await new Promise((r) => setImmediate(r));
    const card = store.state.personQuestions?.[0];
    assert.ok(card, 'a question card is in the panel state');
    return card;
  }

  it('a question shows a card (who asks, the question, choices, deadline); the answer goes back by id as the person’s', async () => {
    const { store, conversation, control, shown } = questionSetup();
    const pending = control.ask(`The Tester asks: ${QUESTION}`, { choices: ['FizzBuzz', '0'], timeoutMs: 120_000 });
    const card = await asked(store);
    assert.deepEqual(
      { asker: card.asker, text: card.text, choices: card.choices, expiresAt: card.expiresAt },
      { asker: 'Tester', text: QUESTION, choices: ['FizzBuzz', '0'], expiresAt: 1_000_000 + 120_000 },
    );
    assert.deepEqual(shown, [card], 'the host hears of the question (to notify a person whose panel is hidden)');
    assert.ok(conversation.answerApproval(card.id, 'approve') === false, 'a question is not an approval');
    assert.ok(conversation.answerQuestion(card.id, { text: '  "0" is out of scope: start at 1  ' }));
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
    const { store, conversation, control } = questionSetup();
    const pending = control.ask(`The Implementer asks: ${QUESTION}`);
    const card = await asked(store);
    assert.equal(card.asker, 'Implementer');
    assert.ok(conversation.answerQuestion(card.id, { declined: true }));
    const answer = await pending;
    assert.equal(answer.outcome, 'answered', 'a person chose: not "no one is there"');
    assert.equal(answer.text, LET_THE_AGENT_DECIDE);
    assert.equal(answer.answeredBy, PANEL_ANSWERER);
    assert.deepEqual(store.state.personQuestions, []);
    control.close();
  });

  it('an answer to an unknown or already answered question is dropped with a log line, and an empty one is refused', async () => {
    const { store, conversation, control, logs } = questionSetup();
    const pending = control.ask(`The Tester asks: ${QUESTION}`);
    const card = await asked(store);
    assert.equal(conversation.answerQuestion('not-a-question', { text: 'yes' }), false);
    assert.equal(conversation.answerQuestion('not-a-question', { declined: true }), false);
    assert.equal(conversation.answerQuestion(card.id, { text: '   ' }), false, 'an empty answer is no answer');
    assert.equal(store.state.personQuestions?.length, 1, 'the card is still there');
    assert.ok(conversation.answerQuestion(card.id, { text: 'start at 1' }));
    assert.equal(conversation.answerQuestion(card.id, { text: 'again' }), false, 'a second answer is ignored');
    assert.equal(conversation.answerQuestion(card.id, { declined: true }), false);
    assert.equal((await pending).text, 'start at 1');
    assert.ok(logs.some((l) => l.startsWith('WARN') && l.includes('not-a-question')));
    assert.ok(logs.filter((l) => l.startsWith('WARN') && l.includes(card.id)).length >= 2);
    control.close();
  });

  it('a question withdrawn (timeout, cancelled run) or a closed conversation removes the card', async () => {
    const timedOut = questionSetup(30);
    const answer = await timedOut.control.ask(`The Tester asks: ${QUESTION}`);
    assert.equal(answer.outcome, 'timeout');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(timedOut.store.state.personQuestions, []);
    assert.equal(
      timedOut.conversation.answerQuestion(answer.id, { text: 'too late' }),
      false,
      'a withdrawn question takes no answer',
    );
    timedOut.control.close();

    const { store, conversation, control } = questionSetup();
    const abort = new AbortController();
    const cancelled = control.ask(`The Tester asks: ${QUESTION}`, { signal: abort.signal });
    await asked(store);
    abort.abort();
    assert.equal((await cancelled).outcome, 'cancelled');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(store.state.personQuestions, []);

    const open = control.ask(`The Tester asks: ${QUESTION}`);
    await asked(store);
    conversation.close();
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

describe("panel conversation: a non-bundled kata's own test command (before the session starts)", () => {
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
      const conversation = new PanelConversation(store, { info: () => undefined, warn: () => undefined });
      const control = new ControlProtocol(new PortTransport(conversation.open()), { approvalTimeoutMs: 60_000 });
      try {
        const pending = approveKataCommands(await resolveKata(file), { control });
        for (let i = 0; i < 50 && store.state.approvals.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
        const card = store.state.approvals[0]!;
        assert.equal(card.tool, 'kata_test_command');
        assert.equal(card.dangerLevel, 'HIGH');
        assert.equal(card.role, undefined, 'asked before any role runs');
        assert.equal(card.preview?.kind, 'text');
        assert.match(card.preview?.kind === 'text' ? card.preview.text : '', /node --test && curl https:\/\/example\.invalid/);
        conversation.answerApproval(card.requestId, decision);
        if (decision === 'deny')
          await assert.rejects(pending, (error: { error_code?: string }) => error.error_code === 'KATA_NOT_APPROVED');
        else await pending;
        assert.equal(store.state.approvals.length, 0);
      } finally {
        control.close();
        conversation.close();
        await cleanup();
      }
    });
  }
});
