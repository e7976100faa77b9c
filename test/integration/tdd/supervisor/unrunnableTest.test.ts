import { strict as assert } from 'node:assert';
import { fizzbuzzJs, JS, JS_TEST_PATH } from '../../../support/fizzbuzzPlans';
import { contextOf, fileInContext, SessionHarness } from './sessionHarness';

/** Cycle 2's test with a syntax error: it cannot run, and only the Tester may fix a test. */
const broken = `${JS.testFile(2).replace(/\}\);\s*$/, '')}\n});\n}}} oops(\n`;

describe('TDD supervisor: a test that cannot run is the Tester’s to fix', function () {
  this.timeout(120_000);
  const h = new SessionHarness();
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('undoes it and asks the Tester again with the runner’s error; the Implementer spends no attempt on it', async () => {
    const { summary, played } = await h.run({
      cycles: fizzbuzzJs(2),
      overrides: {
        'tester:2:1': {
          writes: [{ path: JS_TEST_PATH, content: broken }],
          report: 'returns Fizz for multiples of three',
          runTests: false,
        },
      },
    });
    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    assert.deepEqual(
      played.filter((t) => t.role === 'tester' && t.cycle === 2).map((t) => t.attempt),
      [1, 2],
    );
    assert.deepEqual(
      played.filter((t) => t.role === 'implementer' && t.cycle === 2).map((t) => t.attempt),
      [1],
      'one implementer attempt, on a test that runs',
    );
    const retry = contextOf(h.server, 'tester', 2, 2);
    assert.match(retry, /Your test could not run/);
    assert.match(retry, /SyntaxError/);
    assert.equal(fileInContext(retry, JS_TEST_PATH), JS.testFile(1), 'the broken test was undone');
    assert.equal(summary.totals.violations, 0);
  });
});
