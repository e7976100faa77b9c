/**
 * Issue 36, the first hour's second pass, where a person sees it in a real VS Code (code-server + headless Chromium):
 * - a kata in a folder that is not a git repository asks first, in a modal that says what is created (Cancel creates
 *   nothing), and Merge keeps the session's set-up (its empty first commit, the scaffold's .gitkeep files) out of main;
 * - the keyboard: "Open panel" and "Focus on Agent View" while an approval waits put the focus on its card (A
 *   approves; no key approves by default, so not its Approve button); the "proposed by the agent" diff tab closes once the card is answered; the completion
 *   notification offers no "Open panel" while the panel is in view;
 * - the eval command lists the set's katas to tick instead of a free-text box.
 */
import * as assert from 'node:assert/strict';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { simpleGit } from 'simple-git';
import { fizzbuzzJs } from '../support/fizzbuzzPlans';
import { scriptedKataModel } from '../support/scriptedKataModel';
import { alwaysAllowUntilFinished, sessionBranches, useWorkbench } from './kataHarness';
import { findWebviewFrame, pickQuickItem, REPO_ROOT, runCommand, screenshot, waitInFrame } from './lib';

/** The modal dialog whose text matches. */
function dialog(page: Page, text: RegExp) {
  return page.locator('.monaco-dialog-box', { hasText: text });
}

/** What has the keyboard in the panel: the focused element's approval request id, and whether the frame has focus. */
async function panelFocus(panel: Frame): Promise<{ request: string | null; focused: boolean }> {
  return panel.evaluate<{ request: string | null; focused: boolean }>(
    "({ request: document.activeElement?.getAttribute('data-request-id') ?? null, focused: document.hasFocus() })",
  );
}

