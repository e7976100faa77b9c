import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import { ControlProtocol } from '../../../src/core/control/controlProtocol';
import { TerminalTransport, type TerminalTransportOptions } from '../../../src/core/control/terminalTransport';

/** A terminal on PassThrough streams: what the prompt wrote, and a way to type lines. */
function terminal(options: Partial<TerminalTransportOptions> = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (chunk: Buffer) => (written += chunk.toString()));
  const transport = new TerminalTransport({ input, output, interactive: true, ...options });
  const control = new ControlProtocol(transport);
  return {
    input,
    control,
    transport,
    written: () => written,
    type: (line: string) => input.write(`${line}\n`),
    /** Resolves once the output contains `text` (prompts are written synchronously, but answers arrive later). */
    async waitFor(text: string | RegExp) {
      for (let i = 0; i < 200; i++) {
        if (typeof text === 'string' ? written.includes(text) : text.test(written)) return;
        await new Promise((r) => setTimeout(r, 5));
      }
      throw new Error(`terminal never showed ${String(text)}; it showed:\n${written}`);
    },
  };
}

const request = {
  tool: 'write_file',
  dangerLevel: 'MEDIUM' as const,
  params: { path: 'src/a.ts' },
  preview: '--- a\n+++ b\n+x',
  reason: 'writes need approval',
};

