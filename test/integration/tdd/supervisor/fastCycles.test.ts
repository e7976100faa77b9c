import { strict as assert } from 'node:assert';
import { formatEvent } from '../../../../src/cli/progressPrinter';
import { SessionSummarySchema } from '../../../../src/core/tdd/sessionSummary';
import { emptyPanelState, parsePanelState } from '../../../../src/shared/panelProtocol';
import { reducePanel } from '../../../../src/vscode/panel/panelReducer';
import type { SupervisorEvent } from '../../../../src/core/tdd/events';
import { fizzbuzzJs, JS, JS_SOURCE_PATH, JS_TEST_PATH } from '../../../support/fizzbuzzPlans';
import { personRepoState } from '../../../support/personRepo';
import { contextOf, initPersonRepo, savedSession, SessionHarness, testEveryCommit } from './sessionHarness';

type TestRun = Extract<SupervisorEvent, { type: 'test_run_finished' }>;

/** A test file of the person's own with `count` passing tests. */
function ownTests(name: string, count: number): string {
  const tests = Array.from({ length: count }, (_, i) => `test('${name} ${i + 1}', () => assert.equal(${i} + 1, ${i + 1}));`);
  return `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\n${tests.join('\n')}\n`;
}

/** A project with its own suite spread over several files: 3 files, 9 passing tests, run by `node --test`. */
const PROJECT = {
  'package.json': JSON.stringify({ name: 'mine', type: 'module', scripts: { test: 'node --test' } }, null, 2),
  'test/strings.test.js': ownTests('strings', 3),
  'test/numbers.test.js': ownTests('numbers', 3),
  'test/lists.test.js': ownTests('lists', 3),
};
const OWN_TESTS = 9;

/** `role:scope` of each supervisor test run of a cycle, and each commit, in order. */
function timeline(events: readonly SupervisorEvent[], cycle: number): string[] {
  return events.flatMap((e) => {
    if (e.type === 'test_run_finished' && e.cycle === cycle && e.role !== 'baseline') return [`${e.role}:${e.scope}`];
    if (e.type === 'commit_made' && e.cycle === cycle) return ['commit'];
    if (e.type === 'phase_changed' && e.cycle === cycle && e.role === 'implementer') return [`implementer attempt ${e.attempt}`];
    return [];
  });
}

const runsOf = (events: readonly SupervisorEvent[]): TestRun[] =>
  events.filter((e): e is TestRun => e.type === 'test_run_finished');

/**
 * Fast cycles on a suite of several files (real `node --test` runs in the sandbox): during a phase the changed and new
 * test files run first, and the whole suite runs once before each commit; a related run that fails is the answer for
 * that attempt, and the whole suite is not run for it.
 */
