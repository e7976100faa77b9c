/**
 * Issue 38, VS Code: every language works in the editor as JavaScript does. For a Go module, a Cargo crate, a Ruby gem,
 * a Composer package and a Maven project (the fixtures of test/support/projectShapes.ts, opened as the person's workspace), in a real
 * VS Code (code-server) driven through Chromium: "Start TDD task…" runs the scripted two cycles zero-config (the
 * language, the test command and the folders from the project) with the real toolchain in the sandbox; the panel
 * shows the red run's failing test by name, from the runner's report; a file link opens the file; and the Testing
 * view lists the language's tests from the session's last run and runs them again from there.
 */
import * as assert from 'node:assert/strict';
import { SHAPE_PLANS } from '../support/projectShapePlans';
import { shapeRepository, type ShapeFixture } from '../support/projectShapes';
import { scriptedKataModel } from '../support/scriptedKataModel';
import { EXTENSION_ID, alwaysAllowUntilFinished, useWorkbench } from './kataHarness';
import { eventually, extensionOutputLog, findWebviewFrame, openDetails, runCommand, screenshot } from './lib';

/** Each fixture's language, and the test its second cycle adds (red by identity, then green), as its runner names it. */
const LANGUAGES: ReadonlyArray<{ fixture: ShapeFixture; language: string; secondTest: string }> = [
  { fixture: 'go-module', language: 'Go', secondTest: 'TestBlocksRoundUp' },
  { fixture: 'rust-crate', language: 'Rust', secondTest: 'blocks_round_up' },
  { fixture: 'ruby-gem', language: 'Ruby', secondTest: 'leaves out what is left over' },
  { fixture: 'php-composer', language: 'PHP', secondTest: 'testLimitCutsBetweenWords' },
  { fixture: 'java-maven', language: 'Java', secondTest: 'kebabJoinsWordsWithHyphens' },
];

for (const { fixture, language, secondTest } of LANGUAGES) {
  describe(`TDD Agent in a real VS Code on a ${language} project (${fixture}, issue 38)`, function () {
    const plan = SHAPE_PLANS[fixture];
    const wb = useWorkbench(
      `lang-${fixture}`,
      {
        'tddAgent.maxCycles': 3,
        'tddAgent.approvalPolicy': { SAFE: 'allow', LOW: 'allow', MEDIUM: 'allow', HIGH: 'ask', CRITICAL: 'ask' },
        'tddAgent.testTimeoutMs': 240_000,
      },
      undefined,
      {},
      () => shapeRepository(fixture),
    );

    it('"Start TDD task…" completes two green cycles; the panel names the red test, a file link opens the file', async function () {
      const { page } = wb;
      wb.model.setFallback(scriptedKataModel({ cycles: plan.cycles }).reply);
      await runCommand(page, 'TDD Agent: Start TDD task…');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 30_000 });
      await input.fill(plan.task);
      await input.press('Enter');
      const panel = await findWebviewFrame(page, '#session-status', 90_000);
      assert.match(await alwaysAllowUntilFinished(panel, undefined, 480_000), /Completed/);
      await screenshot(page, `lang-${fixture}-completed`);
      // Zero-config: the language and its runner came from the project, and the notification says it was a task.
      assert.match(await panel.locator('body').innerText(), new RegExp(`Project: ${language}\\b`));
      await page
        .locator('.notifications-toasts .notification-toast', {
          hasText: /Task "Add [^"]*" completed: 3 cycle\(s\), 2 commit\(s\)/,
        })
        .first()
        .waitFor({ state: 'visible', timeout: 30_000 });

      // The second cycle's group: once the session ended only the last cycle's group is open.
      await openDetails(panel.locator('details.history'));
      const second = panel.locator('li.history-cycle[data-cycle="2"]');
      await openDetails(second.locator(':scope > details'));
      // Its red: the second cycle's new test, failing by its identity in the runner's report.
      const red = second.locator('li.action', { has: panel.locator('.test-badge', { hasText: 'red (expected)' }) }).last();
      await red.locator('summary').click();
      const result = await red.locator('pre.result').innerText();
      assert.match(result, /Failing:/, result.slice(0, 800));
      assert.ok(result.includes(secondTest), `the red run names ${secondTest}: ${result.slice(0, 800)}`);

      const edit = second.locator('li.action', { has: panel.locator('.action-file button.file-link') }).last();
      await edit.locator('summary').click();
      const link = edit.locator('.action-file button.file-link');
      const file = (await link.innerText()).trim();
      assert.ok([plan.testPath, plan.sourcePath].includes(file), `a link to what a role wrote: ${file}`);
      await link.click();
      const name = file.split('/').pop()!;
      await page
        .locator('.tabs-container .tab.active', { hasText: new RegExp(`^\\s*${name.replace(/\./g, '\\.')}`) })
        .waitFor({ state: 'visible', timeout: 30_000 });
    });

    it("the Testing view lists the session's tests by the runner's names, and runs them again there", async function () {
      const { page } = wb;
      await runCommand(page, 'Testing: Focus on Test Explorer View');
      await page.locator('.monaco-list-row', { hasText: secondTest }).first().waitFor({ state: 'visible', timeout: 60_000 });
      await screenshot(page, `lang-${fixture}-testing-view`);
      await runCommand(page, 'Test: Run All Tests');
      const output = await eventually(
        () => extensionOutputLog(wb.server, EXTENSION_ID),
        /Testing view: .* passed \(\d+ passed, 0 failed\)/,
        240_000,
      );
      assert.match(output, /Testing view: .* passed \(\d+ passed, 0 failed\)/);
    });
  });
}
