import { strict as assert } from 'node:assert';
import { resolveKata } from '../../../../src/core/tdd/kata';
import { fizzbuzzJs, JS, JS_SOURCE_PATH, JS_TEST_PATH } from '../../../support/fizzbuzzPlans';
import { contextOf, HARNESS_KATA, SessionHarness, turnOfRequest } from './sessionHarness';

// What the Implementer needs reaches it in full in every request (issue 14: fewer tokens, nothing dropped):
// the kata text, the current test file and the source under test, raw, each exactly once.
describe('TDD supervisor: what every implementer request carries', function () {
  this.timeout(120_000);
  const h = new SessionHarness();
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('the kata text, the current test file and the source under test, in full and once, in every implementer request', async () => {
    const { summary } = await h.run({ cycles: fizzbuzzJs(3) });
    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    const kata = await resolveKata(HARNESS_KATA);
    const requests = h.server.chatRequests().filter((r) => turnOfRequest(r).role === 'implementer');
    assert.ok(requests.length >= 3, `${requests.length} implementer requests`);
    const count = (text: string, part: string) => text.split(part).length - 1;
    for (const req of requests) {
      const { cycle, attempt } = turnOfRequest(req);
      const user = String(req.body.messages.find((m: { role: string }) => m.role === 'user').content);
      const label = `implementer cycle ${cycle} attempt ${attempt}`;
      assert.equal(count(user, kata.description.trim()), 1, `${label}: the kata text`);
      assert.equal(count(user, `## ${JS_TEST_PATH}\n\`\`\`\n${JS.testFile(cycle)}\n\`\`\``), 1, `${label}: the test file, raw`);
      if (cycle > 1)
        assert.equal(
          count(user, `## ${JS_SOURCE_PATH}\n\`\`\`\n${JS.impl(cycle - 1)}\n\`\`\``),
          1,
          `${label}: the source under test, raw`,
        );
      assert.ok(!user.includes('\\n'), `${label}: no escaped newlines`);
      assert.equal(contextOf(h.server, 'implementer', cycle, attempt).length > 0, true);
    }
  });
});
