import assert from 'node:assert/strict';
import { registerSecret } from '../../../src/core/security/redact';
import { emptyPanelState, parsePanelState, type PanelState } from '../../../src/shared/panelProtocol';
import { MAX_ACTIONS, MAX_PARAMS_CHARS, reducePanel, type PanelAction } from '../../../src/vscode/panel/panelReducer';
import { wholeSession, writeRequest } from './fixtures';

const fresh = (): PanelState => emptyPanelState({ instanceId: 'host-1', trusted: true });
const fold = (state: PanelState, actions: PanelAction[]): PanelState => actions.reduce(reducePanel, state);
const events = (list: ReturnType<typeof wholeSession>, at = 1000): PanelAction[] =>
  list.map((event, i) => ({ type: 'supervisor', event, at: at + i }));

/** Every state the reducer produces must be a valid snapshot for the panel. */
function assertValid(state: PanelState): void {
  assert.ok(parsePanelState(state), `state is not a valid PanelState: ${JSON.stringify(state).slice(0, 400)}`);
}

describe('panel reducer (pure): supervisor events → PanelState', () => {
  it('folds a whole three-cycle session into header, timeline, history and totals', () => {
    const state = fold(fresh(), events(wholeSession(3)));
    assertValid(state);
    assert.equal(state.session?.status, 'completed');
    assert.equal(state.session?.kata, 'FizzBuzz');
    assert.equal(state.session?.branch, 'tdd/fizzbuzz-1');
    assert.equal(state.session?.cycle, 3);
    assert.equal(state.session?.maxCycles, 6);
    assert.equal(state.session?.phase, null);
    assert.deepEqual(state.session?.totals, { testsPassed: 3, testsFailed: 0, tokens: 690, commits: 3 });
    assert.equal(state.cycles.length, 3);
    for (const [i, cycle] of state.cycles.entries()) {
      assert.equal(cycle.n, i + 1);
      assert.equal(cycle.outcome, 'passed');
      assert.equal(cycle.commit, `sha${i + 1}`);
      assert.equal(cycle.title, `feat: behaviour ${i + 1}`);
      assert.deepEqual(cycle.tests, { passed: i + 1, failed: 0 });
      assert.deepEqual(
        cycle.phases.map((p) => [p.role, p.outcome, p.attempts]),
        [
          ['tester', 'passed', 1],
          ['implementer', 'passed', 1],
          ['refactorer', 'skipped', 1],
        ],
      );
    }
    // Six tool calls and six supervisor test runs (a red after each Tester, a green after each Implementer).
    const calls = state.actions.filter((a) => a.kind === 'toolCall');
    assert.equal(calls.length, 6);
    assert.deepEqual(
      calls.map((a) => a.approval),
      ['approved', 'always', 'approved', 'always', 'approved', 'always'],
    );
    assert.deepEqual(
      state.actions
        .filter((a) => a.kind === 'testRun')
        .map((a) => [a.role, a.ok, a.expectedRed])
        .slice(0, 2),
      [
        ['tester', true, true],
        ['implementer', true, false],
      ],
    );
    assert.ok(state.revision > 0);
  });

  it('shows the running phase mid-cycle; the test totals stay those of the last commit (the red run is not committed)', () => {
    const all = events(wholeSession(1));
    const state = fold(fresh(), all.slice(0, 9)); // up to the implementer's model call
    assertValid(state);
    assert.equal(state.session?.status, 'running');
    assert.equal(state.session?.cycle, 1);
    assert.equal(state.session?.phase, 'IMPLEMENTING');
    assert.deepEqual(state.session?.totals, { testsPassed: 0, testsFailed: 0, tokens: 230, commits: 0 });
    assert.equal(state.cycles[0]?.outcome, 'running');
    assert.deepEqual(
      state.cycles[0]?.phases.map((p) => p.outcome),
      ['passed', 'running'],
    );
  });

  it('every action increases the revision by exactly one; a no-op keeps the same object', () => {
    let state = fresh();
    for (const action of events(wholeSession(1))) {
      const next = reducePanel(state, action);
      if (next !== state) assert.equal(next.revision, state.revision + 1);
      state = next;
    }
    const same = reducePanel(state, { type: 'trust', trusted: true });
    assert.equal(same, state);
  });

  it('an approval request from the control protocol becomes a card with a diff preview, role and deadline; an answer removes it', () => {
    let state = fold(fresh(), events(wholeSession(1)).slice(0, 2));
    state = reducePanel(state, {
      type: 'approvalRequested',
      request: { ...writeRequest('req-1'), requestedBy: 'tester', callId: 'call-1' },
    });
    assertValid(state);
    assert.equal(state.approvals.length, 1);
    const card = state.approvals[0]!;
    assert.equal(card.requestId, 'req-1');
    assert.equal(card.tool, 'write_file');
    assert.equal(card.dangerLevel, 'MEDIUM');
    assert.equal(card.role, 'tester');
    assert.equal(card.callId, 'call-1');
    assert.equal(card.expiresAt, Date.parse('2026-11-22T08:05:00.000Z'));
    assert.deepEqual(card.preview?.kind, 'diff');
    assert.match(card.reason ?? '', /MEDIUM/);
    // The same request delivered again replaces its card (one card per request id).
    state = reducePanel(state, {
      type: 'approvalRequested',
      request: { ...writeRequest('req-1'), requestedBy: 'tester', callId: 'call-1' },
    });
    assert.equal(state.approvals.length, 1);
    state = reducePanel(state, { type: 'approvalClosed', requestId: 'req-1' });
    assert.equal(state.approvals.length, 0);
  });

  it('approvals reach the panel only through the control protocol: supervisor events never make a card', () => {
    let state = fold(fresh(), events(wholeSession(1)));
    assert.equal(state.approvals[0]?.preview, undefined);
    assert.equal(state.approvals.length, 0, 'a whole session of supervisor events (tool calls included) opens no approval card');
    state = reducePanel(state, {
      type: 'approvalRequested',
      request: {
        ...writeRequest('r2'),
        tool: 'run_command',
        dangerLevel: 'HIGH',
        params: { command: 'npm test' },
        preview: { kind: 'command', commandLine: 'npm test' },
      },
    });
    assert.equal(state.approvals.length, 1);
    assert.deepEqual(state.approvals[0]?.preview, { kind: 'command', commandLine: 'npm test' });
    state = reducePanel(state, { type: 'approvalClosed', requestId: 'r2' });
    assert.deepEqual(state.approvals, []);
  });

  it('HTTP request and text previews reach the card as they are (the panel renders each kind); a blank text preview is dropped', () => {
    let state = reducePanel(fresh(), {
      type: 'approvalRequested',
      request: {
        ...writeRequest('r-http'),
        tool: 'http_request',
        dangerLevel: 'CRITICAL',
        params: { url: 'https://api.example.com' },
        preview: { kind: 'request', method: 'POST', url: 'https://api.example.com', hasBody: true },
      },
    });
    state = reducePanel(state, {
      type: 'approvalRequested',
      request: { ...writeRequest('r-mcp'), tool: 'everything__echo', preview: { kind: 'text', text: 'Echoes: hi' } },
    });
    state = reducePanel(state, {
      type: 'approvalRequested',
      request: { ...writeRequest('r-blank'), tool: 'everything__echo', preview: { kind: 'text', text: '  ' } },
    });
    assertValid(state);
    assert.deepEqual(
      state.approvals.map((a) => [a.requestId, a.preview]),
      [
        ['r-http', { kind: 'request', method: 'POST', url: 'https://api.example.com', hasBody: true }],
        ['r-mcp', { kind: 'text', text: 'Echoes: hi' }],
        ['r-blank', undefined],
      ],
    );
  });

  it('a cycle in which the Tester found nothing left to test is shown as complete, not green', () => {
    let state = fold(fresh(), events(wholeSession(1)).slice(0, -1));
    state = fold(
      state,
      events([
        { type: 'cycle_started', cycle: 2 },
        { type: 'phase_changed', cycle: 2, phase: 'TESTING', role: 'tester', attempt: 1 },
        { type: 'phase_finished', cycle: 2, role: 'tester', outcome: 'kata_complete', attempts: 1, durationMs: 30 },
        { type: 'phase_changed', cycle: 2, phase: 'DONE', attempt: 0 },
        {
          type: 'cycle_finished',
          cycle: 2,
          outcome: 'kata_complete',
          tests: { status: 'passed', passed: 1, failed: 0, total: 1 },
        },
      ]),
    );
    assertValid(state);
    assert.deepEqual(
      state.cycles.map((c) => c.outcome),
      ['passed', 'complete'],
    );
    const last = state.cycles[1]!;
    assert.equal(last.commit, null);
    assert.equal(last.title, 'kata complete: nothing left to test');
    assert.deepEqual(
      last.phases.map((p) => [p.role, p.outcome]),
      [['tester', 'passed']],
    );
  });

  it('session_finished with an error closes running cycles, clears approvals and shows the error with what to do', () => {
    let state = fold(fresh(), events(wholeSession(1)).slice(0, 4));
    state = reducePanel(state, { type: 'approvalRequested', request: writeRequest('x') });
    state = reducePanel(state, {
      type: 'supervisor',
      event: {
        type: 'session_finished',
        status: 'failed',
        summary: {
          status: 'failed',
          kata: 'FizzBuzz',
          branch: 'tdd/fizzbuzz-1',
          cycles: [],
          totals: { cycles: 0, commits: 0, tests_passed: 0, overshoots: 0, violations: 0, retries: 0, reverts: 0, tokens: 120 },
          error: { error_code: 'AUTH', message: 'The API key was refused.' },
        },
      },
      at: 99,
    });
    assertValid(state);
    assert.equal(state.session?.status, 'failed');
    assert.equal(state.session?.finishedAt, 99);
    assert.equal(state.cycles[0]?.outcome, 'failed');
    assert.equal(state.cycles[0]?.phases[0]?.outcome, 'failed');
    assert.deepEqual(state.approvals, []);
    assert.equal(state.errors.at(-1)?.error_code, 'AUTH');
    assert.match(state.errors.at(-1)?.action ?? '', /^Set a valid API key/);
  });

  it('the same error reported twice in a row (event, then summary) shows once', () => {
    const error = { error_code: 'CONNECTION' as const, message: 'no server', details: {} };
    const state = fold(fresh(), [
      { type: 'supervisor', event: { type: 'error', error }, at: 1 },
      { type: 'error', error, at: 2 },
    ]);
    assert.equal(state.errors.length, 1);
    assert.match(state.errors[0]!.action!, /choose another provider or base URL/);
  });

  it('sessionStarting shows a running header before the supervisor starts; sessionAborted ends it', () => {
    let state = reducePanel(fresh(), {
      type: 'sessionStarting',
      kata: '/ws/fizz.kata.md',
      model: 'm',
      provider: 'auto',
      maxCycles: 4,
      at: 10,
    });
    assertValid(state);
    assert.equal(state.session?.status, 'running');
    assert.equal(state.session?.branch, null);
    state = reducePanel(state, { type: 'sessionAborted', status: 'cancelled', at: 20 });
    assert.equal(state.session?.status, 'cancelled');
    assert.equal(state.session?.finishedAt, 20);
    // Nothing to abort once finished.
    assert.equal(reducePanel(state, { type: 'sessionAborted', status: 'failed', at: 30 }), state);
  });

  it('redacts registered secrets from parameters, summaries and errors', () => {
    const secret = 'sk-test-reducer-0123456789abcdef';
    registerSecret(secret);
    const state = fold(fresh(), [
      {
        type: 'supervisor',
        event: {
          type: 'tool_called',
          cycle: 1,
          role: 'tester',
          callId: 'c1',
          tool: 'run_command',
          params: { command: `curl -H ${secret}` },
          ok: false,
          summary: `echo ${secret}`,
          approval: 'denied',
          durationMs: 1,
        },
        at: 1,
      },
      { type: 'error', error: { error_code: 'AUTH', message: `bad key ${secret}` }, at: 2 },
      { type: 'approvalRequested', request: { ...writeRequest('s'), params: { key: secret } } },
    ]);
    assert.doesNotMatch(JSON.stringify(state), new RegExp(secret));
  });

  it('keeps the action history bounded and clips huge parameters', () => {
    const many: PanelAction[] = Array.from({ length: MAX_ACTIONS + 25 }, (_, i) => ({
      type: 'supervisor',
      event: {
        type: 'tool_called',
        cycle: 1,
        role: 'implementer',
        callId: `c${i}`,
        tool: 'write_file',
        params: { content: 'x'.repeat(i === MAX_ACTIONS + 24 ? MAX_PARAMS_CHARS * 3 : 10) },
        ok: true,
        summary: 'ok',
        approval: 'auto',
        durationMs: 1,
      },
      at: i,
    }));
    const state = fold(fresh(), many);
    assertValid(state);
    assert.equal(state.actions.length, MAX_ACTIONS);
    assert.equal(state.actions[0]?.id, 'c25');
    const last = state.actions.at(-1)!;
    assert.ok(last.kind === 'toolCall');
    assert.equal(typeof last.params, 'string');
    assert.ok((last.params as string).length < MAX_PARAMS_CHARS + 100);
    assert.match(last.params as string, /more characters/);
  });

  it('QA and CoT answers are appended (newest last); trust changes flip `trusted`', () => {
    let state = reducePanel(fresh(), {
      type: 'answer',
      answer: { kind: 'qa', id: 'a1', question: 'q', answer: 'a', confidence: 0.5, reasoning: 'r' },
    });
    state = reducePanel(state, {
      type: 'answer',
      answer: { kind: 'cot', id: 'a2', problem: 'p', steps: ['s1', 's2'], final_answer: 'f', confidence: 1 },
    });
    assertValid(state);
    assert.deepEqual(
      state.answers.map((a) => a.id),
      ['a1', 'a2'],
    );
    state = reducePanel(state, { type: 'trust', trusted: false });
    assert.equal(state.trusted, false);
  });

  it('a resumed session keeps the earlier timeline; a new one starts empty', () => {
    let state = fold(fresh(), events(wholeSession(2)));
    const restart = reducePanel(state, {
      type: 'sessionStarting',
      kata: 'fizzbuzz.kata.md',
      model: 'm',
      provider: 'openai',
      maxCycles: 6,
      at: 4,
    });
    assert.deepEqual(restart.cycles, []);
    state = reducePanel(state, {
      type: 'sessionStarting',
      kata: 'fizzbuzz.kata.md',
      model: 'm',
      provider: 'openai',
      maxCycles: 6,
      at: 4,
      resume: true,
      sessionId: 'fizzbuzz-1',
    });
    assert.equal(state.cycles.length, 2);
    state = reducePanel(state, {
      type: 'supervisor',
      event: {
        type: 'session_started',
        kata: 'FizzBuzz',
        branch: 'tdd/fizzbuzz-1',
        baseBranch: 'main',
        model: 'm',
        provider: 'openai',
        maxCycles: 6,
        workspace: '/ws',
        sessionId: 'fizzbuzz-1',
        worktree: '/wt',
        sandbox: 'bubblewrap',
        resumedFromCycle: 3,
      },
      at: 5,
    });
    assert.equal(state.cycles.length, 2);
    assert.equal(state.session?.status, 'running');
    assert.equal(state.session?.cycle, 2);
  });
});

