/**
 * A kata session cannot hurt the person's work, seen in a real VS Code (code-server + headless Chromium):
 * the workspace repository has a modified tracked file, an untracked file, an ignored file and a stash
 * entry; the person runs a kata ("Include my uncommitted changes"), reloads the window ("Developer: Reload
 * Window") while an approval card waits, resumes the interrupted session from the panel, reviews its
 * changes in VS Code's diff view and deletes it. After every step the checkout is byte-identical: HEAD,
 * branch, `git status --porcelain --ignored`, the index, `git stash list` and every file, the ignored one
 * included. Every test run of the session runs in bubblewrap (the panel says so).
 */
import * as assert from 'node:assert/strict';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { simpleGit } from 'simple-git';
import { JS_SOURCE_PATH } from '../support/fizzbuzzPlans';
import { fizzbuzzJs } from '../support/fizzbuzzPlans';
import { personRepoState } from '../support/personRepo';
import { scriptedKataModel } from '../support/scriptedKataModel';
import { alwaysAllowUntilFinished, sessionBranches, useWorkbench } from './kataHarness';
import { findWebviewFrame, pickQuickItem, runCommand, screenshot } from './lib';

const TRACKED = 'notes.md';
const UNTRACKED = 'scratch.txt';
const IGNORED = 'secret.env';

/** The person's work in progress: committed notes and .gitignore, a stash entry, then uncommitted edits. */
async function personWorkInProgress(workspace: string): Promise<void> {
  const git = simpleGit(workspace);
  await fsp.writeFile(path.join(workspace, '.gitignore'), `${IGNORED}\n`);
  await fsp.writeFile(path.join(workspace, TRACKED), 'my notes\n');
  await git.add(['.gitignore', TRACKED]).commit('my notes');
  await fsp.writeFile(path.join(workspace, 'stashed.md'), 'stashed work\n');
  await git.add('stashed.md');
  await git.raw(['stash', 'push', '-q', '-m', 'an older stash of mine']);
  await fsp.writeFile(path.join(workspace, TRACKED), 'my notes\nhalf-written, not committed\r\n');
  await fsp.writeFile(path.join(workspace, UNTRACKED), 'untracked thoughts, no final newline');
  await fsp.writeFile(path.join(workspace, IGNORED), 'API_TOKEN=the-person-s-own-ignored-file\n');
}

/** The agent panel's frame (after a reload the panel is found again). */
function panelFrame(page: Page, selector = '#session-status', timeoutMs = 90_000): Promise<Frame> {
  return findWebviewFrame(page, selector, timeoutMs);
}

