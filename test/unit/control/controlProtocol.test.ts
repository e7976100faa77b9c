import { strict as assert } from 'node:assert';
import { ControlProtocol, isPersonAnswer } from '../../../src/core/control/controlProtocol';
import { InMemoryTransport } from '../../../src/core/control/inMemoryTransport';
import {
  agentToPersonMessageSchema,
  controlMessageSchema,
  CONTROL_MESSAGE_TYPES,
  personToAgentMessageSchema,
} from '../../../src/core/control/messages';
import { PortTransport } from '../../../src/core/control/portTransport';
import { setLogSink, setLogLevel, type LogRecord } from '../../../src/core/logging/logger';

function captureLogs(): { records: LogRecord[]; restore(): void } {
  const records: LogRecord[] = [];
  const previousSink = setLogSink((r) => records.push(r));
  const previousLevel = setLogLevel('debug');
  return {
    records,
    restore() {
      setLogSink(previousSink);
      setLogLevel(previousLevel);
    },
  };
}

describe('ControlProtocol', () => {
  let logs: ReturnType<typeof captureLogs>;
  beforeEach(() => (logs = captureLogs()));
  afterEach(() => logs.restore());

  it('sends a typed approval request (redacted params, expiry) and resolves with the answer correlated by id', async () => {
    const transport = new InMemoryTransport();
    const control = new ControlProtocol(transport);
    const pending = control.requestApproval({
      tool: 'write_file',
      dangerLevel: 'MEDIUM',
      params: { path: 'a.txt', content: 'api_key=sk-abcdefghijklmnop123' },
      preview: '+ token: ghp_abcdefghijklmnopqrstuvwxyz0123',
      reason: 'writes need approval',
      timeoutMs: 60_000,
    });
    const request = await transport.nextMessage('approval_request');
    assert.ok(agentToPersonMessageSchema.safeParse(request).success);
    assert.match(request.id, /^[0-9a-f-]{36}$/);
    assert.equal(request.timeoutMs, 60_000);
    assert.ok(Date.parse(request.expiresAt) > Date.now());
    assert.doesNotMatch(JSON.stringify(request), /sk-abcdefghijklmnop123|ghp_abcdef/);
    transport.approve('some-other-id');
    transport.approve(request.id, 'panel');
    const answer = await pending;
    assert.deepEqual({ ...answer }, { id: request.id, outcome: 'approved', answeredBy: 'panel' });
    assert.equal(isPersonAnswer(answer), true);
    assert.equal(control.pendingCount, 0);
  });

  it('maps deny (with the reason) and always', async () => {
    const transport = new InMemoryTransport({
      responder: (m, t) => {
        if (m.type !== 'approval_request') return;
        if (m.tool === 'a') t.deny(m.id, 'not now', 'panel');
        else t.always(m.id, 'terminal');
      },
    });
    const control = new ControlProtocol(transport);
    const denied = await control.requestApproval({ tool: 'a', dangerLevel: 'HIGH', params: {} });
    assert.equal(denied.outcome, 'denied');
    assert.equal(denied.reason, 'denied by panel: not now');
    const always = await control.requestApproval({ tool: 'b', dangerLevel: 'HIGH', params: {} });
    assert.deepEqual([always.outcome, always.answeredBy], ['always', 'terminal']);
  });

  it('denies with outcome timeout when nobody answers in time, and withdraws the request', async () => {
    const transport = new InMemoryTransport();
    const control = new ControlProtocol(transport, { approvalTimeoutMs: 50 });
    const answer = await control.requestApproval({ tool: 'run_command', dangerLevel: 'HIGH', params: { command: 'ls' } });
    assert.equal(answer.outcome, 'timeout');
    assert.equal(answer.answeredBy, undefined);
    assert.equal(answer.reason, 'nobody answered the approval request within 50 ms');
    assert.equal(isPersonAnswer(answer), false);
    await new Promise((r) => setImmediate(r));
    const cancel = transport.sent.find((m) => m.type === 'cancel');
    assert.deepEqual(cancel, { type: 'cancel', id: answer.id, reason: 'timeout' });
    // A late answer changes nothing.
    transport.approve(answer.id);
    assert.equal(control.pendingCount, 0);
  });

  it('denies when the AbortSignal fires (before or while waiting)', async () => {
    const transport = new InMemoryTransport();
    const control = new ControlProtocol(transport);
    const aborted = AbortSignal.abort();
    const early = await control.requestApproval({ tool: 't', dangerLevel: 'HIGH', params: {} }, aborted);
    assert.deepEqual([early.outcome, early.reason], ['denied', 'the run was cancelled before anyone answered']);
    assert.equal(transport.sent.length, 0);

    const controller = new AbortController();
    const pending = control.requestApproval({ tool: 't', dangerLevel: 'HIGH', params: {} }, controller.signal);
    await transport.nextMessage('approval_request');
    controller.abort();
    const late = await pending;
    assert.equal(late.outcome, 'denied');
    assert.match(late.reason!, /cancelled/);
  });

  it('denies when the transport cannot deliver, and when closed', async () => {
    const transport = new InMemoryTransport();
    transport.offline = true;
    const control = new ControlProtocol(transport);
    const unreachable = await control.requestApproval({ tool: 't', dangerLevel: 'HIGH', params: {} });
    assert.equal(unreachable.outcome, 'denied');
    assert.match(unreachable.reason!, /approval channel is unavailable \(the in-memory peer is offline\)/);

    transport.offline = false;
    const pending = control.requestApproval({ tool: 't', dangerLevel: 'HIGH', params: {} });
    await transport.nextMessage('approval_request');
    control.close();
    assert.equal((await pending).outcome, 'denied');
    const after = await control.requestApproval({ tool: 't', dangerLevel: 'HIGH', params: {} });
    assert.match(after.reason!, /closed/);
    control.close();
  });

  it('drops and logs invalid or unexpected messages, never acting on them', async () => {
    const transport = new InMemoryTransport();
    const control = new ControlProtocol(transport, { approvalTimeoutMs: 80 });
    const pending = control.requestApproval({ tool: 't', dangerLevel: 'HIGH', params: {} });
    const request = await transport.nextMessage('approval_request');
    transport.reply({ type: 'approval_response', id: request.id, decision: 'yes-please', answeredBy: 'x' });
    transport.reply({ type: 'approval_response', id: request.id, decision: 'approve' }); // no answeredBy
    transport.reply('approve');
    transport.reply(null);
    transport.reply({ type: 'answer', id: request.id, text: 'approve' }); // an answer is not an approval
    assert.equal((await pending).outcome, 'timeout');
    const dropped = logs.records.filter((r) => /dropped an invalid control message/.test(r.message));
    assert.equal(dropped.length, 4);
    assert.ok(logs.records.some((r) => /no matching request/.test(r.message)));
  });

  it('asks questions (answered, declined, timeout, cancelled) and relays user input and progress', async () => {
    const transport = new InMemoryTransport({
      responder: (m, t) => {
        if (m.type !== 'question') return;
        if (m.text === 'Which kata?') t.answer(m.id, m.choices![1]!, 'panel');
        if (m.text === 'decline') t.reply({ type: 'answer', id: m.id, text: '', declined: true });
      },
    });
    const control = new ControlProtocol(transport, { questionTimeoutMs: 40 });
    const answer = await control.ask('Which kata?', { choices: ['fizzbuzz', 'bowling'] });
    assert.deepEqual({ ...answer, id: undefined }, { id: undefined, outcome: 'answered', text: 'bowling', answeredBy: 'panel' });
    assert.equal((await control.ask('decline')).outcome, 'declined');
    assert.equal((await control.ask('nobody home?')).outcome, 'timeout');
    assert.equal((await control.ask('x', { signal: AbortSignal.abort() })).outcome, 'cancelled');

    const inputs: string[] = [];
    const off = control.onUserInput((m) => inputs.push(m.text));
    transport.sendUserInput('please also handle negatives');
    off();
    transport.sendUserInput('ignored after unsubscribe');
    assert.deepEqual(inputs, ['please also handle negatives']);

    control.progress('cycle 1: red', { cycle: 1, secret: 'password=hunter22222' });
    await new Promise((r) => setImmediate(r));
    const progress = transport.sent.find((m) => m.type === 'progress');
    assert.equal(progress?.type === 'progress' && progress.message, 'cycle 1: red');
    assert.doesNotMatch(JSON.stringify(progress), /hunter22222/);
    transport.offline = true;
    assert.doesNotThrow(() => control.progress('lost'));
    control.close();
    control.progress('after close');
  });

  it('exports one schema per message type', () => {
    assert.deepEqual([...CONTROL_MESSAGE_TYPES].sort(), [
      'answer',
      'approval_request',
      'approval_response',
      'cancel',
      'progress',
      'question',
      'user_input',
    ]);
    assert.ok(controlMessageSchema.safeParse({ type: 'user_input', id: '1', text: 'hi' }).success);
    assert.equal(personToAgentMessageSchema.safeParse({ type: 'progress', id: '1', message: 'x' }).success, false);
  });
});