describe('TDD supervisor: the changed tests first, the whole suite once before each commit', function () {
  this.timeout(120_000);
  const h = new SessionHarness();
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('the Tester’s file alone judges red; the Implementer’s related run, then one full run, then the commit', async () => {
    await initPersonRepo(h.workspace, PROJECT);
    const before = await personRepoState(h.workspace);
    const { summary, events } = await h.run({ cycles: fizzbuzzJs(2) });
    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    assert.deepEqual(
      summary.cycles.map((c) => c.outcome),
      ['green', 'green', 'kata_complete'],
    );

    const runs = runsOf(events);
    assert.equal(runs[0]!.role, 'baseline');
    assert.equal(runs[0]!.scope, 'full');
    assert.equal(runs[0]!.tests.total, OWN_TESTS);
    for (const cycle of [1, 2]) {
      assert.deepEqual(
        timeline(events, cycle),
        ['tester:related', 'implementer attempt 1', 'implementer:related', 'implementer:full', 'commit'],
        `cycle ${cycle}`,
      );
      const [tester, related, full] = runs.filter((r) => r.cycle === cycle && r.role !== 'baseline');
      // The Tester changed one test file: that file alone ran, and its new test is the red.
      assert.deepEqual(tester!.files, [JS_TEST_PATH]);
      assert.equal(tester!.command, `node --test ${JS_TEST_PATH}`);
      assert.ok(tester!.tests.total <= cycle, `only the new file's tests ran (${tester!.tests.total})`);
      // The Implementer: the cycle's test file first (node cannot find the tests of a source file), then the whole suite.
      assert.deepEqual(related!.files, [JS_TEST_PATH]);
      assert.deepEqual([related!.tests.status, related!.tests.total], ['passed', cycle]);
      assert.ok(
        related!.testCases!.every((t) => t.file === JS_TEST_PATH),
        'no test of the other files ran in the related run',
      );
      assert.equal(full!.files, undefined);
      assert.equal(full!.command, 'node --test');
      assert.deepEqual([full!.tests.status, full!.tests.total], ['passed', OWN_TESTS + cycle]);
      assert.equal(full!.fullRunReason, undefined);
    }
    // The summary (and the session's record) add up each cycle's related and whole-suite run times.
    SessionSummarySchema.parse(summary);
    for (const cycle of [1, 2]) {
      const took = (scope: string): number =>
        runs
          .filter((r) => r.cycle === cycle && r.role !== 'baseline' && r.scope === scope)
          .reduce((ms, r) => ms + Math.round(r.durationMs), 0);
      assert.deepEqual(
        [summary.cycles[cycle - 1]!.fast_run_ms, summary.cycles[cycle - 1]!.full_run_ms],
        [took('related'), took('full')],
      );
    }
    assert.deepEqual(
      (await savedSession(h.workspace, summary)).cycles.map((c) => [c.fastRunMs, c.fullRunMs]),
      summary.cycles.map((c) => [c.fast_run_ms, c.full_run_ms]),
    );
    // The CLI says which run it was, and how long it took.
    const lines = runs.filter((r) => r.cycle === 2 && r.role !== 'baseline').map((r) => formatEvent(r));
    assert.match(lines[0]!, /^ {4}tests after tester \(related: 1 file, \d+\.\d s\): 1 passed, 1 failed$/);
    assert.match(lines[1]!, /^ {4}tests after implementer \(related: 1 file, \d+\.\d s\): 2 passed, 0 failed$/);
    assert.match(lines[2]!, /^ {4}full suite before commit \(\d+\.\d s\): 11 passed, 0 failed$/);
    assert.match(formatEvent(runs[0]!)!, /^ {4}full suite before the first turn \(\d+\.\d s\): 9 passed, 0 failed$/);
    // What was committed: the whole suite passes at every commit, and the cycles' counts are the whole suite's.
    assert.deepEqual(
      summary.cycles.slice(0, 2).map((c) => c.tests.passed),
      [OWN_TESTS + 1, OWN_TESTS + 2],
    );
    for (const commit of (await testEveryCommit(h.workspace, summary.branch)).slice(1)) {
      assert.equal(commit.exitCode, 0, `${commit.subject}\n${commit.output}`);
    }
    assert.deepEqual(
      (await h.git().raw(['show', '--name-only', '--format=', summary.cycles[1]!.commit!])).split('\n').filter(Boolean).sort(),
      [JS_SOURCE_PATH, JS_TEST_PATH],
    );
    assert.deepEqual(await personRepoState(h.workspace), before);
  });

  it('a related run that fails is the answer for that attempt: the whole suite is not run for it', async () => {
    await initPersonRepo(h.workspace, PROJECT);
    const { summary, events } = await h.run({
      cycles: fizzbuzzJs(2),
      // Cycle 1's code again: the cycle-2 test (Fizz) fails.
      overrides: {
        'implementer:2:1': { writes: [{ path: JS_SOURCE_PATH, content: JS.impl(1) }], report: 'fizz', runTests: false },
      },
    });
    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    assert.deepEqual(timeline(events, 2), [
      'tester:related',
      'implementer attempt 1',
      'implementer:related',
      'implementer attempt 2',
      'implementer:related',
      'implementer:full',
      'commit',
    ]);
    const failed = runsOf(events).filter((r) => r.cycle === 2 && r.role === 'implementer')[0]!;
    assert.deepEqual([failed.scope, failed.tests.status, failed.tests.failed, failed.tests.total], ['related', 'failed', 1, 2]);
    const retry = contextOf(h.server, 'implementer', 2, 2);
    assert.match(retry, /did not make the tests pass \(1 failing, 1 passing\)/);
    assert.match(retry, /returns Fizz for multiples of three/);
    assert.equal(summary.totals.retries, 1);
    assert.equal(summary.cycles[1]!.tests.passed, OWN_TESTS + 2);

    // The panel: the related run is in the history with its scope and files; the session's totals stay the whole suite's.
    const upTo = events.indexOf(failed);
    const panel = events
      .slice(0, upTo + 1)
      .reduce(
        (state, event, i) => reducePanel(state, { type: 'supervisor', event, at: 1000 + i }),
        emptyPanelState({ instanceId: 'host-1', trusted: true }),
      );
    assert.ok(parsePanelState(panel), 'a valid panel snapshot');
    const lastEntry = panel.actions.at(-1)!;
    assert.ok(lastEntry.kind === 'testRun');
    assert.deepEqual(lastEntry.params, {
      command: `node --test ${JS_TEST_PATH}`,
      scope: 'related',
      files: [JS_TEST_PATH],
    });
    assert.equal(panel.session!.totals.testsPassed, OWN_TESTS + 1, 'the last whole-suite run (cycle 1)');
  });

  it('a Tester that changes shared test code (not a test file itself) is judged on the whole suite', async () => {
    await initPersonRepo(h.workspace, PROJECT);
    const { summary, events } = await h.run({
      cycles: fizzbuzzJs(1),
      overrides: {
        'tester:1:1': {
          writes: [
            { path: 'test/fixtures/expected.json', content: '{ "1": "1" }\n' },
            { path: JS_TEST_PATH, content: JS.testFile(1) },
          ],
          report: 'returns the number itself for 1',
          runTests: false,
        },
      },
    });
    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    assert.deepEqual(timeline(events, 1), [
      'tester:full',
      'implementer attempt 1',
      'implementer:related',
      'implementer:full',
      'commit',
    ]);
    const tester = runsOf(events).find((r) => r.cycle === 1 && r.role === 'tester')!;
    assert.equal(tester.tests.total, OWN_TESTS + 1);
  });
});