describe("TDD Agent extension: a session never changes the person's checkout (dirty repository, window reload, resume, review, delete)", function () {
  let before: Record<string, unknown>;
  let sessionId = '';
  const wb = useWorkbench(
    'session-safety',
    {
      'tddAgent.maxCycles': 3,
      'tddAgent.approvalPolicy': { SAFE: 'allow', LOW: 'allow', MEDIUM: 'ask', HIGH: 'ask', CRITICAL: 'ask' },
      'tddAgent.testTimeoutMs': 30_000,
    },
    async (workspace) => {
      await personWorkInProgress(workspace);
      before = await personRepoState(workspace);
    },
  );

  async function assertCheckoutUnchanged(when: string): Promise<void> {
    assert.deepEqual(await personRepoState(wb.workspace), before, `the person's checkout changed ${when}`);
    assert.equal(await fsp.readFile(path.join(wb.workspace, IGNORED), 'utf8'), 'API_TOKEN=the-person-s-own-ignored-file\n');
    assert.match((await simpleGit(wb.workspace).raw(['stash', 'list'])).trim(), /^stash@\{0\}: On main: an older stash of mine$/);
  }

  it('asks where to start (non-modal), runs sandboxed, and a window reload mid-approval leaves the checkout byte-identical', async function () {
    const { page } = wb;
    wb.model.setFallback(scriptedKataModel({ cycles: fizzbuzzJs(3) }).reply);
    await runCommand(page, 'TDD Agent: Run TDD kata');
    await pickQuickItem(page, 'FizzBuzz');

    // The dirty-repository question: a QuickPick whose first item (Enter) starts from the last commit.
    const question = page.locator('.quick-input-widget');
    await question
      .locator('.quick-input-title', { hasText: /uncommitted change\(s\)\. Your checkout will not be changed either way\./ })
      .waitFor({ timeout: 30_000 });
    assert.equal(
      (await question.locator('.monaco-list-row .label-name').first().innerText()).trim(),
      'Start from the last commit',
    );
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no modal dialog');
    await screenshot(page, 'session-safety-dirty-question');
    await pickQuickItem(page, 'Include my uncommitted changes');

    // The first tool call waits on a card; the header says which sandbox confines the session.
    const panel = await panelFrame(page, '.approval-card');
    await panel
      .locator('#session-sandbox', { hasText: /Sandbox: bubblewrap \(.*bwrap\): writes only in / })
      .waitFor({ timeout: 30_000 });
    const branches = await sessionBranches(wb.workspace);
    assert.equal(branches.length, 1, `one session branch, got ${branches.join(', ')}`);
    sessionId = branches[0]!.slice('tdd/'.length);
    assert.match(
      await panel.locator('.session-meta').innerText(),
      new RegExp(`Branch\\s+${branches[0]!.replace(/[/]/g, '\\/')}`),
    );
    // The sandbox line is one line; opened, it says where the session may write (issue 25).
    await panel.locator('#session-sandbox > summary').click();
    const writable = /writes only in ([^;(]+?)(?: \(|;)/.exec(await panel.locator('#session-sandbox').innerText())?.[1] ?? '';
    assert.ok(
      writable.startsWith(await fsp.realpath(wb.cacheDir)),
      `the sandbox writes only in the session worktree under the cache folder, not in the checkout: ${writable}`,
    );
    await assertCheckoutUnchanged('while the session waits for an approval');
    await screenshot(page, 'session-safety-before-reload');

    // Reload the window while the card waits: the extension host goes away with the session.
    const reloaded = page.waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout: 60_000 });
    await runCommand(page, 'Developer: Reload Window');
    await reloaded;
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
    await runCommand(page, 'TDD Agent: Open panel', 60_000);

    // The panel comes back with the session interrupted — no problem card (issue 36) — and offers Resume for exactly
    // that session.
    const after = await panelFrame(page);
    await after.locator('#session-status', { hasText: 'Interrupted' }).waitFor({ timeout: 30_000 });
    assert.equal(await after.locator('.error-card').count(), 0, 'a reload is not filed under Problems');
    const resume = after.locator(
      `#session .session-actions button[data-session-action="resume"][data-session-id="${sessionId}"]`,
    );
    await resume.waitFor({ timeout: 60_000 });
    // The checkout has uncommitted changes, so Merge is not offered; the panel says why.
    assert.match(
      await after.locator('#session .merge-note').innerText(),
      /Not mergeable into main now: the checkout has uncommitted changes\./,
    );
    assert.equal(await after.locator('#session .session-actions button[data-session-action="merge"]').count(), 0);
    await assertCheckoutUnchanged('after the window reload');
    assert.deepEqual(await sessionBranches(wb.workspace), branches, 'the session branch is kept');
    await screenshot(page, 'session-safety-after-reload');
  });

  it('resumes the interrupted session from the panel and finishes it green on the same branch, with the uncommitted files in it', async function () {
    const { page } = wb;
    assert.ok(sessionId, 'the first test found the session');
    wb.model.setFallback(scriptedKataModel({ cycles: fizzbuzzJs(3) }).reply);
    const panel = await panelFrame(page);
    await panel.locator(`#session .session-actions button[data-session-action="resume"][data-session-id="${sessionId}"]`).click();
    await panel.locator('#session-status', { hasText: 'Running' }).waitFor({ timeout: 30_000 });
    const status = await alwaysAllowUntilFinished(panel);
    assert.match(status, /Completed|Max cycles/);
    await assertCheckoutUnchanged('after the resumed session finished');

    const branch = `tdd/${sessionId}`;
    assert.deepEqual(await sessionBranches(wb.workspace), [branch], 'no new session branch: the interrupted one was continued');
    const git = simpleGit(wb.workspace);
    assert.match(await git.show([`${branch}:${JS_SOURCE_PATH}`]), /Fizz/, 'the implementation is on the session branch');
    assert.equal(
      await git.show([`${branch}:${TRACKED}`]),
      'my notes\nhalf-written, not committed\r\n',
      'the modified tracked file was included',
    );
    assert.equal(
      await git.show([`${branch}:${UNTRACKED}`]),
      'untracked thoughts, no final newline',
      'the untracked file was included',
    );
    await assert.rejects(git.show([`${branch}:${IGNORED}`]), 'the ignored file never reaches the session');
    await screenshot(page, 'session-safety-resumed-finished');
  });

  it('"Review changes" opens the session\'s diff in VS Code; "Delete session" asks first, then removes it', async function () {
    const { page } = wb;
    const branch = `tdd/${sessionId}`;
    const panel = await panelFrame(page);
    const actions = panel.locator('#session .session-actions');
    await actions.locator('button[data-session-action="review"]').waitFor({ timeout: 30_000 });

    await actions.locator('button[data-session-action="review"]').click();
    const tab = page.locator('.tabs-container .tab', { hasText: `${branch}: changes since main` });
    await tab.waitFor({ timeout: 30_000 });
    // The changes editor lists the session's files with their content at the branch's tip.
    const editor = page.locator('.editor-group-container.active');
    await editor.getByText(JS_SOURCE_PATH.split('/').pop()!).first().waitFor({ timeout: 30_000 });
    await editor.getByText("return 'Fizz'").first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'session-safety-review');
    await assertCheckoutUnchanged('after the review');

    await actions.locator('button[data-session-action="delete"]').click();
    const dialog = page.locator('.monaco-dialog-box', { hasText: `Delete the session ${sessionId}?` });
    await dialog.waitFor({ timeout: 30_000 });
    assert.match(await dialog.innerText(), /Your checkout and your other branches are not changed\./);
    await dialog.locator('.monaco-button', { hasText: /^Delete session$/ }).click();
    for (let i = 0; i < 100 && (await sessionBranches(wb.workspace)).length > 0; i++) await page.waitForTimeout(200);
    assert.deepEqual(await sessionBranches(wb.workspace), [], 'the session branch was deleted');
    await panel.locator('#session .session-actions').waitFor({ state: 'detached', timeout: 30_000 });
    assert.deepEqual(
      await fsp.readdir(path.join(wb.workspace, '.git', 'tdd-agent', 'sessions')).catch(() => []),
      [],
      'its record is gone',
    );
    await assertCheckoutUnchanged('after the delete');
  });
});

