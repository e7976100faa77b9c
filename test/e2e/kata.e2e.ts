/**
 * The TDD Agent extension as a person uses it, in a real VS Code (code-server) driven through headless
 * Chromium: "TDD Agent: Run TDD kata" from the palette, the kata picked in the QuickPick, the first tool
 * call approved on the panel's approval card, cycles and the status bar updating until the session
 * finishes, and green commits on the session branch of the workspace's git repository.
 *
 * The model is the loopback OpenAI-compatible test server playing FizzBuzz with the scripted kata model
 * (real tool calls: write_file, run_tests); git, the test runner and the extension host are real.
 */
import * as assert from 'node:assert/strict';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { simpleGit } from 'simple-git';
import { scriptedKataModel } from '../support/scriptedKataModel';
import { fizzbuzzJs, JS_SOURCE_PATH } from '../support/fizzbuzzPlans';
import { EXTENSION_ID, alwaysAllowUntilFinished, sessionBranches, useWorkbench } from './kataHarness';
import {
  RESULTS_DIR,
  extensionHostLog,
  extensionOutputLog,
  findWebviewFrame,
  openDetails,
  openWorkbench,
  pickQuickItem,
  answerInputBox,
  runCommand,
  screenshot,
  statusBarText,
  waitForNotification,
  eventually,
} from './lib';

