import { strict as assert } from 'node:assert';
import type { SupervisorEvent } from '../../../../src/core/tdd/events';
import { fizzbuzzJs } from '../../../support/fizzbuzzPlans';
import { SessionHarness } from './sessionHarness';

type RoleText = Extract<SupervisorEvent, { type: 'role_text' }>;
type RoleMessage = Extract<SupervisorEvent, { type: 'role_message' }>;

describe("TDD supervisor: the roles' own words", function () {
  this.timeout(120_000);
  const h = new SessionHarness();
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it("streams each role's text as role_text events and reports its whole message as role_message (final for the report)", async () => {
    const { summary, events } = await h.run({ cycles: fizzbuzzJs(1, { refactor: false }) }, { streamRoleText: true });
    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));

    // The model was asked for a stream.
    assert.ok(
      h.server.chatRequests().every((r) => r.body.stream === true),
      'every chat request streams',
    );

    const messages = events.filter((e): e is RoleMessage => e.type === 'role_message');
    const deltas = events.filter((e): e is RoleText => e.type === 'role_text');
    // The Tester's words beside its write: the write made the test fail as required, so they were its last, and the
    // same message comes again as final: its report.
    const testerWords = messages.filter((m) => m.role === 'tester' && m.cycle === 1);
    assert.deepEqual(
      testerWords.map((m) => m.final),
      [false, true],
      'said beside a tool call, then final once the goal ended the turn',
    );
    assert.equal(testerWords[0]!.message, testerWords[1]!.message);
    assert.match(testerWords[1]!.text, /^returns the number itself/);
    assert.ok(
      messages.some((m) => m.role === 'implementer'),
      'the implementer speaks too',
    );
    // A turn that ends with a report (no tool call) ends with a final message: the Tester's KATA_COMPLETE.
    assert.ok(messages.some((m) => m.role === 'tester' && m.cycle === 2 && m.final && /KATA_COMPLETE/.test(m.text)));

    // The deltas of one model call add up to its message, and they come before it.
    for (const message of messages.filter(
      (m, i) =>
        messages.findIndex(
          (o) => o.message === m.message && o.role === m.role && o.cycle === m.cycle && o.attempt === m.attempt,
        ) === i,
    )) {
      const own = deltas.filter(
        (d) =>
          d.cycle === message.cycle && d.role === message.role && d.attempt === message.attempt && d.message === message.message,
      );
      assert.equal(own.map((d) => d.delta).join(''), message.text);
      assert.ok(events.indexOf(own.at(-1)!) < events.indexOf(message));
    }
  });

  it("does not stream without streamRoleText, and still reports the roles' messages", async () => {
    const { summary, events } = await h.run({ cycles: fizzbuzzJs(1, { refactor: false }) });
    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    assert.ok(h.server.chatRequests().every((r) => r.body.stream !== true));
    assert.equal(events.filter((e) => e.type === 'role_text').length, 0);
    assert.ok(events.some((e) => e.type === 'role_message' && e.role === 'tester' && e.final && /KATA_COMPLETE/.test(e.text)));
  });
});
