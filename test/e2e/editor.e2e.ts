/**
 * Issue 11, the panel shows the work, in a real VS Code (code-server) driven through Chromium as a
 * person would: "Open diff" on a write_file approval card opens VS Code's diff editor for the file, the
 * failing assertion of the Tester's red run is readable in the panel's history, a file link opens the
 * file, and the kata's tests are listed in the Testing view (and run from there in the session worktree).
 */
import * as assert from 'node:assert/strict';
import type { Frame, Page } from 'playwright-core';
import { fizzbuzzJs, JS_TEST_PATH } from '../support/fizzbuzzPlans';
import { scriptedKataModel } from '../support/scriptedKataModel';
import { EXTENSION_ID, alwaysAllowUntilFinished, useWorkbench } from './kataHarness';
import { eventually, extensionOutputLog, findWebviewFrame, openWorkbench, pickQuickItem, runCommand, screenshot } from './lib';

/** The editor tab whose label contains `text`. */
function tab(page: Page, text: string | RegExp) {
  return page.locator('.tabs-container .tab', { hasText: text }).first();
}

describe('TDD Agent in a real VS Code: diffs, file links and the Testing view (issue 11)', function () {
  const wb = useWorkbench('editor', {
    'tddAgent.maxCycles': 2,
    'tddAgent.approvalPolicy': { SAFE: 'allow', LOW: 'allow', MEDIUM: 'ask', HIGH: 'ask', CRITICAL: 'ask' },
    'tddAgent.testTimeoutMs': 30_000,
  });
  let panel: Frame;

  it('"Open diff" on a write_file approval card opens a diff editor tab for the file', async function () {
    const { page } = wb;
    wb.model.setFallback(scriptedKataModel({ cycles: fizzbuzzJs(2) }).reply);
    await runCommand(page, 'TDD Agent: Run TDD kata');
    await pickQuickItem(page, 'FizzBuzz');
    panel = await findWebviewFrame(page, '.approval-card', 90_000);
    // Approve whatever comes before the Tester's first write (e.g. none), then open that write's diff.
    let card = panel.locator('.approval-card:not(.is-settled)').first();
    for (let i = 0; i < 10 && !/write_file/.test(await card.locator('.approval-tool').innerText()); i++) {
      await card.locator('button[data-decision="approve"]').click();
      await panel
        .locator('.approval-card:not(.is-settled) .approval-tool', { hasText: 'write_file' })
        .first()
        .waitFor({ timeout: 60_000 })
        .catch(() => undefined);
      card = panel.locator('.approval-card:not(.is-settled)').first();
    }
    assert.match(await card.locator('.approval-tool').innerText(), /write_file/);
    await card.getByRole('button', { name: /^Open diff of / }).click();
    await page.locator('.editor-instance .monaco-diff-editor').first().waitFor({ state: 'visible', timeout: 30_000 });
    const diffTab = tab(page, /fizzbuzz\.test\.js.*proposed by the agent/);
    await diffTab.waitFor({ state: 'visible', timeout: 30_000 });
    // The proposed side holds the test the Tester wants to write.
    await page
      .locator('.monaco-diff-editor .editor.modified .view-lines', { hasText: 'returns the number itself for 1' })
      .waitFor({ timeout: 30_000 });
    await screenshot(page, 'editor-open-diff');
    await card.locator('button[data-decision="always"]').click();
    assert.match(await alwaysAllowUntilFinished(panel), /Completed|Max cycles reached/, 'two green cycles (the limit)');
  });

  it("shows the failing assertion of the Tester's red run in the panel", async function () {
    await panel.locator('details.history > summary').click();
    // Cycle 2's red (the last cycle, open), where fizzbuzz(3) still returns '3' (cycle 1's red may be a missing module).
    const red = panel.locator('li.action', { has: panel.locator('.test-badge', { hasText: 'red (expected)' }) }).last();
    await red.locator('summary').click();
    const result = await red.locator('pre.result').innerText();
    assert.match(result, /Failing:/);
    assert.match(
      result,
      /Expected values to be strictly equal|AssertionError/,
      `the assertion is readable: ${result.slice(0, 600)}`,
    );
    assert.match(result, /Fizz/);
  });

  it('a file link in the history opens the file (read-only from the session branch after the session)', async function () {
    const { page } = wb;
    // The last cycle's group is open (issue 25: the history per cycle, oldest first).
    const write = panel.locator('li.action', { has: panel.locator('.action-tool', { hasText: 'write_file' }) }).last();
    await write.locator('summary').click();
    assert.match(await write.locator('pre.diff').innerText(), /^\+[^+]/m, 'the history entry shows a compact diff');
    const link = write.locator('.action-file button.file-link');
    const file = (await link.innerText()).trim();
    await link.click();
    const name = file.split('/').pop()!;
    await page
      .locator('.tabs-container .tab.active', { hasText: new RegExp(`^\\s*${name.replace(/\./g, '\\.')}`) })
      .waitFor({ state: 'visible', timeout: 30_000 });
    await page
      .locator('.editor-instance .monaco-editor .view-lines', { hasText: /fizzbuzz/ })
      .first()
      .waitFor({ timeout: 30_000 });
    assert.ok(file === JS_TEST_PATH || /fizzbuzz\.js$/.test(file), `opened ${file}`);
    await screenshot(page, 'editor-file-link');
  });

  it("lists the kata's tests in the Testing view with the last result, and runs them there in the session worktree", async function () {
    const { page } = wb;
    await runCommand(page, 'Testing: Focus on Test Explorer View');
    const row = page.locator('.monaco-list-row', { hasText: 'returns Fizz for multiples of three' }).first();
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    assert.ok(await page.locator('.monaco-list-row', { hasText: 'returns the number itself for 1' }).first().isVisible());
    await screenshot(page, 'editor-testing-view');
    await runCommand(page, 'Test: Run All Tests');
    const output = await eventually(
      () => extensionOutputLog(wb.server, EXTENSION_ID),
      /Testing view: .* passed \(2 passed, 0 failed\)/,
      60_000,
    );
    assert.match(output, /Testing view: .* passed \(2 passed, 0 failed\)/);
  });

  it('after a window reload, lists the last supervisor run again and runs the tests from there', async function () {
    const { page } = wb;
    const runsLogged = async () =>
      String(
        (await extensionOutputLog(wb.server, EXTENSION_ID)).match(/Testing view: .* passed \(2 passed, 0 failed\)/g)?.length ?? 0,
      );
    const before = Number(await runsLogged());
    await page.reload({ waitUntil: 'domcontentloaded' });
    await openWorkbench(page, wb.server.url);
    // The extension loads its host on its first command (or when its panel opens); the Testing view is filled then.
    await runCommand(page, 'TDD Agent: Open panel', 60_000);
    const reopened = await findWebviewFrame(page, '#session-status', 60_000);
    await reopened.locator('#session-status', { hasText: /Completed|Max cycles reached/ }).waitFor({ timeout: 30_000 });
    await runCommand(page, 'Testing: Focus on Test Explorer View');
    await page
      .locator('.monaco-list-row', { hasText: 'returns Fizz for multiples of three' })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    await screenshot(page, 'editor-testing-view-after-reload');
    // The session's branch and test command came back too: a run from the Testing view works as before the reload.
    await runCommand(page, 'Test: Run All Tests');
    assert.equal(await eventually(runsLogged, new RegExp(`^${before + 1}$`), 60_000), String(before + 1));
  });
});
