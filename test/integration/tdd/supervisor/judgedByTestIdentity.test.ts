import { strict as assert } from 'node:assert';
import { fizzbuzzJs, JS, JS_SOURCE_PATH, JS_TEST_PATH } from '../../../support/fizzbuzzPlans';
import { personRepoState } from '../../../support/personRepo';
import { contextOf, fileInContext, initPersonRepo, SessionHarness } from './sessionHarness';

/** Cycle 2's test file with cycle 1's test changed to expect something else: an old test that now fails. */
const breaksCycle1 = JS.testFile(2).replace("assert.equal(fizzbuzz(1), '1');", "assert.equal(fizzbuzz(1), 'one');");
/** Cycle 2's test file plus cycle 3's test: two new failing tests in one turn. */
const twoNewTests = JS.testFile(3);

/**
 * Red and green judged test by test (node:test's report in the real sandbox), not by counts: a Tester's turn that
 * breaks an old test or adds two failing tests goes back to the Tester with their names, and a test that already
 * failed before the session is set aside, never blamed on a role.
 */
describe('TDD supervisor: red and green by test identity (real node --test reports)', function () {
  this.timeout(120_000);
  const h = new SessionHarness();
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('a Tester turn that breaks an old test goes back to the Tester with the test’s name; the Implementer spends nothing on it', async () => {
    const { summary, played, events } = await h.run({
      cycles: fizzbuzzJs(2),
      overrides: { 'tester:2:1': { writes: [{ path: JS_TEST_PATH, content: breaksCycle1 }], report: 'fizz', runTests: false } },
    });
    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    assert.deepEqual(
      played.filter((t) => t.cycle === 2 && t.role !== 'refactorer').map((t) => `${t.role}:${t.attempt}`),
      ['tester:1', 'tester:2', 'implementer:1'],
    );
    const retry = contextOf(h.server, 'tester', 2, 2);
    assert.match(retry, /made tests fail that passed before[^]*test\/fizzbuzz\.test\.js › returns the number itself for 1/);
    assert.equal(fileInContext(retry, JS_TEST_PATH), JS.testFile(1), 'the turn was undone');
    assert.ok(events.some((e) => e.type === 'violation' && e.cycle === 2 && /passed before/.test(e.reasons.join(' '))));
    assert.equal(summary.totals.violations, 1);
  });

  it('two new failing tests in one turn go back to the Tester with both names', async () => {
    const { summary, played } = await h.run({
      cycles: fizzbuzzJs(2),
      overrides: {
        'tester:2:1': { writes: [{ path: JS_TEST_PATH, content: twoNewTests }], report: 'fizz and buzz', runTests: false },
      },
    });
    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    assert.deepEqual(
      played.filter((t) => t.cycle === 2 && t.role === 'tester').map((t) => t.attempt),
      [1, 2],
    );
    const retry = contextOf(h.server, 'tester', 2, 2);
    assert.match(retry, /2 new tests fail; write exactly one new failing test/);
    assert.match(retry, /returns Fizz for multiples of three[^]*returns Buzz for multiples of five/);
  });

  it('a test that failed before the session is listed and set aside: red, green and commits go on around it', async () => {
    const flaky = `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\ntest('talks to a server that is not there', () => {\n  assert.fail('ECONNREFUSED 127.0.0.1:5432');\n});\n`;
    await initPersonRepo(h.workspace, {
      'package.json': JSON.stringify({ name: 'mine', type: 'module', scripts: { test: 'node --test' } }, null, 2),
      'test/db.test.js': flaky,
    });
    const before = await personRepoState(h.workspace);
    const { summary, events } = await h.run({ cycles: fizzbuzzJs(2) });
    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    assert.deepEqual(
      summary.cycles.map((c) => c.outcome),
      ['green', 'green', 'kata_complete'],
    );
    const known = events.find((e) => e.type === 'known_failures');
    assert.ok(known && known.type === 'known_failures');
    assert.deepEqual(known.tests, ['test/db.test.js › talks to a server that is not there']);
    assert.equal(summary.totals.violations, 0);
    assert.equal(summary.totals.overshoots, 0);
    assert.match(contextOf(h.server, 'tester', 1, 1), /already failed before the session started[^]*talks to a server/);
    assert.equal(fileInContext(contextOf(h.server, 'implementer', 2, 1), JS_SOURCE_PATH), JS.impl(1));
    // The commit subjects name the behaviour from the new test's own title.
    const subjects = (await h.git().raw(['log', '--format=%s', summary.branch])).split('\n').filter(Boolean);
    assert.ok(subjects.includes('feat: returns Fizz for multiples of three'), subjects.join(' | '));
    assert.deepEqual(await personRepoState(h.workspace), before);
  });
});