describe('TerminalTransport', () => {
  it('prompts on the output with params, preview and choices; y approves once', async () => {
    const t = terminal();
    const pending = t.control.requestApproval(request);
    await t.waitFor('[y] approve once');
    assert.match(t.written(), /\? Approve write_file \(danger MEDIUM\)\? writes need approval/);
    assert.match(t.written(), /params: \{"path":"src\/a.ts"\}/);
    assert.match(t.written(), /\| \+\+\+ b/);
    assert.match(t.written(), /denied automatically in 300 s/);
    t.type('y');
    assert.deepEqual([(await pending).outcome, (await pending).answeredBy], ['approved', 'terminal']);
    t.control.close();
  });

  it('n denies, a always-allows, garbage asks again', async () => {
    const t = terminal();
    const first = t.control.requestApproval(request);
    await t.waitFor('> ');
    t.type('n');
    assert.equal((await first).outcome, 'denied');

    const second = t.control.requestApproval(request);
    await t.waitFor(/\[a\] always allow write_file[^]*\[a\] always allow write_file/);
    t.type('maybe later');
    await t.waitFor('Please answer y (approve once), n (deny) or a (always allow write_file this session).');
    t.type('  A  ');
    assert.equal((await second).outcome, 'always');
    t.control.close();
  });

  it('asks one prompt at a time, in order', async () => {
    const t = terminal();
    const a = t.control.requestApproval({ ...request, tool: 'first' });
    const b = t.control.requestApproval({ ...request, tool: 'second' });
    await t.waitFor('Approve first');
    assert.doesNotMatch(t.written(), /Approve second/);
    t.type('yes');
    await t.waitFor('Approve second');
    t.type('no');
    assert.deepEqual([(await a).outcome, (await b).outcome], ['approved', 'denied']);
    t.control.close();
  });

  it('--yes approves up to its level without asking; above it the person is asked', async () => {
    const t = terminal({ autoApproveUpTo: 'MEDIUM' });
    const auto = await t.control.requestApproval(request);
    assert.deepEqual([auto.outcome, auto.answeredBy], ['approved', 'terminal:--yes']);
    assert.match(t.written(), /write_file \(MEDIUM\) approved by --yes=MEDIUM/);
    const high = t.control.requestApproval({ ...request, tool: 'run_command', dangerLevel: 'HIGH' });
    await t.waitFor('Approve run_command');
    t.type('n');
    assert.equal((await high).outcome, 'denied');
    t.control.close();
  });

  it('without a TTY and without --yes, denies at once with a reason instead of hanging', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const control = new ControlProtocol(new TerminalTransport({ input, output })); // PassThrough is not a TTY
    const answer = await control.requestApproval(request);
    assert.equal(answer.outcome, 'denied');
    assert.match(
      answer.reason!,
      /the input is not an interactive terminal, so no one could approve it \(rerun interactively, or with --yes=MEDIUM/,
    );
    const withYes = new ControlProtocol(new TerminalTransport({ input: new PassThrough(), output, autoApproveUpTo: 'LOW' }));
    const above = await withYes.requestApproval(request);
    assert.match(above.reason!, /--yes=LOW does not cover MEDIUM/);
    const question = await control.ask('Which kata?');
    assert.deepEqual([question.outcome, question.text], ['declined', '']);
    control.close();
    withYes.close();
  });

  it('denies what is pending when the input closes, and everything after', async () => {
    const t = terminal();
    const a = t.control.requestApproval({ ...request, tool: 'first' });
    const b = t.control.requestApproval({ ...request, tool: 'second' });
    const q = t.control.ask('still there?');
    await t.waitFor('Approve first');
    t.input.end();
    assert.match((await a).reason!, /input closed before anyone answered/);
    assert.equal((await b).outcome, 'denied');
    assert.equal((await q).outcome, 'declined');
    const later = await t.control.requestApproval(request);
    assert.match(later.reason!, /terminal input is closed/);
    t.control.close();
  });

  it('answers questions by number or text, relays idle lines as user input, prints progress', async () => {
    const t = terminal();
    const inputs: string[] = [];
    t.control.onUserInput((m) => inputs.push(m.text));
    t.type('also cover leap years');
    const q = t.control.ask('Which kata?', { choices: ['fizzbuzz', 'bowling'] });
    await t.waitFor('  2) bowling');
    t.type('2');
    assert.equal((await q).text, 'bowling');
    const free = t.control.ask('Anything else?', { choices: ['no'] });
    await t.waitFor('Anything else?');
    t.type('yes: 7');
    assert.equal((await free).text, 'yes: 7');
    t.control.progress('cycle 2: green');
    await t.waitFor('· cycle 2: green');
    assert.deepEqual(inputs, ['also cover leap years']);
    t.control.close();
  });

  it('drops a prompt the agent withdrew (timeout) and moves to the next', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let written = '';
    output.on('data', (c: Buffer) => (written += c.toString()));
    const control = new ControlProtocol(new TerminalTransport({ input, output, interactive: true }), { approvalTimeoutMs: 60 });
    const first = control.requestApproval({ ...request, tool: 'first' });
    const queued = control.requestApproval({ ...request, tool: 'queued', timeoutMs: 30 });
    assert.equal((await queued).outcome, 'timeout');
    assert.equal((await first).outcome, 'timeout');
    await new Promise((r) => setTimeout(r, 10));
    assert.match(written, /no answer in time: denied/);
    assert.doesNotMatch(written, /Approve queued/);
    const next = control.requestApproval({ ...request, tool: 'third', timeoutMs: 5000 });
    await new Promise((r) => setTimeout(r, 10));
    assert.match(written, /Approve third/);
    input.write('y\n');
    assert.equal((await next).outcome, 'approved');
    control.close();
  });

  it('shows structured previews: diff, command line, request', async () => {
    const t = terminal();
    const previews = [
      { kind: 'diff' as const, path: 'a.ts', diff: '--- a/a.ts\n+++ b/a.ts\n@@ -1 +1 @@\n-old\n+new' },
      { kind: 'command' as const, commandLine: 'npm test -- --grep add' },
      { kind: 'request' as const, method: 'POST', url: 'https://example.com/api', hasBody: true },
    ];
    for (const preview of previews) {
      const pending = t.control.requestApproval({ ...request, preview });
      t.type('n');
      await pending;
    }
    assert.match(t.written(), / {2}\| -old\n {2}\| \+new/);
    assert.match(t.written(), / {2}\| \$ npm test -- --grep add/);
    assert.match(t.written(), / {2}\| POST https:\/\/example\.com\/api \(with a body\)/);
    t.control.close();
  });

  it('clips long parameters in the prompt', async () => {
    const t = terminal({ maxShownChars: 20 });
    const pending = t.control.requestApproval({ ...request, params: { content: 'x'.repeat(100) } });
    await t.waitFor('more characters]');
    t.type('n');
    await pending;
    t.control.close();
  });
});
