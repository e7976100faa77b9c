import { strict as assert } from 'node:assert';
import { fizzbuzzJs, JS_SOURCE_PATH } from '../../../support/fizzbuzzPlans';
import { scriptedKataModel } from '../../../support/scriptedKataModel';
import { contextOf, fileInContext, runWithReply, SessionHarness, turnOfRequest } from './sessionHarness';

/**
 * 001's retry strategy: a role's turn that throws (a provider error, a model timeout) is a failed attempt, retried up
 * to the role's limit with its changes undone; only the last attempt's error ends the session.
 */
describe('TDD supervisor: a turn that throws is retried (001 Retry strategy)', function () {
  this.timeout(120_000);
  const h = new SessionHarness();
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('a provider error in the Implementer’s first attempt: its write is undone, attempt 2 hears why, the session completes', async () => {
    // The first attempt writes a file that does not pass yet, so the turn goes on; the provider fails on its next request.
    const script = scriptedKataModel({
      cycles: fizzbuzzJs(2),
      overrides: {
        'implementer:1:1': { writes: [{ path: JS_SOURCE_PATH, content: 'export function fizzbuzz() {}\n' }], report: 'not yet' },
      },
    });
    const { summary, events } = await runWithReply(h, (req) => {
      const turn = turnOfRequest(req);
      if (turn.role === 'implementer' && turn.cycle === 1 && turn.attempt === 1 && turn.step === 1)
        throw new Error('provider exploded');
      return script.reply(req);
    });
    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    const implementing = summary.cycles[0]!.phases.find((p) => p.role === 'implementer')!;
    assert.deepEqual([implementing.attempts, implementing.outcome], [2, 'green']);
    const retry = contextOf(h.server, 'implementer', 1, 2);
    assert.match(retry, /Your previous attempt ended with an error before it finished \(.*provider exploded/);
    assert.equal(fileInContext(retry, JS_SOURCE_PATH), undefined, 'the failed attempt’s write was undone');
    assert.ok(events.some((e) => e.type === 'reverted' && e.role === 'implementer' && /ended with an error/.test(e.reason)));
  });

  it('an error in every attempt ends the session after the last one, saying how many failed', async () => {
    const script = scriptedKataModel({ cycles: fizzbuzzJs(2) });
    let implementerTurns = 0;
    const { summary } = await runWithReply(h, (req) => {
      const turn = turnOfRequest(req);
      if (turn.role === 'implementer') {
        if (turn.step === 0) implementerTurns++;
        throw new Error('provider exploded');
      }
      return script.reply(req);
    });
    assert.equal(summary.status, 'failed');
    assert.equal(implementerTurns, 3, 'three attempts, as the role allows');
    assert.match(summary.error!.message, /The Implementer's turn failed 3 times; the last time: .*provider exploded/);
  });
});
