import { strict as assert } from 'node:assert';
import type { SupervisorEvent } from '../../../../src/core/tdd/events';
import type { SessionSummary } from '../../../../src/core/tdd/sessionSummary';
import { clumsyPlayer, requestsPerTurn, type ClumsyMistake } from '../../../support/clumsyPlayer';
import { fizzbuzzJs, JS, JS_SOURCE_PATH, JS_TEST_PATH } from '../../../support/fizzbuzzPlans';
import { scriptedKataModel } from '../../../support/scriptedKataModel';
import { contextOf, fileOnBranch, runWithReply, SessionHarness, turnOfRequest } from './sessionHarness';

/**
 * Issue 35, item 4: feedback that steers a clumsy model. A player makes one realistic mistake in cycle 2 and then
 * follows what the product tells it; each mistake may cost at most one model request more than the same session
 * played without it (measured: the competent player's session, request by request).
 */
describe('TDD supervisor: feedback that steers a clumsy model (one extra request at most)', function () {
  this.timeout(180_000);
  const h = new SessionHarness();
  let baseline: Map<string, number>;
  let baselineTotal: number;

  before(async function () {
    const b = new SessionHarness();
    await b.setUp();
    try {
      const { summary } = await runWithReply(b, scriptedKataModel({ cycles: fizzbuzzJs(2) }).reply);
      assert.equal(summary.cycles[1]?.outcome, 'green', JSON.stringify(summary.error));
      baseline = requestsPerTurn(b.server.chatRequests());
      baselineTotal = b.server.chatRequests().length;
    } finally {
      await b.cleanup();
    }
  });
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  async function play(
    mistake: ClumsyMistake,
  ): Promise<{ summary: SessionSummary; events: SupervisorEvent[]; per: Map<string, number> }> {
    const { summary, events } = await runWithReply(h, clumsyPlayer(fizzbuzzJs(2), { 2: mistake }).reply);
    assert.deepEqual(
      summary.cycles.slice(0, 2).map((c) => c.outcome),
      ['green', 'green'],
      `${mistake}: ${JSON.stringify(summary.error)}`,
    );
    return { summary, events, per: requestsPerTurn(h.server.chatRequests()) };
  }

  /** The requests the turn of `key` (`role:cycle`) took beyond the competent player's, and the session's. */
  function extra(per: Map<string, number>, key: string): { turn: number; session: number } {
    return { turn: (per.get(key) ?? 0) - (baseline.get(key) ?? 0), session: h.server.chatRequests().length - baselineTotal };
  }

  it('code in a Markdown block and no tool call: the next attempt is told no file changed and why; one extra request', async () => {
    const { summary, per } = await play('codeInMessage');
    const retry = contextOf(h.server, 'implementer', 2, 2);
    assert.match(retry, /changed no file/);
    assert.match(retry, /code in a message is not applied/i);
    assert.match(retry, /write_file/);
    assert.deepEqual(extra(per, 'implementer:2'), { turn: 1, session: 1 });
    assert.equal(summary.totals.violations, 0);
  });

  it('an empty reply: the next attempt is told its reply was empty and changed no file; one extra request', async () => {
    const { per } = await play('emptyReply');
    const retry = contextOf(h.server, 'implementer', 2, 2);
    assert.match(retry, /changed no file/);
    assert.match(retry, /your reply was empty/i);
    assert.deepEqual(extra(per, 'implementer:2'), { turn: 1, session: 1 });
  });

  it('an Implementer’s refused test write beside its right fix: no violation, the fix stands, the turn ends at green', async () => {
    const { summary, events, per } = await play('implementerWritesTest');
    const green = summary.cycles[1]!.phases.find((p) => p.role === 'implementer')!;
    assert.deepEqual([green.attempts, green.outcome], [1, 'green']);
    assert.equal(summary.totals.violations, 0, 'a refused write changed nothing: it is feedback, not a violation');
    assert.ok(!events.some((e) => e.type === 'violation'));
    assert.ok(
      events.some((e) => e.type === 'tool_called' && e.role === 'implementer' && e.cycle === 2 && e.approval === 'policy_denied'),
    );
    assert.deepEqual(extra(per, 'implementer:2'), { turn: 0, session: 0 });
    assert.equal(await fileOnBranch(h.workspace, summary.branch, JS_TEST_PATH), JS.testFile(2), 'the tests stay the Tester’s');
  });

  it('a Tester’s refused production write beside its valid test: no violation, the test is kept, the turn ends at red', async () => {
    const { summary, events, per } = await play('testerWritesCode');
    const red = summary.cycles[1]!.phases.find((p) => p.role === 'tester')!;
    assert.deepEqual([red.attempts, red.outcome], [1, 'red']);
    assert.equal(summary.totals.violations, 0);
    assert.ok(!events.some((e) => e.type === 'violation'));
    assert.deepEqual(extra(per, 'tester:2'), { turn: 0, session: 0 });
  });

  it('the same unchanged file read again: told it is unchanged since it was read, not sent again; one extra request', async () => {
    const { per } = await play('rereadsFile');
    // A competent reader reads once and then writes: one request more than the baseline's writer, plus at most one.
    assert.ok(extra(per, 'implementer:2').turn <= 2, `implementer:2 took ${per.get('implementer:2')} requests`);
    const last = h.server
      .chatRequests()
      .filter((r) => {
        const t = turnOfRequest(r);
        return t.role === 'implementer' && t.cycle === 2;
      })
      .at(-1)!;
    const tools = (last.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'tool');
    assert.equal(tools.filter((m) => m.content === JS.impl(1)).length, 1, 'the file’s content is sent once');
    assert.match(
      tools.at(-1)!.content,
      new RegExp(`${JS_SOURCE_PATH.replace('.', '\\.')} is unchanged since you read it at .*; its content is above`),
    );
  });
});