describe('TDD Agent (issue 36): a folder that is not a git repository is asked about, and the set-up stays out of main', function () {
  const wb = useWorkbench(
    'second-pass-git',
    {
      'tddAgent.maxCycles': 1,
      'tddAgent.approvalPolicy': { SAFE: 'allow', LOW: 'allow', MEDIUM: 'allow', HIGH: 'ask', CRITICAL: 'ask' },
      'tddAgent.testTimeoutMs': 30_000,
    },
    async (workspace) => {
      // A plain folder: no .git, nothing in it.
      await fsp.rm(path.join(workspace, '.git'), { recursive: true, force: true });
      await fsp.rm(path.join(workspace, 'fizzbuzz.kata.md'));
    },
  );

  it('asks before making the folder a git repository, says what is created, and Cancel creates nothing', async function () {
    const { page } = wb;
    await runCommand(page, 'TDD Agent: Run TDD kata');
    await pickQuickItem(page, 'FizzBuzz');
    const ask = dialog(page, /is not a git repository\. Make it one for the session\?/);
    await ask.waitFor({ timeout: 60_000 });
    const text = await ask.innerText();
    assert.match(text, /a \.git folder, with the branch main\. main stays empty/);
    assert.match(text, /empty \.gitkeep files/);
    assert.match(text, /without that set-up \(Merge with the set-up keeps it\)/);
    await screenshot(page, 'issue36-git-prompt');
    await ask.locator('.monaco-button', { hasText: /^Cancel$/ }).click();
    await ask.waitFor({ state: 'detached', timeout: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await assert.rejects(fsp.stat(path.join(wb.workspace, '.git')), 'no repository was created');
  });

  it('"Create git repository" runs the session; Merge brings its work into main without the empty first commit and the .gitkeep files', async function () {
    const { page } = wb;
    wb.model.setFallback(scriptedKataModel({ cycles: fizzbuzzJs(1) }).reply);
    await runCommand(page, 'TDD Agent: Run TDD kata');
    await pickQuickItem(page, 'FizzBuzz');
    const ask = dialog(page, /is not a git repository/);
    await ask.waitFor({ timeout: 60_000 });
    await ask.locator('.monaco-button', { hasText: /^Create git repository$/ }).click();
    const panel = await findWebviewFrame(page, '#session-status', 90_000);
    assert.match(await alwaysAllowUntilFinished(panel), /Completed|Max cycles/);
    const [branch] = await sessionBranches(wb.workspace);
    assert.ok(branch, 'a session branch');
    const git = simpleGit(wb.workspace);
    assert.match(
      await git.raw(['log', '--format=%s', branch!]),
      /initial empty commit/,
      'the session branch began with its set-up',
    );

    await panel.locator('#session .session-actions button[data-session-action="merge"]').click();
    const merge = dialog(page, new RegExp(`Merge \\d+ commits? of ${branch} into main\\?`));
    await merge.waitFor({ timeout: 30_000 });
    const said = await merge.innerText();
    assert.match(said, /Left out: the session's set-up — its empty first commit and the empty placeholder files/);
    assert.doesNotMatch(said, /Commits:[\s\S]*initial empty commit[\s\S]*Files/);
    assert.equal(await merge.locator('.monaco-button', { hasText: /^Merge with the set-up$/ }).count(), 1);
    await screenshot(page, 'issue36-merge-without-setup');
    await merge.locator('.monaco-button', { hasText: /^Merge$/ }).click();
    await panel.locator('#session-notice', { hasText: `Merged ${branch} into main` }).waitFor({ timeout: 30_000 });

    const history = (await git.raw(['log', '--format=%s', 'main'])).trim().split('\n');
    assert.ok(!history.some((subject) => /initial empty commit/.test(subject)), history.join('\n'));
    assert.match(history.at(-1)!, /^chore: scaffold a javascript project for FizzBuzz$/, 'the project files are main’s root');
    const files = (await git.raw(['ls-tree', '-r', '--name-only', 'main'])).trim().split('\n');
    assert.ok(!files.some((file) => /\.gitkeep$/.test(file)), files.join('\n'));
    assert.ok(files.includes('package.json'), files.join('\n'));
    await panel.locator('#session .merge-note', { hasText: 'Already merged into main.' }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'issue36-merged-without-setup');
  });
});

describe('TDD Agent (issue 36): the keyboard reaches a waiting card, no stale diff tab, no "Open panel" on an open panel, katas listed', function () {
  const wb = useWorkbench('second-pass-keys', {
    'tddAgent.maxCycles': 1,
    'tddAgent.approvalPolicy': { SAFE: 'allow', LOW: 'allow', MEDIUM: 'ask', HIGH: 'ask', CRITICAL: 'ask' },
    'tddAgent.testTimeoutMs': 30_000,
  });

  it('"Open panel" and "Focus on Agent View" while an approval waits: its card has the focus, A approves; the proposal’s diff tab closes', async function () {
    const { page } = wb;
    wb.model.setFallback(scriptedKataModel({ cycles: fizzbuzzJs(1) }).reply);
    await runCommand(page, 'TDD Agent: Run TDD kata');
    await pickQuickItem(page, 'FizzBuzz');
    const panel = await findWebviewFrame(page, '.approval-card', 90_000);
    const open = panel.locator('.approval-card:not(.is-settled)');
    // The Tester's first write: its proposal opened in a diff editor (the focus goes to the editor).
    for (let i = 0; i < 10 && !/write_file/.test(await open.first().locator('.approval-tool').innerText()); i++) {
      await open.first().locator('button[data-decision="approve"]').click();
      await panel.locator('.approval-card:not(.is-settled) .approval-tool').first().waitFor({ timeout: 60_000 });
    }
    const card = open.first();
    const id = await card.getAttribute('data-request-id');
    await card.getByRole('button', { name: /^Open diff of / }).click();
    const diffTab = page.locator('.tabs-container .tab', { hasText: /proposed by the agent/ });
    await diffTab.first().waitFor({ state: 'visible', timeout: 30_000 });

    // The side bar shows something else; "Open panel" brings the panel back with the waiting card focused.
    await runCommand(page, 'View: Show Explorer');
    await runCommand(page, 'TDD Agent: Open panel');
    const shown = await findWebviewFrame(page, '.approval-card:not(.is-settled)', 60_000);
    await waitInFrame(shown, `document.activeElement?.getAttribute('data-request-id') === ${JSON.stringify(id)}`);
    assert.deepEqual(await panelFocus(shown), { request: id, focused: true });
    await screenshot(page, 'issue36-open-panel-focus');
    await page.keyboard.press('a');
    await shown
      .locator(`.approval-card[data-request-id="${id}"]`)
      .waitFor({ state: 'detached', timeout: 60_000 })
      .catch(async () => {
        assert.match((await shown.locator(`.approval-card[data-request-id="${id}"]`).getAttribute('class')) ?? '', /is-settled/);
      });
    // The answered card's proposal is stale: its diff tab is closed.
    await diffTab.first().waitFor({ state: 'detached', timeout: 30_000 });

    // The next card, and VS Code's own "Focus on Agent View".
    await shown.locator('.approval-card:not(.is-settled)').first().waitFor({ timeout: 90_000 });
    const next = await shown.locator('.approval-card:not(.is-settled)').first().getAttribute('data-request-id');
    await runCommand(page, 'View: Show Explorer');
    await runCommand(page, 'TDD Agent: Focus on Agent View');
    const again = await findWebviewFrame(page, '.approval-card:not(.is-settled)', 60_000);
    await waitInFrame(again, `document.activeElement?.getAttribute('data-request-id') === ${JSON.stringify(next)}`);
    assert.deepEqual(await panelFocus(again), { request: next, focused: true });
    await screenshot(page, 'issue36-focus-agent-view');
  });

  it('the completion notification offers no "Open panel" while the panel is in view', async function () {
    const { page } = wb;
    const panel = await findWebviewFrame(page, '#session-status', 60_000);
    assert.match(await alwaysAllowUntilFinished(panel), /Completed|Max cycles/);
    const toast = page
      .locator('.notifications-toasts .notification-toast', { hasText: /Kata "FizzBuzz" (completed|max cycles)/ })
      .first();
    await toast.waitFor({ state: 'visible', timeout: 30_000 });
    await screenshot(page, 'issue36-completion-toast');
    assert.equal(await toast.locator('.monaco-button', { hasText: /^Open panel$/ }).count(), 0);
    assert.equal(await toast.locator('.monaco-button', { hasText: /^Review changes$/ }).count(), 1);
  });

  it('"Evaluate the configured model…" lists the katas of the set to tick, not a free-text box', async function () {
    const { page } = wb;
    const set = JSON.parse(await fsp.readFile(path.join(REPO_ROOT, 'katas', 'eval', 'set.json'), 'utf8')) as {
      slug: string;
      languages: Record<string, unknown>;
    }[];
    await runCommand(page, 'TDD Agent: Evaluate the configured model…');
    await pickQuickItem(page, 'javascript');
    const widget = page.locator('.quick-input-widget');
    await widget.locator('.quick-input-title', { hasText: /katas \(\d+ in javascript\)/ }).waitFor({ timeout: 30_000 });
    // A list to tick (a count of the ticked ones), not a free-text box.
    await widget.getByText(/^0 Selected$/).waitFor({ timeout: 30_000 });
    const slugs = set.filter((e) => 'javascript' in e.languages).map((e) => e.slug);
    await widget.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: slugs[0]! }) }).waitFor();
    const shown = await widget.locator('.monaco-list-row .label-name').allInnerTexts();
    // Each row: the kata's name (its title and tags beside and under it), in the set's order.
    const listed = shown.map((label) => label.trim()).filter((label) => slugs.includes(label));
    assert.ok(listed.length >= 5, shown.join(', '));
    assert.deepEqual(listed, slugs.slice(0, listed.length));
    await screenshot(page, 'issue36-eval-katas');
    await page.keyboard.press('Escape');
  });
});