describe('TDD Agent extension in a real VS Code: run a kata end to end', function () {
  const wb = useWorkbench('kata', {
    'tddAgent.maxCycles': 6,
    'tddAgent.approvalPolicy': { SAFE: 'allow', LOW: 'allow', MEDIUM: 'ask', HIGH: 'ask', CRITICAL: 'ask' },
    'tddAgent.testTimeoutMs': 30_000,
  });
  const started = Date.now();

  it('runs "Run TDD kata" from the palette, takes approvals in the panel, and finishes with green commits', async function () {
    const { page, workspace } = wb;
    // Four cycles test every example the kata states, so the Tester's KATA_COMPLETE is taken (issue 35).
    wb.model.setFallback(scriptedKataModel({ cycles: fizzbuzzJs(4) }).reply);
    await runCommand(page, 'TDD Agent: Run TDD kata');
    // The workspace kata is listed first ("In this workspace"), before the bundled FizzBuzz.
    await pickQuickItem(page, 'FizzBuzz');

    // The first tool call that needs a person: a card in the panel with the tool, its danger level and a preview.
    const panel: Frame = await findWebviewFrame(page, '.approval-card', 90_000);
    const card = panel.locator('.approval-card').first();
    assert.equal((await card.locator('.danger-badge').innerText()).trim(), 'MEDIUM');
    assert.match(await card.locator('.approval-tool').innerText(), /write_file|run_tests/);
    await screenshot(page, 'kata-approval-card');
    // Issue 11: answered with the keyboard (A = approve once) on the focused card.
    const firstId = await card.getAttribute('data-request-id');
    await card.press('a');
    await panel
      .locator(`.approval-card[data-request-id="${firstId}"]:not(.is-settled)`)
      .waitFor({ state: 'detached', timeout: 30_000 });

    // From then on: "Always allow" each tool the first time it is asked for, until the session ends.
    let sawRunningStatus = '';
    let runTestsCard = '';
    let midSession = false;
    await alwaysAllowUntilFinished(
      panel,
      async () => {
        sawRunningStatus ||= await statusBarText(page, /TDD \d+\/\d+ (red|green|refactor|starting)/, 500).catch(() => '');
        // Issue 11: mid-session, with no card waiting, a test run and a role's report opened in the history (README's screenshot).
        if (
          !midSession &&
          (await panel.locator('.approval-card:not(.is-settled)').count()) === 0 &&
          (await panel.locator('li.role-message.is-final').count()) > 0 &&
          (await panel.locator('.test-badge').count()) > 0
        ) {
          await showHistoryMidSession(panel);
          // A card that came meanwhile takes the view: try again at the next moment without one.
          if ((await panel.locator('.approval-card:not(.is-settled)').count()) === 0) {
            await screenshot(page, 'kata-mid-session');
            midSession = (await panel.locator('.approval-card:not(.is-settled)').count()) === 0;
          }
        }
      },
      undefined,
      async (pending) => {
        if (/run_tests/.test(await pending.locator('.approval-tool').innerText()))
          runTestsCard ||= await pending
            .locator('.command-line')
            .innerText({ timeout: 1000 })
            .catch(() => '(no command line)');
      },
    );
    assert.equal((await panel.locator('#session-status').innerText()).trim(), 'Completed');
    assert.match(sawRunningStatus, /TDD \d+\/6 /, 'the status bar showed cycle n/N and the phase while the kata ran');

    // The panel shows the finished cycles, each with a commit.
    const cycles = panel.locator('.timeline > li.cycle');
    assert.ok((await cycles.count()) >= 3, 'three or more cycles in the timeline');
    const finalStatus = await statusBarText(page, /TDD done/);
    assert.match(finalStatus, /TDD done \d+\/6 ✓\d+ ✗0 .*tok/);
    await screenshot(page, 'kata-finished-panel');

    // Issue 11: the roles' own words are in the history (a report is final), and each cycle shows its tokens per role.
    if (!(await panel.locator('details.history').evaluate((d) => (d as unknown as { open: boolean }).open)))
      await panel.locator('details.history > summary').click();
    const reports = await panel.locator('li.role-message.is-final .message-line').allTextContents();
    assert.ok(
      reports.some((line) => /^returns the number itself/.test(line.trim())),
      `the Tester's report is visible: ${JSON.stringify(reports.slice(0, 5))}`,
    );
    // The README's picture of a finished session's history: grouped per cycle and role, the first two cycles opened,
    // each entry one line.
    await panel
      .evaluate(
        `(() => {
        for (const d of document.querySelectorAll('.history-cycle li details[open]')) d.open = false;
        const cycles = [...document.querySelectorAll('.history-cycle > details')];
        cycles.forEach((d, i) => (d.open = i < 2));
        document.querySelector('#actions')?.scrollIntoView({ block: 'start' });
      })()`,
      )
      .catch(() => undefined);
    assert.ok((await panel.locator('.history-cycles > .history-cycle').count()) >= 3, 'the history is grouped per cycle');
    await screenshot(page, 'kata-history-grouped');
    const usage = await panel.locator('.timeline > li.cycle .cycle-usage').allInnerTexts();
    assert.ok(
      usage.length >= 3 && usage.every((line) => /^\d[\d.]*k? tokens( \(.*\))? — Tester \d/.test(line.trim())),
      `tokens per cycle and role: ${JSON.stringify(usage)}`,
    );

    // The workspace's git history: a session branch with the green commits; the person never left main.
    const git = simpleGit(workspace);
    assert.equal((await git.revparse(['--abbrev-ref', 'HEAD'])).trim(), 'main');
    const branches = await sessionBranches(workspace);
    assert.equal(branches.length, 1, `one session branch, got ${branches.join(', ')}`);
    const log = await git.log({ from: 'main', to: branches[0]! });
    const messages = log.all.map((c) => c.message);
    assert.ok(messages.length >= 3, `at least three commits on the session branch: ${messages.join(' | ')}`);
    // Issue 11: each cycle's hash is its own feat: commit (as in git log), and the run_tests card showed its command.
    const feats = new Map(log.all.filter((c) => c.message.startsWith('feat:')).map((c) => [c.hash, c.message]));
    const shown = await panel
      .locator('.timeline button.commit[data-sha]')
      .evaluateAll((els) =>
        els
          .filter((el) => !/refactor/i.test(el.getAttribute('aria-label') ?? ''))
          .map((el) => [
            el.getAttribute('data-sha') ?? '',
            el.closest('.cycle')?.querySelector('.cycle-subject')?.textContent ?? '',
          ]),
      );
    assert.ok(shown.length >= 3, `hashes shown: ${JSON.stringify(shown)}`);
    for (const [sha, subject] of shown) {
      assert.ok(feats.has(sha!), `cycle hash ${sha} is a feat: commit of the session branch`);
      assert.equal(subject, feats.get(sha!), 'the hash sits next to its own subject');
    }
    if (runTestsCard)
      assert.match(
        runTestsCard,
        /^(node|npm|npx)\b.*test/,
        `the run_tests card shows the command that will run: ${runTestsCard}`,
      );
    const source = await git.show([`${branches[0]}:${JS_SOURCE_PATH}`]);
    assert.match(source, /Buzz/, 'the final implementation is on the session branch');
  });

  it('restores the finished session in the panel after the window is reloaded', async function () {
    const { page } = wb;
    await page.reload({ waitUntil: 'domcontentloaded' });
    await openWorkbench(page, wb.server.url);
    await runCommand(page, 'TDD Agent: Open panel');
    const panel = await findWebviewFrame(page, '#session-status', 60_000);
    await panel.locator('#session-status', { hasText: 'Completed' }).waitFor({ timeout: 30_000 });
    assert.ok((await panel.locator('.timeline > li.cycle').count()) >= 3);
    assert.equal(await panel.locator('.approval-card').count(), 0, 'no stale approval cards');
  });

  it('"Stop kata" cancels a running session: the waiting model call is aborted and the panel says Cancelled', async function () {
    const { page } = wb;
    wb.model.setFallback({ hang: true });
    const before = wb.model.chatRequests().length;
    await runCommand(page, 'TDD Agent: Run TDD kata');
    await pickQuickItem(page, 'FizzBuzz');
    const panel = await findWebviewFrame(page, '#session-status', 60_000);
    await panel.locator('#session-status', { hasText: 'Running' }).waitFor({ timeout: 30_000 });
    // Wait until the tester's model call is in flight (the server holds it open).
    for (let i = 0; i < 100 && wb.model.chatRequests().length === before; i++) await page.waitForTimeout(200);
    assert.ok(wb.model.chatRequests().length > before, 'the session called the model');
    await runCommand(page, 'TDD Agent: Stop kata');
    await panel.locator('#session-status', { hasText: 'Cancelled' }).waitFor({ timeout: 30_000 });
    await statusBarText(page, /TDD stopped/);
    assert.equal(
      (await simpleGit(wb.workspace).revparse(['--abbrev-ref', 'HEAD'])).trim(),
      'main',
      "back on the person's branch",
    );
  });

  it('offers to resume the stopped session, and the resumed session finishes green on the same branch', async function () {
    const { page } = wb;
    wb.model.setFallback(scriptedKataModel({ cycles: fizzbuzzJs(4) }).reply);
    const branchesBefore = await sessionBranches(wb.workspace);
    await runCommand(page, 'TDD Agent: Run TDD kata');
    await pickQuickItem(page, 'FizzBuzz');
    // A QuickPick, not a modal: its first item (what Enter takes) starts a new session, never resumes.
    const question = page.locator('.quick-input-widget');
    await question
      .locator('.quick-input-title', { hasText: /an earlier session of "FizzBuzz" was cancelled/ })
      .waitFor({ timeout: 30_000 });
    const rows = question.locator('.monaco-list-row .label-name');
    assert.equal((await rows.first().innerText()).trim(), 'Start a new session');
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no modal dialog');
    await pickQuickItem(page, 'Resume the earlier session');
    const panel = await findWebviewFrame(page, '#session-status', 60_000);
    // The header still says Cancelled until the resumed session's first snapshot arrives.
    await panel.locator('#session-status', { hasText: 'Running' }).waitFor({ timeout: 30_000 });
    assert.equal(await alwaysAllowUntilFinished(panel), 'Completed');
    const branchesAfter = await sessionBranches(wb.workspace);
    assert.deepEqual(branchesAfter, branchesBefore, 'no new session branch: the stopped one was continued');
  });

  it('activated lazily on its command, and logged how long activate() took', async function () {
    const hostLog = await eventually(() => extensionHostLog(wb.server), new RegExp(`_doActivateExtension ${EXTENSION_ID}`));
    assert.match(
      hostLog,
      new RegExp(`_doActivateExtension ${EXTENSION_ID}, startup: false, activationEvent: '(onCommand|onView):tddAgent\\.`),
    );
    const output = await eventually(() => extensionOutputLog(wb.server, EXTENSION_ID), /activated in [\d.]+ ms/);
    const activationMs = Number(/activated in ([\d.]+) ms/.exec(output)?.[1]);
    const hostMs = Number(/host loaded in ([\d.]+) ms/.exec(output)?.[1]);
    assert.ok(Number.isFinite(activationMs), `no activation time in the output channel:\n${output.slice(0, 2000)}`);
    // Recorded for docs/benchmarks.md (no timing assertion: shared machines are noisy).
    await fsp.mkdir(RESULTS_DIR, { recursive: true });
    await fsp.writeFile(
      path.join(RESULTS_DIR, 'activation.json'),
      JSON.stringify(
        {
          activationMs,
          hostLoadMs: Number.isFinite(hostMs) ? hostMs : null,
          e2eSeconds: Math.round((Date.now() - started) / 1000),
          at: new Date().toISOString(),
        },
        null,
        2,
      ),
    );
    // The API key never reaches the output channel (none is set; the kata ran without one).
    assert.doesNotMatch(output, /sk-[A-Za-z0-9]{10,}/);
  });
});

