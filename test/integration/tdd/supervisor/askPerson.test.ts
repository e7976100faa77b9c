import { strict as assert } from 'node:assert';
import { ControlProtocol, InMemoryTransport } from '../../../../src/core/control';
import type { SupervisorEvent } from '../../../../src/core/tdd/events';
import { fizzbuzzJs } from '../../../support/fizzbuzzPlans';
import { contextOf, savedSession, SessionHarness } from './sessionHarness';

type Question = Extract<SupervisorEvent, { type: 'person_question' }>;
const QUESTION = 'Should fizzbuzz(0) return "FizzBuzz" or "0"?';

/**
 * A role can ask the person (issue 24): the Tester's `ask_person` goes out as the control protocol's question
 * message; the answer reaches the Tester, the session record and every later role's context. Without anyone to
 * answer, the Tester is told to decide itself and the session goes on, with a note in the record.
 */
describe('TDD supervisor: a role asks the person (ask_person through the control protocol)', function () {
  this.timeout(120_000);
  const h = new SessionHarness();
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  const script = () => {
    const cycles = fizzbuzzJs(1);
    cycles[0]!.tester = { ...cycles[0]!.tester, ask: QUESTION };
    return { cycles };
  };

  it('the answer reaches the Tester, the record, and the Implementer’s context', async () => {
    const transport = new InMemoryTransport({
      responder: (message, t) => {
        if (message.type === 'question') t.answer(message.id, '"0" is out of scope: start at 1');
      },
    });
    const control = new ControlProtocol(transport);
    const { summary, events } = await h.run(script(), { control });
    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));

    const asked = transport.sent.filter((m) => m.type === 'question');
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.type === 'question' && asked[0]!.text, `The Tester asks: ${QUESTION}`);
    const event = events.find((e): e is Question => e.type === 'person_question');
    assert.ok(event);
    assert.deepEqual(
      [event.role, event.cycle, event.outcome, event.answer],
      ['tester', 1, 'answered', '"0" is out of scope: start at 1'],
    );

    // The Tester read the answer as its tool result, in its next request.
    const testerRequests = h.server.chatRequests().filter((r) => JSON.stringify(r.body).includes('agent: tester/'));
    assert.match(JSON.stringify(testerRequests[1]!.body), /The person answered: \\"0\\" is out of scope/);
    // Every later role sees the question and its answer.
    assert.match(
      contextOf(h.server, 'implementer', 1, 1),
      /# Questions to the person\nThe Tester asked the person: .*\nThe person answered: "0" is out of scope/,
    );
    const saved = await savedSession(h.workspace, summary);
    assert.equal(saved.questions.length, 1);
    assert.equal(saved.questions[0]!.answer, '"0" is out of scope: start at 1');
  });

  it('with no one to answer, the Tester decides itself, the session goes on, and the record says so', async () => {
    const { summary, events } = await h.run(script()); // no control protocol: no one to ask
    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    const event = events.find((e): e is Question => e.type === 'person_question');
    assert.ok(event);
    assert.equal(event.outcome, 'declined');
    assert.equal(event.answer, undefined);
    const testerRequests = h.server.chatRequests().filter((r) => JSON.stringify(r.body).includes('agent: tester/'));
    assert.match(JSON.stringify(testerRequests[1]!.body), /No one can answer now.*Decide yourself/);
    assert.match(contextOf(h.server, 'implementer', 1, 1), /No one answered; the Tester decided by itself/);
    const saved = await savedSession(h.workspace, summary);
    assert.deepEqual(
      saved.questions.map((q) => [q.role, q.outcome]),
      [['tester', 'declined']],
    );
  });
});
