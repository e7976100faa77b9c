/**
 * The agent panel in real headless Chromium: the built bundle inside the real panel HTML, fed
 * protocol messages, clicked like a person would, and photographed (test-results/*.png).
 * Requires Debian's chromium at /usr/bin/chromium (see test/browser/run.sh).
 */
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { stateMessage, type PanelMessage } from '../../src/shared/panelProtocol';
import {
  approvalState,
  emptyState,
  endedSessionState,
  failedState,
  finishedState,
  repositorySessions,
} from './fixtures/panelStates';
import {
  cspViolations,
  focusedLabel,
  isOpen,
  postedMessages,
  sendToPanel,
  startHarness,
  waitForPosted,
  type PageGlobals,
  type PanelHarness,
} from './harness';

const SCREENSHOTS = path.resolve(__dirname, '../../test-results');

describe('agent panel in Chromium', function () {
  this.timeout(60_000);
  let harness: PanelHarness;
  let page: Page;
  let pageErrors: string[];

  before(async () => {
    harness = await startHarness();
    await mkdir(SCREENSHOTS, { recursive: true });
  });

  after(async () => {
    await harness?.close();
  });

  async function openPanel(theme: 'dark' | 'light' = 'dark', width = 380): Promise<Page> {
    const context = await harness.browser.newContext({
      viewport: { width, height: 900 },
      deviceScaleFactor: 2,
      colorScheme: theme,
    });
    const opened = await context.newPage();
    pageErrors = [];
    opened.on('pageerror', (error) => pageErrors.push(error.message));
    opened.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    await opened.goto(`${harness.origin}/panel.html?theme=${theme}`);
    const posted = await waitForPosted(opened, 1);
    assert.deepEqual(posted[0], { type: 'ready' }, 'the panel says ready first');
    return opened;
  }

  async function text(selector: string): Promise<string> {
    return (await page.locator(selector).first().innerText()).replace(/\s+/g, ' ').trim();
  }

  async function waitForRevision(selectorThatAppears: string): Promise<void> {
    await page.waitForSelector(selectorThatAppears);
  }

  /** Opens the action history and every cycle in it (issue 25: only the running or last cycle is open). */
  async function openHistory(): Promise<void> {
    await page.locator('details.history > summary').click();
    // By a click, as a person does: the panel remembers only the person's opening across renders.
    const folded = page.locator('.history-cycle > details:not([open]) > summary');
    while ((await folded.count()) > 0) await folded.first().click();
  }

  /** Unfolds the answers before the newest one (issue 25: only the newest is open at the top). */
  async function openEarlierAnswers(): Promise<void> {
    await page.locator('details.earlier-answers > summary').click();
    await page.waitForFunction(`document.querySelector('details.earlier-answers')?.open === true`);
  }

  afterEach(async () => {
    if (page) {
      assert.deepEqual(await cspViolations(page), [], 'no Content-Security-Policy violations');
      assert.deepEqual(pageErrors, [], 'no page errors');
      await page.context().close();
    }
  });

  it('shows the empty state and a Run button until a session exists', async () => {
    page = await openPanel();
    await sendToPanel(page, stateMessage(emptyState()));
    await waitForRevision('#empty-state');
    assert.equal(await text('#empty-state .empty-title'), "No session yet — run 'TDD Agent: Run TDD kata'");
    assert.equal(await page.locator('button[data-command="runKata"]').isEnabled(), true);
    assert.equal(await page.locator('#root').getAttribute('aria-busy'), null);
  });

  it('renders a finished session: header, totals, cycle timeline, action history and QA/CoT answers', async () => {
    page = await openPanel();
    await sendToPanel(page, stateMessage(finishedState()));
    await waitForRevision('#session');

    assert.equal(await text('.session-kata'), 'FizzBuzz');
    assert.equal(await text('#session-status'), 'Completed');
    assert.match(await text('.session-meta'), /Model gpt-4o-mini Provider openai Branch tdd\/fizzbuzz-20261122-0743/);
    assert.equal(await text('#session-cycle'), 'Cycle 3 of 5');
    assert.match(await text('#session-totals'), /tests passed 3 tests failed 0 commits 4 tokens 18,432/);

    const cycles = page.locator('.timeline > li.cycle');
    assert.equal(await cycles.count(), 3);
    assert.match(await cycles.nth(0).innerText(), /Cycle 1\s+Green\s+3f9c2a1/);
    const cycle3 = (await cycles.nth(2).innerText()).replace(/\s+/g, ' ');
    assert.match(cycle3, /feat: multiples of five are Buzz/);
    assert.match(cycle3, /3 passed · 0 failed/);
    assert.match(cycle3, /Tester Passed 1 attempt 3\.8 s/);
    assert.match(cycle3, /Refactorer Reverted 3 attempts 16\.3 s/);
    assert.match((await cycles.nth(1).innerText()).replace(/\s+/g, ' '), /Implementer Passed 2 attempts 11\.8 s/);

    // The action history is collapsed until opened; per cycle, oldest call first, the last cycle open.
    const history = page.locator('details.history');
    assert.equal(await isOpen(history), false);
    await openHistory();
    assert.equal(await isOpen(history), true);
    const actions = page.locator('.action-list > li');
    assert.equal(await actions.count(), 5);
    assert.match(await actions.nth(4).locator('summary').innerText(), /write_file\s+refactorer\s+Always allowed/);
    const denied = page.locator('li[data-action-id="call-4"]');
    assert.match(await denied.locator('summary').innerText(), /run_command\s+implementer\s+Denied/);
    await denied.locator('summary').click();
    assert.match(await denied.locator('pre.params').innerText(), /"command": "rm -rf node_modules"/);
    assert.match(await denied.locator('pre.result').innerText(), /Nothing was changed/);

    // Answers: newest first (CoT), steps as an ordered list; the earlier one folded away.
    await openEarlierAnswers();
    const answers = page.locator('#answers article');
    assert.equal(await answers.count(), 2);
    assert.equal(await page.locator('.answer-cot ol.cot-steps > li').count(), 3);
    assert.equal(await text('.answer-cot .answer-final'), '"FizzBuzz"');
    assert.match(await text('.answer-cot .confidence'), /88 %/);
    assert.equal(await text('.answer-qa .answer-question'), 'Why does fizzbuzz check 15 before 3?');
    assert.match(await text('.answer-qa .answer-text'), /checking it first returns "FizzBuzz"/);
    assert.equal(await page.locator('#errors').count(), 0);
    assert.equal(await page.locator('#empty-state').count(), 0);

    await page.locator('#actions').screenshot({ path: path.join(SCREENSHOTS, 'action-history-dark.png') });
    await page.locator('details.history > summary').click(); // collapse again for a compact screenshot
    await page.screenshot({ path: path.join(SCREENSHOTS, 'panel-finished-dark.png'), fullPage: true });
  });

  it('issue 11: hashes open their commit (feat: and refactor apart), a completed bar is full, denials are not failures, cancelled steps show no 0 ms, nothing cut off at 300 px', async () => {
    page = await openPanel('dark', 300);
    const state = finishedState();
    state.session = { ...state.session!, sessionId: 'fizzbuzz-20261122-074300' };
    state.cycles[1] = { ...state.cycles[1]!, refactorCommit: 'bead1234567890abcdef1234567890abcdef1234' };
    state.cycles.push({
      n: 4,
      outcome: 'cancelled',
      commit: null,
      tests: { passed: 3, failed: 0 },
      phases: [{ role: 'implementer', outcome: 'cancelled', attempts: 1, duration_ms: 0 }],
    });
    state.actions.push({
      kind: 'toolCall',
      id: 'call-6',
      role: 'implementer',
      tool: 'run_tests',
      params: {},
      resultSummary: 'Not executed: nobody answered in time.',
      ok: false,
      approval: 'timeout',
      durationMs: 0,
      cycle: 4,
    });
    await sendToPanel(page, stateMessage(state));
    await waitForRevision('#session');

    // A completed kata's progress bar is full although it needed 3 of 5 cycles.
    assert.equal(
      await page.evaluate(
        `(() => { const p = document.querySelector('.session-progress progress'); return p.value === p.max; })()`,
      ),
      true,
    );

    const cycle2 = page.locator('.timeline > li.cycle[data-cycle="2"]');
    await cycle2.getByRole('button', { name: /Open the changes of commit a1b2c3d/ }).click();
    await cycle2.getByRole('button', { name: /Open the changes of refactor commit bead123/ }).click();
    const posted = await waitForPosted(page, 3);
    assert.deepEqual(posted.slice(1), [
      { type: 'openCommit', sessionId: 'fizzbuzz-20261122-074300', sha: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678' },
      { type: 'openCommit', sessionId: 'fizzbuzz-20261122-074300', sha: 'bead1234567890abcdef1234567890abcdef1234' },
    ]);

    const cancelled = (await page.locator('.timeline > li.cycle[data-cycle="4"] .phase-duration').innerText()).trim();
    assert.equal(cancelled, '—', 'a cancelled step shows no "0 ms"');

    // A denial and a time-out are not failures.
    assert.equal(await page.locator('.history-failed').count(), 0, 'no "failed" count for denials and time-outs');
    assert.equal(await page.locator('.action.is-failed').count(), 0);
    assert.equal(await page.locator('li[data-action-id="call-6"] .action-status').getAttribute('aria-label'), 'not run');

    // At 300 px nothing essential is cut off: role names and durations show whole.
    await openHistory();
    const cut = await page.evaluate(`[...document.querySelectorAll('.phases th, .phase-duration, .action-role, .action-duration')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
      .map((el) => el.className + ': ' + el.textContent)`);
    assert.deepEqual(cut, []);
    const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    assert.equal(overflow, 0);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'panel-300px-dark.png'), fullPage: true });
  });

  it("issue 11: an answer's file label is a button that opens the file at its first line", async () => {
    page = await openPanel();
    await sendToPanel(page, stateMessage(finishedState()));
    await waitForRevision('details.earlier-answers');
    await openEarlierAnswers();
    await page.locator('.answer-qa').getByRole('button', { name: 'src/fizzbuzz.js:1-9' }).click();
    assert.deepEqual((await waitForPosted(page, 2))[1], { type: 'openFile', path: 'src/fizzbuzz.js', line: 1 });
  });

  it('issue 11: answers render as Markdown (<code>, <li>), and hostile HTML in them stays text: no script runs, no image loads', async () => {
    page = await openPanel();
    const state = finishedState();
    state.answers = [
      {
        kind: 'qa',
        id: 'qa-md',
        question: 'What does it do?',
        answer: [
          'It calls `fizzbuzz(n)` for &copy; &amp; &#65;:',
          '',
          '- multiples of **three**',
          '- multiples of five',
          '',
          '<img src=x onerror="window.__pwned = 1">',
          '<script>window.__pwned = 2</script>',
          '![remote](https://example.invalid/x.png) [bad](javascript:window.__pwned=3) [docs](https://example.com/docs)',
        ].join('\n'),
        confidence: 0.9,
        reasoning: 'See `src/fizzbuzz.js`.',
        source: 'src/fizzbuzz.js:1-9',
      },
      {
        kind: 'cot',
        id: 'cot-md',
        problem: 'Why?',
        steps: ['`n % 15` first', 'then <b id="bold">3</b>'],
        final_answer: '**FizzBuzz**',
        confidence: 0.8,
      },
    ];
    await sendToPanel(page, stateMessage(state));
    await waitForRevision('details.earlier-answers');
    await openEarlierAnswers();

    const answer = page.locator('.answer-qa .answer-text');
    assert.equal(await answer.locator('code').first().innerText(), 'fizzbuzz(n)');
    assert.match(await answer.innerText(), /for © & A:/, 'character references decoded');
    assert.deepEqual(await answer.locator('li').allInnerTexts(), ['multiples of three', 'multiples of five']);
    assert.equal(await answer.locator('li strong').innerText(), 'three');
    assert.match(await answer.innerText(), /<img src=x onerror="window.__pwned = 1">/, 'the tag is shown as text');
    assert.match(await answer.innerText(), /<script>window.__pwned = 2<\/script>/);
    assert.equal(await page.locator('#answers img, #answers script, #bold').count(), 0, 'no element from model HTML');
    assert.equal(await page.locator('#answers a[href^="javascript"]').count(), 0);
    assert.equal(await answer.locator('a[href="https://example.com/docs"]').innerText(), 'docs');
    assert.equal(await page.locator('.answer-cot .cot-steps code').first().innerText(), 'n % 15');
    assert.equal(await page.locator('.answer-cot .answer-final strong').innerText(), 'FizzBuzz');
    assert.equal(await page.evaluate('window.__pwned'), undefined, 'no script ran');
    await page.locator('#answers').screenshot({ path: path.join(SCREENSHOTS, 'answers-markdown-dark.png') });
  });

  it('issue 11: test runs in the history show red / green, the failing test and assertion, and open the full output', async () => {
    page = await openPanel();
    const state = finishedState();
    state.actions.push(
      {
        id: 'tests-2-tester-1',
        role: 'tester',
        kind: 'testRun',
        params: { command: 'node --test' },
        resultSummary:
          "failed: 1 passed, 1 failed\n\nFailing:\nnot ok 2 - 3 is Fizz\n  AssertionError: Expected values to be strictly equal: '3' !== 'Fizz'\n\nOutput:\n# fail 1",
        ok: true,
        durationMs: 80,
        cycle: 2,
        status: 'failed',
        passed: 1,
        failed: 1,
        expectedRed: true,
        hasOutput: true,
      },
      {
        id: 'tests-2-implementer-2',
        role: 'implementer',
        kind: 'testRun',
        params: { command: 'node --test' },
        resultSummary: 'passed: 2 passed, 0 failed',
        ok: true,
        durationMs: 75,
        cycle: 2,
        status: 'passed',
        passed: 2,
        failed: 0,
        expectedRed: false,
        hasOutput: false,
      },
    );
    await sendToPanel(page, stateMessage(state));
    await waitForRevision('#actions');
    await openHistory();
    const red = page.locator('li[data-action-id="tests-2-tester-1"]');
    assert.equal((await red.locator('.test-badge').innerText()).trim(), 'red (expected)');
    assert.equal((await page.locator('li[data-action-id="tests-2-implementer-2"] .test-badge').innerText()).trim(), 'green');
    await red.locator('summary').click();
    assert.match(
      await red.locator('pre.result').innerText(),
      /not ok 2 - 3 is Fizz\n\s*AssertionError: Expected values to be strictly equal: '3' !== 'Fizz'/,
    );
    await red.getByRole('button', { name: 'Open full output' }).click();
    assert.deepEqual((await waitForPosted(page, 2))[1], { type: 'openTestOutput', id: 'tests-2-tester-1' });
    assert.equal(
      await page.locator('li[data-action-id="tests-2-implementer-2"] button.open-output').count(),
      0,
      'no button without output',
    );
  });

  it('issue 11: write_file / edit_file show a compact diff and "Open diff"; file paths (tool entries, approval cards, failing-test locations) open the session\'s file', async () => {
    page = await openPanel();
    const state = approvalState(Date.now() + 60_000);
    state.actions.push(
      {
        kind: 'toolCall',
        id: 'call-edit-7',
        role: 'implementer',
        tool: 'edit_file',
        params: {
          path: 'src/fizzbuzz.js',
          search: 'return String(n);',
          replace: "if (n % 3 === 0) return 'Fizz';\n  return String(n);",
        },
        resultSummary: 'Edited src/fizzbuzz.js (1 replacement)',
        ok: true,
        approval: 'approved',
        durationMs: 4,
        cycle: 2,
        fileChange: {
          path: 'src/fizzbuzz.js',
          diff: "--- a/src/fizzbuzz.js\n+++ b/src/fizzbuzz.js\n@@ -1,3 +1,4 @@\n export function fizzbuzz(n) {\n+  if (n % 3 === 0) return 'Fizz';\n   return String(n);\n }",
        },
      },
      {
        id: 'tests-2-tester-9',
        role: 'tester',
        kind: 'testRun',
        params: { command: 'node --test' },
        resultSummary:
          "failed: 1 passed, 1 failed\n\nFailing:\nnot ok 2 - returns Fizz for 3\n  location: '/cache/worktrees/fizzbuzz-1/test/fizzbuzz.test.js:7:1'\n  at file:///x/node_modules/y.js:1:1",
        ok: true,
        durationMs: 80,
        cycle: 2,
        status: 'failed',
        passed: 1,
        failed: 1,
        expectedRed: true,
        hasOutput: true,
      },
    );
    await sendToPanel(page, stateMessage(state));
    await waitForRevision('.approval-card');
    let posted = 1;
    const next = async (): Promise<PanelMessage> => (await waitForPosted(page, ++posted))[posted - 1] as PanelMessage;

    // The approval card of a write: its path opens the worktree's file, "Open diff" the diff editor; a command card has neither.
    const write = page.locator('.approval-card[data-request-id="req-write-42"]');
    await write.getByRole('button', { name: 'Open diff of src/fizzbuzz.js' }).click();
    assert.deepEqual(await next(), { type: 'openDiff', id: 'req-write-42' });
    await write.locator('.preview-label button.file-link').click();
    assert.deepEqual(await next(), { type: 'openFile', path: 'src/fizzbuzz.js', session: true });
    assert.equal(await page.locator('.approval-card[data-request-id="req-cmd-43"] button.open-diff').count(), 0);

    // The history entry of an edit: the compact diff, "Open diff" and the file link.
    await openHistory();
    const edit = page.locator('li[data-action-id="call-edit-7"]');
    await edit.locator('summary').click();
    assert.deepEqual(await edit.locator('pre.diff .diff-add').allInnerTexts(), ["+  if (n % 3 === 0) return 'Fizz';"]);
    await edit.getByRole('button', { name: 'Open diff of src/fizzbuzz.js' }).click();
    assert.deepEqual(await next(), { type: 'openDiff', id: 'call-edit-7' });
    await edit.locator('.action-file button.file-link').click();
    assert.deepEqual(await next(), { type: 'openFile', path: 'src/fizzbuzz.js', session: true });
    assert.equal(
      await page.locator('li[data-action-id="call-2"] button.open-diff').count(),
      0,
      'no diff for a call without a recorded change',
    );

    // A red test run: the failing test's location (not node_modules' frames) opens at its line.
    const red = page.locator('li[data-action-id="tests-2-tester-9"]');
    await red.locator('summary').click();
    const locations = red.locator('.action-locations button.file-link');
    assert.deepEqual(await locations.allInnerTexts(), ['…/fizzbuzz-1/test/fizzbuzz.test.js:7']);
    await locations.first().click();
    assert.deepEqual(await next(), {
      type: 'openFile',
      path: '/cache/worktrees/fizzbuzz-1/test/fizzbuzz.test.js',
      line: 7,
      session: true,
    });
    await page.locator('#actions').screenshot({ path: path.join(SCREENSHOTS, 'history-diff-dark.png') });
  });

  it('says "Complete" for a cycle in which the Tester found nothing left to test', async () => {
    page = await openPanel();
    const state = finishedState();
    state.cycles.push({
      n: 4,
      outcome: 'complete',
      commit: null,
      title: 'kata complete: nothing left to test',
      tests: { passed: 3, failed: 0 },
      phases: [{ role: 'tester', outcome: 'passed', attempts: 1, duration_ms: 2500 }],
    });
    await sendToPanel(page, stateMessage(state));
    await waitForRevision('.cycle[data-cycle="4"]');
    const last = page.locator('.cycle[data-cycle="4"]');
    assert.equal(await last.locator('.outcome-badge').innerText(), 'Complete');
    assert.equal(await last.locator('.commit').count(), 0);
    assert.match(await text('.cycle[data-cycle="1"] .outcome-badge'), /^Green$/);
    // Same tone as a green cycle: the kata ended well.
    const tone = (selector: string) =>
      page.evaluate(`getComputedStyle(document.querySelector(${JSON.stringify(selector)})).color`);
    assert.equal(await tone('.cycle[data-cycle="4"] .outcome-badge'), await tone('.cycle[data-cycle="1"] .outcome-badge'));
  });

  it('a rolled-back cycle says where the branch stands, and shows its attempt’s red counts apart', async () => {
    page = await openPanel();
    const state = finishedState();
    state.cycles.push({
      n: 4,
      outcome: 'failed',
      commit: null,
      tests: { passed: 3, failed: 0 },
      rolledBackTests: { passed: 3, failed: 1 },
      phases: [
        { role: 'tester', outcome: 'passed', attempts: 1, duration_ms: 2500 },
        { role: 'implementer', outcome: 'failed', attempts: 3, duration_ms: 9100 },
      ],
    });
    await sendToPanel(page, stateMessage(state));
    await waitForRevision('.cycle[data-cycle="4"]');
    const row = page.locator('.cycle[data-cycle="4"]');
    const lines = await row.locator('.cycle-tests').allInnerTexts();
    assert.deepEqual(
      lines.map((l) => l.replace(/\s+/g, ' ').trim()),
      ['After the rollback: 3 passed · 0 failed', 'Rolled-back attempt: 3 passed · 1 failed'],
    );
    // A green cycle keeps its one line, with no lead.
    assert.deepEqual(await page.locator('.cycle[data-cycle="1"] .cycle-tests').allInnerTexts(), ['1 passed · 0 failed']);
  });

  it('looks right in the light theme too (screenshot)', async () => {
    page = await openPanel('light');
    await sendToPanel(page, stateMessage(finishedState()));
    await waitForRevision('#session');
    const color = await page.evaluate('getComputedStyle(document.body).color');
    assert.equal(color, 'rgb(59, 59, 59)', 'text uses the light theme foreground');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'panel-finished-light.png'), fullPage: true });
  });

  for (const theme of ['dark', 'light'] as const) {
    it(`shows approval cards with danger level, diff, command line and a live countdown (${theme})`, async () => {
      page = await openPanel(theme);
      await sendToPanel(page, stateMessage(approvalState(Date.now() + 95_000)));
      await waitForRevision('.approval-card');

      assert.equal(await text('#session-status'), 'Running');
      assert.equal(await text('#session-phase'), 'Implementer is making it pass');
      assert.equal(await page.locator('button[data-command="stopKata"]').count(), 1, 'a running session offers Stop');

      const cards = page.locator('.approval-card');
      assert.equal(await cards.count(), 2);
      const write = page.locator('.approval-card[data-request-id="req-write-42"]');
      assert.equal(await write.locator('.approval-tool').innerText(), 'write_file');
      assert.equal(await write.locator('.danger-badge').innerText(), 'MEDIUM');
      assert.match(await write.locator('.approval-reason').innerText(), /implementer\s*Writes are MEDIUM/);
      assert.match(await write.locator('.preview-label').innerText(), /src\/fizzbuzz\.js\s+\+2\s+−1/);
      assert.equal(await write.locator('.diff-add').count(), 2);
      assert.equal(await write.locator('.diff-del').count(), 1);
      assert.equal(await write.locator('.diff-add').first().innerText(), "+  if (n % 3 === 0) return 'Fizz';");
      const command = page.locator('.approval-card[data-request-id="req-cmd-43"]');
      assert.equal(await command.locator('.danger-badge').innerText(), 'HIGH');
      assert.equal(await command.locator('.command-line').innerText(), 'npm install left-pad');

      const countdown = write.locator('.countdown-text');
      const first = await countdown.innerText();
      assert.match(first, /^Auto-deny in 1:3\d$/);
      await page.waitForFunction(
        (initial) => (globalThis as unknown as PageGlobals).document.querySelector('.countdown-text')?.textContent !== initial,
        first,
      );

      await write.screenshot({ path: path.join(SCREENSHOTS, `approval-card-${theme}.png`) });
      await page.screenshot({ path: path.join(SCREENSHOTS, `panel-approvals-${theme}.png`), fullPage: true });
    });
  }

  it('posts the decision with the request id, greys the card optimistically, and answers only once', async () => {
    page = await openPanel();
    await sendToPanel(page, stateMessage(approvalState(Date.now() + 60_000)));
    await waitForRevision('.approval-card');
    const write = page.locator('.approval-card[data-request-id="req-write-42"]');
    const command = page.locator('.approval-card[data-request-id="req-cmd-43"]');

    await write.getByRole('button', { name: 'Approve: write_file' }).click();
    let posted = await waitForPosted(page, 2);
    assert.deepEqual(posted[1], { type: 'approvalResponse', requestId: 'req-write-42', decision: 'approve' });
    await page.waitForSelector('.approval-card[data-request-id="req-write-42"].is-settled');
    assert.match(await write.locator('.approval-status').innerText(), /Approved — waiting for the agent/);
    assert.equal(await write.locator('button[data-decision]:enabled').count(), 0, 'an answered card cannot be answered again');
    await write.locator('button[data-decision]').first().click({ force: true });

    await command.getByRole('button', { name: 'Deny: run_command' }).click();
    posted = await waitForPosted(page, 3);
    assert.deepEqual(posted[2], { type: 'approvalResponse', requestId: 'req-cmd-43', decision: 'deny' });
    assert.equal((await postedMessages(page)).length, 3, 'the forced second click posted nothing');

    // The host resolves the first request: its card disappears, the other stays answered.
    const next = approvalState(Date.now() + 60_000, 21);
    next.approvals = next.approvals.filter((request) => request.requestId === 'req-cmd-43');
    await sendToPanel(page, stateMessage(next));
    await page.waitForSelector('.approval-card[data-request-id="req-write-42"]', { state: 'detached' });
    assert.equal(await command.locator('button:enabled').count(), 0);
  });

  it('"Always allow for this session" and keyboard operation send the right decisions', async () => {
    page = await openPanel();
    await sendToPanel(page, stateMessage(approvalState(Date.now() + 60_000)));
    await waitForRevision('.approval-card');

    await page
      .locator('.approval-card[data-request-id="req-write-42"]')
      .getByRole('button', { name: /Always allow/ })
      .click();
    let posted = await waitForPosted(page, 2);
    assert.deepEqual(posted[1], { type: 'approvalResponse', requestId: 'req-write-42', decision: 'always' });
    assert.equal(
      await page.evaluate(`document.activeElement?.matches('.approval-card[data-request-id="req-cmd-43"]')`),
      true,
      'focus moves on to the next open request (its card, not its Approve button)',
    );

    // Keyboard only: Tab to the command card's Approve button, press Enter.
    await page.locator('.approval-card[data-request-id="req-cmd-43"] .command-line').focus();
    await page.keyboard.press('Tab'); // to the parameters summary
    await page.keyboard.press('Tab'); // to Approve
    assert.equal(await focusedLabel(page), 'Approve: run_command');
    await page.keyboard.press('Enter');
    posted = await waitForPosted(page, 3);
    assert.deepEqual(posted[2], { type: 'approvalResponse', requestId: 'req-cmd-43', decision: 'approve' });
  });

  it('previews HTTP requests and MCP tools, and shows parameters when there is no preview', async () => {
    page = await openPanel();
    const state = approvalState(Date.now() + 60_000);
    state.approvals = [
      {
        requestId: 'r-http',
        tool: 'http_request',
        dangerLevel: 'CRITICAL',
        params: { url: 'https://api.example.com/v1' },
        preview: { kind: 'request', method: 'POST', url: 'https://api.example.com/v1', hasBody: true },
        expiresAt: Date.now() + 60_000,
        reason: 'Network access leaves the workspace.',
      },
      {
        requestId: 'r-mcp',
        tool: 'everything.echo',
        dangerLevel: 'LOW',
        params: { message: 'hi' },
        preview: { kind: 'text', text: 'Echoes: hi' },
        expiresAt: Date.now() + 60_000,
      },
      {
        requestId: 'r-plain',
        tool: 'custom_tool',
        dangerLevel: 'SAFE',
        params: { answer: 42 },
        expiresAt: Date.now() + 60_000,
        reason: 'Custom tools ask.',
      },
    ];
    await sendToPanel(page, stateMessage(state));
    await waitForRevision('.approval-card');
    const http = page.locator('.approval-card[data-request-id="r-http"]');
    assert.equal(await http.locator('.danger-badge').innerText(), 'CRITICAL');
    assert.match(
      await http.locator('.preview-request').innerText(),
      /HTTP request \(with a body\)\s+POST https:\/\/api\.example\.com\/v1/,
    );
    const mcp = page.locator('.approval-card[data-request-id="r-mcp"]');
    assert.equal(await mcp.locator('.preview-text').innerText(), 'Echoes: hi');
    assert.equal(await mcp.locator('.approval-reason').innerText(), 'This tool call needs your approval.');
    const plain = page.locator('.approval-card[data-request-id="r-plain"]');
    assert.match(await plain.locator('.params-block').innerText(), /"answer": 42/);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'panel-approval-kinds-dark.png'), fullPage: true });
  });

  it('an expired request is shown as denied and cannot be answered', async () => {
    page = await openPanel();
    await sendToPanel(page, stateMessage(approvalState(Date.now() - 1000)));
    await waitForRevision('.approval-card');
    assert.equal(await text('.approval-card .countdown-text'), 'Timed out — denied automatically');
    assert.equal(await page.locator('.approval-card button[data-decision]:enabled').count(), 0);
    await page.locator('.approval-card button[data-decision]').first().click({ force: true });
    assert.deepEqual(await postedMessages(page), [{ type: 'ready' }]);
  });

  it('fits a narrow sidebar without horizontal scrolling', async () => {
    page = await openPanel('dark', 260);
    await sendToPanel(page, stateMessage(approvalState(Date.now() + 60_000)));
    await waitForRevision('.approval-card');
    const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    assert.equal(overflow, 0);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'panel-narrow-dark.png'), fullPage: true });
  });

  it('shows errors with their code and what to do', async () => {
    page = await openPanel();
    await sendToPanel(page, stateMessage(failedState()));
    await waitForRevision('.error-card');
    assert.equal(await text('#session-status'), 'Failed');
    // A title in a person's words; the code on a line of its own, for a bug report (issue 25).
    assert.equal(await text('.error-card .error-head'), 'The API key was refused');
    assert.equal(await text('.error-card .error-code-line'), 'For a bug report: AUTH');
    assert.equal(await text('.error-card .error-message'), 'The model provider rejected the API key (HTTP 401).');
    assert.equal(
      await text('.error-card .error-action'),
      "What to do: Run 'TDD Agent: Set API key' with a valid key, then run the kata again.",
    );
    assert.equal(
      await page.locator('#announcer').innerText(),
      'Problem: The API key was refused. The model provider rejected the API key (HTTP 401).',
    );
    await page.screenshot({ path: path.join(SCREENSHOTS, 'panel-error-dark.png'), fullPage: true });
    // The example panel message of docs/extending.md: "Open the log" posts `openLog`.
    await page.locator('.error-card .error-log button', { hasText: 'Open the log' }).click();
    assert.deepEqual((await waitForPosted(page, 2)).at(-1), { type: 'openLog' });
  });

  it('toolbar buttons post commands; an untrusted workspace disables Run and says why', async () => {
    page = await openPanel();
    await sendToPanel(page, stateMessage(emptyState()));
    await waitForRevision('#empty-state');
    await page.getByRole('button', { name: 'Run TDD kata' }).click();
    await page.getByRole('button', { name: 'Set API key' }).click();
    await page.getByRole('button', { name: 'Open settings' }).click();
    const posted = await waitForPosted(page, 4);
    assert.deepEqual(posted.slice(1), [
      { type: 'command', name: 'runKata' },
      { type: 'command', name: 'setApiKey' },
      { type: 'command', name: 'openSettings' },
    ]);

    await sendToPanel(page, stateMessage(emptyState({ revision: 2, trusted: false })));
    await waitForRevision('#restricted-notice');
    const run = page.getByRole('button', { name: 'Run TDD kata' });
    assert.equal(await run.isDisabled(), true);
    assert.equal(await run.getAttribute('aria-describedby'), 'restricted-notice');
    assert.match(await text('#restricted-notice'), /not trusted, so kata runs and tool execution are disabled/);
    await run.click({ force: true });
    assert.equal((await postedMessages(page)).length, 4, 'a disabled Run posts nothing');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'panel-untrusted-dark.png'), fullPage: true });

    await sendToPanel(page, stateMessage(approvalState(Date.now() + 60_000, 3)));
    await page.getByRole('button', { name: 'Stop kata' }).click();
    assert.deepEqual((await waitForPosted(page, 5))[4], { type: 'command', name: 'stopKata' });
  });

  it("shows the sandbox in use and the ended session's Review / Merge / Delete buttons, which post session actions", async () => {
    page = await openPanel();
    await sendToPanel(page, stateMessage(endedSessionState()));
    await waitForRevision('#session .session-actions');

    // One line; the paths when it is opened (issue 25).
    assert.equal(await text('#session-sandbox'), "Sandbox: bubblewrap — only the session's worktree is writable, no network");
    await page.locator('#session-sandbox > summary').click();
    assert.match(
      await text('#session-sandbox .sandbox-details'),
      /^Sandbox: bubblewrap \(\/usr\/bin\/bwrap\): writes only in .*fizzbuzz-20261122-074300; no network/,
    );
    assert.match(await text('.session-meta'), /Branch tdd\/fizzbuzz-20261122-074300/);
    const header = page.locator('#session .session-actions');
    const labels = (await header.locator('button').allInnerTexts()).map((label) => label.trim());
    assert.deepEqual(
      labels,
      ['Review changes', 'Merge into main', 'Delete session'],
      'a finished, unmerged session that cannot be resumed',
    );
    await header.getByRole('button', { name: /^Review changes/ }).click();
    await header.getByRole('button', { name: /^Merge into main/ }).click();
    await header.getByRole('button', { name: /^Delete session/ }).click();
    const posted = await waitForPosted(page, 4);
    assert.deepEqual(posted.slice(1), [
      { type: 'sessionAction', action: 'review', sessionId: 'fizzbuzz-20261122-074300' },
      { type: 'sessionAction', action: 'merge', sessionId: 'fizzbuzz-20261122-074300' },
      { type: 'sessionAction', action: 'delete', sessionId: 'fizzbuzz-20261122-074300' },
    ]);

    // The repository's other sessions: the interrupted one offers Resume; the merged one no Merge.
    const others = page.locator('#sessions .recorded-session');
    assert.equal(await others.count(), 2, "the header's own session is not listed twice");
    const bowling = page.locator('#sessions .recorded-session[data-session-id="bowling-20261121-160000"]');
    assert.match(await bowling.locator('.status-badge').innerText(), /Interrupted/);
    assert.match(await bowling.locator('.recorded-facts').innerText(), /tdd\/bowling-20261121-160000 · 2 cycles · 2 commits/);
    await bowling.getByRole('button', { name: /^Resume/ }).click();
    assert.deepEqual((await waitForPosted(page, 5))[4], {
      type: 'sessionAction',
      action: 'resume',
      sessionId: 'bowling-20261121-160000',
    });
    const roman = page.locator('#sessions .recorded-session[data-session-id="roman-20261120-090000"]');
    assert.equal(await roman.getByRole('button', { name: /^Merge/ }).count(), 0);
    assert.equal(await roman.locator('.merge-note').innerText(), 'Already merged into main.');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'panel-session-actions-dark.png'), fullPage: true });
  });

  it('offers no Merge while the checkout cannot take one, and says why; a running session has no buttons', async () => {
    page = await openPanel();
    await sendToPanel(
      page,
      stateMessage(endedSessionState(40, repositorySessions({ mergeBlocker: 'the checkout has uncommitted changes' }))),
    );
    await waitForRevision('#session .session-actions');
    const header = page.locator('#session .session-actions');
    assert.equal(await header.getByRole('button', { name: /^Merge/ }).count(), 0);
    assert.equal(
      await header.locator('.merge-note').innerText(),
      'Not mergeable into main now: the checkout has uncommitted changes.',
    );
    assert.deepEqual(
      (await header.locator('button').allInnerTexts()).map((l) => l.trim()),
      ['Review changes', 'Delete session'],
    );

    const running = endedSessionState(41);
    running.session = { ...running.session!, status: 'running', phase: 'TESTING' };
    running.repository!.sessions[0] = { ...running.repository!.sessions[0]!, status: 'running' };
    await sendToPanel(page, stateMessage(running));
    await page.waitForSelector('#session-status:has-text("Running")');
    assert.equal(await page.locator('#session .session-actions').count(), 0, 'no Review/Merge/Delete while the session runs');
    assert.equal(await page.locator('#session-sandbox').count(), 1, 'the sandbox line is shown while it runs');
  });

  it('warns when the sandbox is turned off', async () => {
    page = await openPanel();
    const state = endedSessionState(42);
    state.session = {
      ...state.session!,
      sandboxMode: 'off',
      sandbox: "no OS sandbox (turned off): tests and commands run unconfined, with your user's rights and network",
    };
    await sendToPanel(page, stateMessage(state));
    await waitForRevision('#session-sandbox.sandbox-off');
    assert.equal(
      await text('#session-sandbox'),
      'Sandbox off: tests and commands run unconfined on your machine (setting tddAgent.sandbox).',
    );
  });

  it('shows the project the session works in as one line of the header, under the sandbox', async () => {
    page = await openPanel();
    const state = endedSessionState(43);
    assert.equal(state.session?.project, undefined);
    await sendToPanel(page, stateMessage(state));
    await waitForRevision('#session-sandbox');
    assert.equal(await page.locator('#session-project').count(), 0, 'no profile: no line');
    const project =
      'Python, pytest (`python3 -m pytest`), tests: tests/** in tests/, source: src/sqlhelpers/ — from pyproject.toml';
    await sendToPanel(page, stateMessage({ ...state, revision: 44, session: { ...state.session!, project } }));
    await waitForRevision('#session-project');
    assert.equal(await text('#session-project'), `Project: ${project}`);
    assert.equal(await page.locator('#session-sandbox + #session-project').count(), 1, 'right under the sandbox line');
  });

  it('drops invalid, unknown and stale messages without changing anything, and logs each invalid one', async () => {
    page = await openPanel();
    await sendToPanel(page, stateMessage(finishedState(10)));
    await waitForRevision('#session');
    const before = await page.locator('#root').innerHTML();

    const invalid: unknown[] = [
      'state',
      null,
      { type: 'unknown', state: finishedState(11) },
      { type: 'state' },
      { type: 'state', state: { ...finishedState(12), session: { ...finishedState().session, status: 'hacked' } } },
      {
        type: 'state',
        state: { ...finishedState(13), approvals: [{ requestId: 'x', tool: '<img src=x>', dangerLevel: 'NOPE' }] },
      },
    ];
    for (const message of invalid) await sendToPanel(page, message);
    await sendToPanel(page, stateMessage({ ...failedState(9), instanceId: 'host-1' })); // valid but stale
    const posted = await waitForPosted(page, 1 + invalid.length);
    const logs = posted.slice(1) as Extract<PanelMessage, { type: 'log' }>[];
    assert.equal(logs.length, invalid.length);
    for (const log of logs) {
      assert.equal(log.type, 'log');
      assert.equal(log.level, 'warn');
      assert.match(log.message, /^dropped invalid host→panel message/);
    }
    assert.match(logs[2]!.message, /type unknown/);
    assert.equal(await page.locator('#root').innerHTML(), before, 'nothing changed');
    assert.equal(await text('.session-kata'), 'FizzBuzz');
  });

  /** A finished session whose first tool call is named `tool` and whose first answer is a QA answer `answer`, history open. */
  async function showModelText(tool: string, answer: string): Promise<void> {
    page = await openPanel();
    const state = finishedState();
    state.actions[0] = { ...state.actions[0]!, kind: 'toolCall', tool } as (typeof state.actions)[0];
    state.answers[0] = { ...state.answers[0]!, kind: 'qa', answer } as (typeof state.answers)[0];
    await sendToPanel(page, stateMessage(state));
    await waitForRevision('#session');
    await openEarlierAnswers();
    await openHistory();
  }

  it('renders hostile text as text (no markup from model output)', async () => {
    await showModelText('<img src=x id=pwned>', '<script>window.__pwned = 1</script><b id="bold">x</b>');
    assert.equal(await page.locator('#pwned, #bold').count(), 0);
    assert.equal(await text('li[data-action-id="call-1"] .action-tool'), '<img src=x id=pwned>');
    assert.match(await text('.answer-qa .answer-text'), /^<script>window.__pwned = 1<\/script>/);
    assert.equal(await page.evaluate('window.__pwned'), undefined);
  });

  it('shows bidirectional controls (Trojan Source) as \\x{hhhh} in plain text and in Markdown, and keeps right-to-left text', async () => {
    await showModelText('write_file\u202e', 'if (role !== "user\u202e \u2066// admin\u2069 \u2066") — `code\u202e` שלום');
    assert.equal(await text('li[data-action-id="call-1"] .action-tool'), 'write_file\\x{202e}');
    const answer = await text('.answer-qa .answer-text');
    assert.match(answer, /user\\x\{202e\} \\x\{2066\}\/\/ admin\\x\{2069\} \\x\{2066\}/);
    assert.match(answer, /code\\x\{202e\}/);
    assert.match(answer, /שלום/);
    assert.equal(await page.evaluate('/[\\u202a-\\u202e\\u2066-\\u2069]/.test(document.body.textContent)'), false);
  });

  it('announces for screen readers with the bidirectional controls shown too', async () => {
    page = await openPanel();
    const state = failedState();
    state.errors[0] = { ...state.errors[0]!, message: 'Cannot read notes\u202etxt.exe' };
    await sendToPanel(page, stateMessage(state));
    await waitForRevision('.error-card');
    assert.equal(
      await page.locator('#announcer').innerText(),
      'Problem: The API key was refused. Cannot read notes\\x{202e}txt.exe',
    );
  });

  it('restores from getState after a reload (including an opened section), then takes newer snapshots', async () => {
    page = await openPanel();
    await sendToPanel(page, stateMessage(finishedState(10)));
    await waitForRevision('#session');
    await openHistory();
    // The details' toggle event comes as a task after the click: reload only once the panel saved the opened section.
    const historyKey = await page.locator('details.history').getAttribute('data-key');
    assert.ok(historyKey);
    await page.waitForFunction(
      `(JSON.parse(sessionStorage.getItem('fake-vscode-state') ?? '{}').openDetails ?? []).some(([k, open]) => k === ${JSON.stringify(historyKey)} && open)`,
    );

    await page.reload();
    // No host message yet: the panel shows the persisted snapshot at once and says ready again.
    await page.waitForSelector('#session');
    assert.equal(await text('.session-kata'), 'FizzBuzz');
    assert.equal(await page.locator('.timeline > li').count(), 3);
    assert.equal(await isOpen(page.locator('details.history')), true);
    assert.deepEqual(await waitForPosted(page, 1), [{ type: 'ready' }]);

    // A host that restarted (new instance, revision 1) wins over the persisted revision 10.
    await sendToPanel(page, stateMessage({ ...failedState(1), instanceId: 'host-2' }));
    await page.waitForSelector('.error-card');
    assert.equal(await text('.session-kata'), 'Bowling');
  });
  it("issue 11: the roles' own words: their first line collapsed (wrapped, issue 36), Markdown when opened (code and list items, no script), streaming marked", async () => {
    page = await openPanel('dark', 300);
    const state = finishedState();
    state.actions.push(
      {
        id: 'message-1-tester-1-1',
        role: 'tester',
        kind: 'message',
        cycle: 1,
        text: 'I add a test for `fizzbuzz(3)`:\n\n- returns **Fizz**\n- keeps other numbers\n\n<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">',
        final: true,
        streaming: false,
      },
      {
        id: 'message-2-implementer-1-1',
        role: 'implementer',
        kind: 'message',
        cycle: 2,
        text: 'Reading the failing test first, then writing the smallest',
        final: false,
        streaming: true,
      },
    );
    await sendToPanel(page, stateMessage(state));
    await waitForRevision('#session');
    await openEarlierAnswers();
    await openHistory();

    const report = page.locator('li.role-message[data-action-id="message-1-tester-1-1"]');
    assert.equal(
      await report.locator('details').evaluate((d) => (d as unknown as { open: boolean }).open),
      false,
      'collapsed by default',
    );
    assert.equal((await report.locator('.message-line').innerText()).trim(), 'I add a test for `fizzbuzz(3)`:');
    assert.match(String(await report.locator('summary').getAttribute('aria-label')), /^tester reports \(cycle 1\): I add a test/);
    // The first line only, wrapped rather than cut (issue 36): no taller than three lines of text.
    const lineHeight = await report.locator('summary').evaluate((el) => el.getBoundingClientRect().height);
    assert.ok(lineHeight < 66, `summary height ${lineHeight}`);

    // Opened with the keyboard: Markdown, with code and list items, and nothing that runs.
    await report.locator('summary').focus();
    await page.keyboard.press('Enter');
    assert.equal(await report.locator('details').evaluate((d) => (d as unknown as { open: boolean }).open), true);
    assert.equal(await report.locator('.message-text code').first().innerText(), 'fizzbuzz(3)');
    assert.deepEqual(await report.locator('.message-text li').allInnerTexts(), ['returns Fizz', 'keeps other numbers']);
    assert.equal(await report.locator('.message-text script, .message-text img, [onerror]').count(), 0);
    assert.equal(await page.evaluate('window.__pwned'), undefined, 'no script ran');

    const streaming = page.locator('li.role-message[data-action-id="message-2-implementer-1-1"]');
    assert.match(String(await streaming.locator('summary').getAttribute('aria-label')), /^implementer is writing \(cycle 2\)/);
    assert.equal(await streaming.locator('.message-streaming').count(), 1);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'panel-role-messages-300px.png'), fullPage: true });
  });

  it('issue 11: tokens per role and per cycle, and an estimated cost only when the model has a price', async () => {
    page = await openPanel();
    const state = finishedState();
    state.cycles[0] = {
      ...state.cycles[0]!,
      usage: { input: 1200, output: 300 },
      phases: state.cycles[0]!.phases.map((p, i) =>
        i === 0 ? { ...p, usage: { input: 700, output: 100 } } : i === 1 ? { ...p, usage: { input: 500, output: 200 } } : p,
      ),
    };
    state.session = { ...state.session!, usage: { input: 1200, output: 300 } };
    await sendToPanel(page, stateMessage(state));
    await waitForRevision('.cycle-usage');
    const usage = async (): Promise<string> =>
      (await page.locator('.timeline > li.cycle[data-cycle="1"] .cycle-usage').innerText()).replace(/\s+/g, ' ').trim();
    assert.equal(await usage(), '1.5k tokens — Tester 800 · Implementer 700');
    assert.equal(
      await page
        .locator('#session-totals')
        .innerText()
        .then((t) => t.includes('est. cost')),
      false,
      'unknown model: tokens only',
    );

    const priced = finishedState(11);
    priced.cycles[0] = state.cycles[0]!;
    priced.session = { ...state.session!, price: { input: 2.5, output: 10 } };
    await sendToPanel(page, stateMessage(priced));
    await page.waitForSelector('.cycle-cost');
    assert.equal(await usage(), '1.5k tokens (~$0.0060) — Tester 800 · Implementer 700');
    assert.match((await page.locator('#session-totals').innerText()).replace(/\s+/g, ' '), /est\. cost ~\$0\.0060/);
  });

  it('issue 11: approval cards answer to A, Shift+A / L and D; the newest card takes the focus; Enter and Escape answer nothing', async () => {
    page = await openPanel();
    await page.bringToFront();
    const state = approvalState(Date.now() + 60_000);
    const [first, second] = state.approvals;
    state.approvals = [first!];
    await sendToPanel(page, stateMessage(state));
    await waitForRevision('.approval-card');
    const focusedCard = (): Promise<string | null> =>
      page.evaluate(`document.activeElement?.closest('.approval-card')?.getAttribute('data-request-id') ?? null`);
    assert.equal(await focusedCard(), first!.requestId, 'a new request takes the focus (the panel has it)');
    assert.equal(await page.evaluate(`document.activeElement.tagName`), 'ARTICLE', 'the card itself, not its Approve button');
    assert.match(String(await page.locator('.approval-card').getAttribute('aria-keyshortcuts')), /A Shift\+A L D/);

    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    assert.equal((await postedMessages(page)).length, 1, 'Enter and Escape post nothing');

    await page.keyboard.press('d');
    let posted = await waitForPosted(page, 2);
    assert.deepEqual(posted[1], { type: 'approvalResponse', requestId: first!.requestId, decision: 'deny' });

    const both = approvalState(Date.now() + 60_000, 21);
    both.approvals = [first!, second!];
    await sendToPanel(page, stateMessage(both));
    await page.waitForSelector(`.approval-card[data-request-id="${second!.requestId}"]`);
    assert.equal(await focusedCard(), second!.requestId, 'the newest request takes the focus');
    await page.keyboard.press('Shift+A');
    posted = await waitForPosted(page, 3);
    assert.deepEqual(posted[2], { type: 'approvalResponse', requestId: second!.requestId, decision: 'always' });

    const third = approvalState(Date.now() + 60_000, 22);
    third.approvals = [{ ...second!, requestId: 'req-next-44' }];
    await sendToPanel(page, stateMessage(third));
    await page.waitForSelector('.approval-card[data-request-id="req-next-44"]');
    await page.keyboard.press('a');
    posted = await waitForPosted(page, 4);
    assert.deepEqual(posted[3], { type: 'approvalResponse', requestId: 'req-next-44', decision: 'approve' });
    // Every button has an accessible name.
    assert.deepEqual(
      await page.evaluate(
        `[...document.querySelectorAll('button')].filter((b) => !(b.getAttribute('aria-label') || b.textContent.trim())).map((b) => b.outerHTML)`,
      ),
      [],
    );
  });

  it('issue 11: a new approval does not take the focus from something else being typed in', async () => {
    page = await openPanel();
    await page.evaluate(
      `(() => { const input = document.createElement('input'); input.id = 'typing'; document.body.appendChild(input); input.focus(); })()`,
    );
    await sendToPanel(page, stateMessage(approvalState(Date.now() + 60_000)));
    await waitForRevision('.approval-card');
    assert.equal(await page.evaluate(`document.activeElement?.id`), 'typing');
  });

  it('issue 11: at 300 px the approval buttons, role names, durations and role messages stay within the panel', async () => {
    page = await openPanel('dark', 300);
    const state = approvalState(Date.now() + 60_000);
    state.actions.push({
      id: 'message-1-tester-1-1',
      role: 'refactorer',
      kind: 'message',
      cycle: 1,
      text: 'A very long first line of a report that certainly does not fit into a three hundred pixel wide sidebar at all',
      final: true,
      streaming: false,
    });
    await sendToPanel(page, stateMessage(state));
    await waitForRevision('.approval-card');
    await openHistory();
    const outside =
      await page.evaluate(`[...document.querySelectorAll('.approval-actions button, .phases th, .phase-duration, .action-role, .action-duration, .message-role, .role-message summary, .cycle-usage')]
      .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5 || (el.matches('button, .phases th, .phase-duration, .action-role, .action-duration, .message-role') && el.scrollWidth > el.clientWidth + 1))
      .map((el) => el.className + ': ' + el.textContent)`);
    assert.deepEqual(outside, []);
    assert.equal(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'), 0);
  });
  it('issue 11: a follow-up question is typed under an answer (kept across snapshots) and sent as one message; a follow-up answer says what it follows', async () => {
    page = await openPanel('dark', 300);
    const state = finishedState();
    const qa = state.answers.find((a) => a.kind === 'qa')!;
    await sendToPanel(page, stateMessage(state));
    await waitForRevision('.follow-up-input');
    await openEarlierAnswers();
    const form = page.locator(`article[data-answer-id="${qa.id}"] form.follow-up`);
    await form.getByRole('textbox', { name: 'Follow-up question about this answer' }).fill('And for 45?');
    // A new snapshot (the session goes on) re-renders the panel: the typed question stays.
    await sendToPanel(page, stateMessage(finishedState(11)));
    await page.waitForFunction(`document.querySelector('#session')?.isConnected`);
    assert.equal(await form.getByRole('textbox').inputValue(), 'And for 45?');
    await form.getByRole('textbox').press('Enter');
    const posted = await waitForPosted(page, 2);
    assert.deepEqual(posted[1], { type: 'followUp', answerId: qa.id, question: 'And for 45?' });
    assert.equal(await form.getByRole('textbox').inputValue(), '', 'cleared once sent');
    await form.getByRole('button', { name: 'Ask the follow-up question' }).click();
    assert.equal((await postedMessages(page)).length, 2, 'an empty question is not sent');

    const answered = finishedState(12);
    answered.answers.push({
      kind: 'qa',
      id: 'qa-follow-1',
      question: 'And for 45?',
      answer: 'It returns `FizzBuzz`:\n\n- 45 % 15 === 0',
      confidence: 0.9,
      reasoning: '',
      source: qa.source,
      followUpOf: qa.id,
    });
    await sendToPanel(page, stateMessage(answered));
    const follow = page.locator('article[data-answer-id="qa-follow-1"]');
    await follow.waitFor();
    assert.match(await follow.locator('.answer-follow-up-of').innerText(), /^Follow-up to: /);
    assert.equal(await follow.locator('.answer-text code').innerText(), 'FizzBuzz');
    assert.equal(await follow.locator('.answer-text li').count(), 1);
    assert.equal(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'), 0);
  });
});