describe('PortTransport', () => {
  let logs: ReturnType<typeof captureLogs>;
  beforeEach(() => (logs = captureLogs()));
  afterEach(() => logs.restore());

  it('adapts send/onMessage channels (function or Disposable unsubscribe) and fails closed when a post is refused', async () => {
    const posted: unknown[] = [];
    let handler: ((m: unknown) => void) | undefined;
    let disposed = 0;
    let accept = true;
    const port = new PortTransport({
      send: async (m) => {
        posted.push(m);
        return accept;
      },
      onMessage: (cb) => {
        handler = cb;
        return { dispose: () => disposed++ };
      },
    });
    const control = new ControlProtocol(port);
    const pending = control.requestApproval({ tool: 'write_file', dangerLevel: 'MEDIUM', params: { path: 'x' } });
    await new Promise((r) => setImmediate(r));
    const request = posted[0] as { id: string };
    handler!({ type: 'approval_response', id: request.id, decision: 'approve', answeredBy: 'panel' });
    assert.equal((await pending).outcome, 'approved');

    accept = false;
    const refused = await control.requestApproval({ tool: 'write_file', dangerLevel: 'MEDIUM', params: {} });
    assert.match(refused.reason!, /did not accept the message/);
    assert.ok(logs.records.some((r) => r.level === 'warn' && /could not be delivered/.test(r.message)));
    control.close();
    assert.equal(disposed, 1);

    let unsubscribed = false;
    const fnPort = new PortTransport({ send: () => undefined, onMessage: () => () => (unsubscribed = true) });
    fnPort.onMessage(() => undefined)();
    assert.equal(unsubscribed, true);
    const voidPort = new PortTransport({ send: () => undefined, onMessage: () => undefined });
    voidPort.onMessage(() => undefined);
    voidPort.close();
  });
});