describe('TDD Agent extension without a working OS sandbox', function () {
  let before: Record<string, unknown>;
  // The extension host looks for bubblewrap where there is none (the core's TDD_AGENT_BWRAP override), and
  // the repository's own .vscode/settings.json tries to turn the sandbox off.
  const wb = useWorkbench(
    'no-sandbox',
    {},
    async (workspace) => {
      await fsp.mkdir(path.join(workspace, '.vscode'));
      await fsp.writeFile(path.join(workspace, '.vscode', 'settings.json'), '{ "tddAgent.sandbox": "off" }\n');
      await simpleGit(workspace).add('.vscode/settings.json').commit('a workspace that would turn the sandbox off');
      before = await personRepoState(workspace);
    },
    { TDD_AGENT_BWRAP: '/nonexistent/bwrap' },
  );

  it('ignores the workspace\'s "off", refuses once in VS Code words — in the panel, which is open — and "Open sandbox setting" opens tddAgent.sandbox; nothing was created', async function () {
    const { page } = wb;
    await runCommand(page, 'TDD Agent: Run TDD kata');
    await pickQuickItem(page, 'FizzBuzz');
    const panel = await findWebviewFrame(page, '.error-card', 60_000);
    const card = panel.locator('.error-card', { hasText: 'SANDBOX_UNAVAILABLE' });
    await card.waitFor({ timeout: 30_000 });
    const message = await card.innerText();
    assert.match(message, /No OS sandbox is available here/);
    assert.match(message, /bubblewrap \(bwrap\) is not installed\./, 'the diagnosis says which failure mode it is');
    assert.match(message, /turn the sandbox off in your user settings \(Open sandbox setting\)/);
    assert.doesNotMatch(message, /tddAgent\.sandbox/, 'the button names the setting; the words need no setting id');
    assert.doesNotMatch(message, /--sandbox|--[a-z]/, 'no CLI flags in VS Code');
    await page.waitForTimeout(1500); // a second report would have arrived by now
    assert.equal(
      await page.locator('.notifications-toasts .notification-toast', { hasText: 'No OS sandbox' }).count(),
      0,
      'the panel is open: no notification repeats the card',
    );
    assert.equal(await panel.locator('.error-card', { hasText: 'SANDBOX_UNAVAILABLE' }).count(), 1, 'one error card');
    // Issue 11: a refusal before the session started leaves no failed session ("Cycle 0 of 10 / Branch —", a red status bar).
    assert.equal(await panel.locator('#session').count(), 0, 'no session header for a run that never started');
    assert.doesNotMatch(
      (await page.locator('.statusbar-item').allInnerTexts()).join(' '),
      /TDD failed/,
      'the status bar is not red',
    );
    await screenshot(page, 'no-sandbox-refusal');

    await card.locator('button', { hasText: /^Open sandbox setting$/ }).click();
    const settings = page.locator('.settings-editor');
    await settings.waitFor({ timeout: 30_000 });
    // Listed under User (an application-scoped setting): the person can change it right there.
    const item = settings.locator('.setting-item-contents', { hasText: /Sandbox/ }).first();
    await item.waitFor({ timeout: 30_000 });
    assert.match(await item.innerText(), /Whether kata sessions confine the processes they start/);
    await screenshot(page, 'no-sandbox-open-setting');

    assert.equal(wb.model.chatRequests().length, 0, 'no model call');
    assert.deepEqual(await sessionBranches(wb.workspace), [], 'no session branch');
    assert.deepEqual(await personRepoState(wb.workspace), before, 'the checkout is unchanged');
  });

  it('once the person chooses "off" in that setting, the session runs unconfined and the panel warns about it', async function () {
    const { page } = wb;
    // The Settings editor "Open sandbox setting" showed: pick "off" there, as a person would.
    const item = page.locator('.settings-editor .setting-item-contents', { hasText: /Sandbox/ }).first();
    await item.locator('select').selectOption('off');
    const userSettings = path.join(wb.server.userDataDir, 'User', 'settings.json');
    for (let i = 0; i < 50 && !/"tddAgent\.sandbox":\s*"off"/.test(await fsp.readFile(userSettings, 'utf8')); i++)
      await page.waitForTimeout(200);
    assert.match(
      await fsp.readFile(userSettings, 'utf8'),
      /"tddAgent\.sandbox":\s*"off"/,
      'VS Code saved the choice in the user settings',
    );
    await page.keyboard.press('Escape');

    wb.model.setFallback({ hang: true });
    await runCommand(page, 'TDD Agent: Run TDD kata');
    await pickQuickItem(page, 'FizzBuzz');
    const panel = await findWebviewFrame(page, '#session-sandbox.sandbox-off', 60_000);
    assert.equal(
      await panel.locator('#session-sandbox').innerText(),
      'Sandbox off: tests and commands run unconfined on your machine (setting tddAgent.sandbox).',
    );
    await panel.locator('#session-status', { hasText: 'Running' }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'sandbox-off-warning');
    await runCommand(page, 'TDD Agent: Stop kata');
    await panel.locator('#session-status', { hasText: 'Cancelled' }).waitFor({ timeout: 30_000 });
  });
});