describe('panel reducer: issue 11 fixes', () => {
  const start = wholeSession(0)[0]!;

  it("a cycle's hash is its own feat: commit; the Refactorer's commit is kept apart", () => {
    const state = fold(
      fresh(),
      events([
        start,
        { type: 'cycle_started', cycle: 4 },
        { type: 'commit_made', cycle: 4, sha: 'feat4444', message: 'feat: fizz for multiples of three' },
        { type: 'commit_made', cycle: 4, sha: 'refa4444', message: 'refactor: extract isMultiple' },
        {
          type: 'cycle_finished',
          cycle: 4,
          outcome: 'green',
          commit: 'refa4444',
          tests: { status: 'passed', passed: 4, failed: 0, total: 4 },
        },
      ]),
    );
    assertValid(state);
    const cycle = state.cycles.find((c) => c.n === 4)!;
    assert.equal(cycle.commit, 'feat4444');
    assert.equal(cycle.title, 'feat: fizz for multiples of three');
    assert.equal(cycle.refactorCommit, 'refa4444');
  });

  it('after a resume the header counts the tokens the session had already used', () => {
    let state = reducePanel(fresh(), {
      type: 'sessionStarting',
      kata: 'fizzbuzz.md',
      model: 'm',
      provider: 'openai',
      maxCycles: 0,
      at: 1,
      resume: true,
      sessionId: 'fizzbuzz-1',
    });
    state = reducePanel(state, {
      type: 'supervisor',
      at: 2,
      event: { ...(start as Extract<typeof start, { type: 'session_started' }>), resumedFromCycle: 3, resumedTokens: 1200 },
    });
    state = reducePanel(state, {
      type: 'supervisor',
      at: 3,
      event: { type: 'model_called', role: 'tester', cycle: 3, promptTokens: 40, completionTokens: 10, latencyMs: 5 },
    });
    assertValid(state);
    assert.equal(state.session?.totals.tokens, 1250);
    assert.equal(state.session?.maxCycles, 6, "the kata's max cycles from session_started");
  });
});

