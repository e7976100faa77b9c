/**
 * The Testing view's kata tests (`KataTests`), with a stand-in for VS Code's testing API: after the session it shows
 * the tests of the last commit, not a whole-suite red run the supervisor rolled back (issue 25, item 2); a Run from
 * the Testing view runs the session's tests and hands its counts to `ranTests`, which the host folds into the panel's
 * header and the status bar (a real git repository and a real `node --test` run).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SupervisorEvent } from '../../../src/core/tdd/events';
import type { TestCaseResult } from '../../../src/core/testRunners/types';
import { emptyPanelState, type PanelState } from '../../../src/shared/panelProtocol';
import { reducePanel } from '../../../src/vscode/panel/panelReducer';
import { statusView } from '../../../src/vscode/status/statusText';
import { fakeVscode, installFakeVscode } from '../../unit/vscode/fakeVscode';
import { wholeSession } from '../../unit/vscode/fixtures';

type KataTestsModule = typeof import('../../../src/vscode/testing/kataTestController');

const FIRST = 'returns the number itself for 1';

function run(
  role: 'baseline' | 'tester' | 'implementer' | 'refactorer',
  cycle: number,
  cases: Array<[string, 'passed' | 'failed']>,
  scope: 'full' | 'related' = 'full',
): SupervisorEvent {
  const testCases: TestCaseResult[] = cases.map(([name, outcome]) => ({
    id: `test/fizzbuzz.test.js::${name}`,
    name,
    file: 'test/fizzbuzz.test.js',
    outcome,
    ...(outcome === 'failed' ? { message: "'1' !== 1" } : {}),
  }));
  const passed = cases.filter(([, o]) => o === 'passed').length;
  const failed = cases.length - passed;
  return {
    type: 'test_run_finished',
    cycle,
    role,
    tests: { status: failed > 0 ? 'failed' : 'passed', passed, failed, total: cases.length },
    durationMs: 30,
    scope,
    command: 'node --test',
    output: [...cases.map(([name, o]) => `${o === 'passed' ? '✔' : '✖'} ${name}`), `ℹ tests ${cases.length}`].join('\n'),
    testCases,
  };
}

describe('the Testing view shows the session’s committed tests, and a Run from it reaches the panel', () => {
  let KataTests: KataTestsModule['KataTests'];
  const log = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
  const temp: string[] = [];

  before(async () => {
    installFakeVscode();
    ({ KataTests } = await import('../../../src/vscode/testing/kataTestController'));
  });
  beforeEach(() => fakeVscode.reset());
  after(async () => {
    for (const dir of temp) await fsp.rm(dir, { recursive: true, force: true });
  });

  function kataTests(ranTests?: (tests: { passed: number; failed: number }) => void) {
    return new KataTests({
      log: log as never,
      running: () => false,
      settings: () => ({ sandbox: 'off', testTimeoutMs: 60_000 }),
      ...(ranTests ? { ranTests } : {}),
    });
  }

  /** What the Testing view lists now, with each item's result in the last run reported. */
  function shown(): Array<[string, string | undefined]> {
    const last = fakeVscode.runs.at(-1);
    return fakeVscode.items.map((item) => [item.label, last?.results.find((r) => r.id === item.id)?.outcome]);
  }

  it('after a whole-suite red refactoring was rolled back, it shows the committed test passing, not the red run', () => {
    const view = kataTests();
    const [started] = wholeSession(1);
    const events: SupervisorEvent[] = [
      { ...(started as Extract<SupervisorEvent, { type: 'session_started' }>), worktree: '/nonexistent/worktree' },
      run('baseline', 0, []),
      run('tester', 1, [[FIRST, 'failed']]),
      run('implementer', 1, [[FIRST, 'passed']]),
      { type: 'commit_made', cycle: 1, sha: 'abc1234', message: 'feat: returns the number itself for 1' },
      // The Refactorer broke the test; the whole suite ran red (a red related run is never listed either).
      run('refactorer', 1, [[FIRST, 'failed']], 'related'),
      run('refactorer', 1, [[FIRST, 'failed']]),
      { type: 'reverted', cycle: 1, role: 'refactorer', reason: 'The refactoring broke the tests.' },
      { type: 'phase_finished', cycle: 1, role: 'refactorer', outcome: 'skipped', attempts: 1, durationMs: 90 },
    ];
    for (const event of events) view.event(event);
    assert.deepEqual(shown(), [[FIRST, 'passed']]);
    assert.deepEqual(
      fakeVscode.runs.map((r) => r.name),
      ['Supervisor run (baseline)', 'Supervisor run (implementer)'],
      'the runs of committed trees only: the red Tester run was not committed either',
    );
    view.dispose();
  });

  it('a Run from the Testing view runs the session’s tests; its counts become the header’s and the status bar’s', async function () {
    this.timeout(60_000);
    // The session's worktree: a git repository with two passing tests and one failing.
    const worktree = await fsp.mkdtemp(path.join(os.tmpdir(), 'kata-tests-'));
    temp.push(worktree);
    await fsp.mkdir(path.join(worktree, 'test'));
    await fsp.writeFile(
      path.join(worktree, 'test', 'fizzbuzz.test.js'),
      [
        "const test = require('node:test');",
        "const assert = require('node:assert/strict');",
        `test('${FIRST}', () => assert.equal(String(1), '1'));`,
        "test('returns Fizz for multiples of three', () => assert.equal(3 % 3 === 0 ? 'Fizz' : '3', 'Fizz'));",
        "test('returns Buzz for multiples of five', () => assert.equal(String(5), 'Buzz'));",
        '',
      ].join('\n'),
    );
    execFileSync('git', ['init', '-q', '--initial-branch=work'], { cwd: worktree });

    const ran: Array<{ passed: number; failed: number }> = [];
    const view = kataTests((tests) => ran.push(tests));
    const [started] = wholeSession(1);
    view.event({
      ...(started as Extract<SupervisorEvent, { type: 'session_started' }>),
      worktree,
      branch: 'work',
      workspace: worktree,
    });
    view.event(run('baseline', 0, []));
    view.event(run('implementer', 1, [[FIRST, 'passed']]));
    view.event({ type: 'commit_made', cycle: 1, sha: 'abc1234', message: 'feat' });
    assert.deepEqual(shown(), [[FIRST, 'passed']]);

    const runProfile = fakeVscode.profiles.get('Run in the session worktree');
    assert.ok(runProfile, 'a run profile');
    await runProfile(new (class {})(), { onCancellationRequested: () => ({ dispose: () => undefined }) });
    assert.deepEqual(fakeVscode.warnings, []);
    assert.deepEqual(ran, [{ passed: 2, failed: 1 }], 'ranTests gets the run’s counts');
    assert.deepEqual(
      shown().sort(),
      [
        ['returns Buzz for multiples of five', 'failed'],
        ['returns Fizz for multiples of three', 'passed'],
        [FIRST, 'passed'],
      ],
      'the Testing view lists the run',
    );

    // The host folds the counts into the panel's state (`ranTests: (tests) => store.dispatch({ type: 'testingRun', tests })`).
    let state: PanelState = emptyPanelState({ instanceId: 'h', trusted: true });
    state = wholeSession(1).reduce((s, event, i) => reducePanel(s, { type: 'supervisor', event, at: 1000 + i }), state);
    state = reducePanel(state, { type: 'testingRun', tests: ran[0]! });
    assert.equal(state.session?.totals.testsPassed, 2);
    assert.equal(state.session?.totals.testsFailed, 1);
    assert.match(statusView(state).text, /✓2 ✗1/);
    view.dispose();
  });
});