describe('TDD Agent extension in Restricted Mode (untrusted workspace)', function () {
  const wb = useWorkbench('restricted', { 'security.workspace.trust.enabled': true }, (workspace) =>
    fsp.writeFile(path.join(workspace, 'sum.js'), 'function sum(a, b) {\n  return a + b;\n}\n\nmodule.exports = { sum };\n'),
  );

  it('refuses to run a kata and says why: in the panel while it is open, in a notification while it is hidden', async function () {
    const { page } = wb;
    await runCommand(page, 'TDD Agent: Open panel');
    const panel = await findWebviewFrame(page, '#restricted-notice', 60_000);
    assert.match(await panel.locator('#restricted-notice').innerText(), /not trusted/);
    assert.equal(await panel.locator('button[data-command="runKata"]').isDisabled(), true);

    await runCommand(page, 'TDD Agent: Run TDD kata');
    const card = panel.locator('.error-card', { hasText: 'UNTRUSTED_WORKSPACE' });
    await card.waitFor({ timeout: 30_000 });
    assert.match(await card.innerText(), /Restricted Mode/);
    assert.equal(await card.locator('button', { hasText: 'Manage Workspace Trust' }).count(), 1);
    assert.equal(await page.locator('.notifications-toasts .notification-toast', { hasText: /Restricted Mode/ }).count(), 0);

    // With the panel hidden (the Explorer in its place), the refusal comes as a notification.
    await runCommand(page, 'View: Show Explorer');
    await runCommand(page, 'TDD Agent: Run TDD kata');
    await waitForNotification(page, /Restricted Mode/);
    assert.equal(wb.model.chatRequests().length, 0, 'no model call was made');
    assert.equal((await sessionBranches(wb.workspace)).length, 0, 'no session branch');
    await screenshot(page, 'restricted-mode-refusal');
  });

  it('still answers a question about selected code (QA agent) and shows it in the panel', async function () {
    const { page } = wb;
    wb.model.enqueue({ json: { answer: 'It returns the sum of a and b.', confidence: 0.9, reasoning: 'line 2 returns a + b' } });
    // Quick Open: type the name, then pick the file once the search has listed it.
    await page.keyboard.press('Control+P');
    const quickOpen = page.locator('.quick-input-widget .quick-input-box input');
    await quickOpen.waitFor({ state: 'visible', timeout: 30_000 });
    await quickOpen.fill('sum.js');
    await pickQuickItem(page, /^sum\.js$/);
    const editor = page.locator('.monaco-editor .view-lines').first();
    await editor.waitFor({ timeout: 30_000 });
    await editor.click();
    await page.keyboard.press('Control+A');
    await runCommand(page, 'TDD Agent: Ask about selection');
    await answerInputBox(page, 'What does sum return?');
    const panel = await findWebviewFrame(page, '.answer-qa', 60_000);
    assert.equal((await panel.locator('.answer-qa .answer-text').first().innerText()).trim(), 'It returns the sum of a and b.');
    const request = wb.model.chatRequests().at(-1)!.body;
    assert.match(JSON.stringify(request.messages), /What does sum return\?/);
    assert.match(JSON.stringify(request.messages), /return a \+ b/, 'the selection is the context');
    assert.match(JSON.stringify(request.messages), /File: sum\.js \(language: javascript\)/, 'with the file name and language');
    await screenshot(page, 'restricted-mode-qa-answer');

    // Issue 11: a follow-up asked in the panel goes to the same agent with the previous Q/A; its Markdown answer renders <code> and <li> and runs no script.
    wb.model.enqueue({
      json: {
        answer:
          'Use `sum(a, b)`:\n\n- adds a and b\n- returns a number\n\n<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">',
        confidence: 0.8,
        reasoning: '',
      },
    });
    const followUp = panel.locator('.answer-qa form.follow-up input').first();
    await followUp.fill('And how do I call it?');
    await followUp.press('Enter');
    const second = panel
      .locator('.answer-qa')
      .filter({ has: panel.locator('.answer-follow-up-of') })
      .first();
    await second.waitFor({ timeout: 60_000 });
    assert.equal(await second.locator('.answer-text code').first().innerText(), 'sum(a, b)');
    assert.deepEqual(await second.locator('.answer-text li').allInnerTexts(), ['adds a and b', 'returns a number']);
    assert.equal(await second.locator('script, img').count(), 0);
    assert.equal(await panel.evaluate('window.__pwned'), undefined, 'no script ran');
    const followUpRequest = JSON.stringify(wb.model.chatRequests().at(-1)!.body.messages);
    assert.match(followUpRequest, /And how do I call it\?/);
    assert.match(followUpRequest, /Previous question: What does sum return\?/);
    assert.match(followUpRequest, /It returns the sum of a and b\./);
  });
});

/** Opens the action history with its newest test run and the newest role report expanded, scrolled into view. */
async function showHistoryMidSession(panel: Frame): Promise<void> {
  // The history by a click, as a person opens it: the panel keeps only the person's opening across renders.
  await openDetails(panel.locator('details.history')).catch(() => undefined);
  await panel
    .evaluate(
      `(() => {
      const lastTest = [...document.querySelectorAll('li.action')].find((li) => li.querySelector('.test-badge'));
      const lastReport = document.querySelector('li.role-message.is-final');
      for (const li of [lastTest, lastReport]) {
        const details = li && li.querySelector('details');
        if (details) details.open = true;
      }
      const actions = document.querySelector('#actions');
      if (actions) actions.scrollIntoView({ block: 'start' });
    })()`,
    )
    .catch(() => undefined);
}