describe('panel reducer: test runs in the history (issue 11)', () => {
  it('each supervisor test run is a history entry with the failing tests, the assertion message and the output tail', () => {
    const output = [
      'TAP version 13',
      '# Subtest: fizzbuzz',
      'not ok 1 - 3 is Fizz',
      "  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n  '3' !== 'Fizz'",
      '    at TestContext.<anonymous> (test/fizzbuzz.test.js:5:10)',
      'ok 2 - 1 is 1',
      ...Array.from({ length: 200 }, (_, i) => `# padding line ${i}`),
      '# fail 1',
    ].join('\n');
    const state = fold(
      fresh(),
      events([
        wholeSession(0)[0]!,
        {
          type: 'test_run_finished',
          cycle: 2,
          role: 'implementer',
          tests: { status: 'failed', passed: 1, failed: 1, total: 2 },
          durationMs: 80,
          command: 'node --test',
          output,
        },
      ]),
    );
    assertValid(state);
    const run = state.actions.at(-1)!;
    assert.ok(run.kind === 'testRun', 'a supervisor test run is an entry of its own kind');
    assert.equal(run.ok, false, 'a red after the Implementer is a failure');
    assert.deepEqual(run.params, { command: 'node --test' });
    assert.match(run.resultSummary, /^failed: 1 passed, 1 failed/);
    assert.match(run.resultSummary, /Failing:\nnot ok 1 - 3 is Fizz\n.*AssertionError.*Expected values/);
    assert.doesNotMatch(run.resultSummary, /TestContext/, 'no stack frames in the failing lines');
    assert.match(run.resultSummary, /# fail 1$/, 'the output tail');
    assert.ok(run.resultSummary.length <= 2100);
    assert.deepEqual([run.status, run.passed, run.failed, run.expectedRed, run.hasOutput], ['failed', 1, 1, false, true]);
  });
});

describe("panel reducer: the roles' own words and their tokens (issue 11)", () => {
  const started = (): PanelState => fold(fresh(), events(wholeSession(0).slice(0, 1)));

  it('streamed role text grows one history entry per model call; the whole message replaces it and marks the report', () => {
    let state = fold(started(), [
      { type: 'supervisor', event: { type: 'cycle_started', cycle: 1 }, at: 10 },
      {
        type: 'supervisor',
        event: { type: 'role_text', cycle: 1, role: 'tester', attempt: 1, message: 1, delta: 'I will add ' },
        at: 11,
      },
      {
        type: 'supervisor',
        event: { type: 'role_text', cycle: 1, role: 'tester', attempt: 1, message: 1, delta: 'a `fizz` test' },
        at: 12,
      },
    ]);
    assertValid(state);
    const entries = state.actions.filter((a) => a.kind === 'message');
    assert.equal(entries.length, 1);
    const { text, final, streaming } = entries[0]!;
    assert.deepEqual({ text, final, streaming }, { text: 'I will add a `fizz` test', final: false, streaming: true });
    assert.equal(entries[0]!.cycle, 1);
    assert.equal(entries[0]!.at, 11, 'keeps the time its first piece arrived');
    state = fold(state, [
      {
        type: 'supervisor',
        event: {
          type: 'role_message',
          cycle: 1,
          role: 'tester',
          attempt: 1,
          message: 1,
          text: 'I will add a `fizz` test.',
          final: false,
        },
        at: 13,
      },
      {
        type: 'supervisor',
        event: {
          type: 'role_message',
          cycle: 1,
          role: 'tester',
          attempt: 1,
          message: 2,
          text: '- returns Fizz for 3',
          final: true,
        },
        at: 14,
      },
    ]);
    assertValid(state);
    const after = state.actions.filter((a) => a.kind === 'message');
    assert.deepEqual(
      after.map((a) => [a.role, a.text, a.final, a.streaming]),
      [
        ['tester', 'I will add a `fizz` test.', false, false],
        ['tester', '- returns Fizz for 3', true, false],
      ],
    );
  });

  it('redacts secrets from role text and bounds a long message', () => {
    registerSecret('sk-role-secret-123456');
    const long = 'x'.repeat(20_000);
    const state = fold(started(), [
      {
        type: 'supervisor',
        event: {
          type: 'role_message',
          cycle: 1,
          role: 'implementer',
          attempt: 1,
          message: 1,
          text: 'key sk-role-secret-123456',
          final: false,
        },
        at: 1,
      },
      {
        type: 'supervisor',
        event: { type: 'role_message', cycle: 1, role: 'implementer', attempt: 1, message: 2, text: long, final: true },
        at: 2,
      },
    ]);
    const [secret, bounded] = state.actions.filter((a) => a.kind === 'message');
    assert.ok(!secret!.text.includes('sk-role-secret-123456'));
    assert.ok(bounded!.text.length < 9000);
  });

  it('counts input and output tokens per role, per cycle and for the session; a known price is kept for the cost', () => {
    let state = fold(fresh(), events(wholeSession(2)));
    assert.deepEqual(
      state.cycles.map((c) => c.usage),
      [
        { input: 200, output: 30 },
        { input: 200, output: 30 },
      ],
    );
    assert.deepEqual(
      state.cycles[0]!.phases.map((p) => [p.role, p.usage]),
      [
        ['tester', { input: 100, output: 20 }],
        ['implementer', { input: 100, output: 10 }],
        ['refactorer', undefined],
      ],
    );
    assert.deepEqual(state.session?.usage, { input: 400, output: 60 });
    state = reducePanel(state, { type: 'modelPrice', price: { input: 2.5, output: 10 } });
    assertValid(state);
    assert.deepEqual(state.session?.price, { input: 2.5, output: 10 });
    state = reducePanel(state, { type: 'modelPrice', price: null });
    assert.equal(state.session?.price, undefined);
  });

  it('the project profile becomes one line of the header, which stays through the session', () => {
    const [started, ...rest] = wholeSession(1);
    const profile: PanelAction = {
      type: 'supervisor',
      at: 1000,
      event: {
        type: 'project_profile',
        scaffolded: false,
        task: true,
        profile: {
          root: '/tmp/ws',
          language: 'typescript',
          languages: ['typescript'],
          packageManager: 'pnpm',
          testRunner: 'vitest',
          testCommand: 'vitest run',
          testFilePatterns: ['src/**/*.test.ts'],
          sourceRoots: ['src'],
          testDir: 'src',
          testsBesideSource: true,
          manifests: ['package.json'],
          readFrom: ['package.json', 'pnpm-lock.yaml'],
          fields: {
            language: 'detected',
            packageManager: 'detected',
            testRunner: 'detected',
            testCommand: 'flag',
            testFilePatterns: 'detected',
            sourceRoots: 'detected',
            testDir: 'detected',
          },
          notes: [],
        },
      },
    };
    const state = fold(fresh(), [...events([started!]), profile, ...events(rest, 2000)]);
    assertValid(state);
    assert.equal(
      state.session?.project,
      'TypeScript, pnpm, vitest (`vitest run`), tests: src/**/*.test.ts beside the code in src/, source: src/ — from package.json, pnpm-lock.yaml; test command from flags',
    );
    assert.equal(reducePanel(fresh(), profile).session, null, 'no session yet: nothing to show it in');
  });
});
