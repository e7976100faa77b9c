/**
 * The first hour in VS Code (issue 25), in a real VS Code (code-server + headless Chromium):
 * - a freshly `git init`ed folder (main has no commit): a session, then "Merge into main" asks in a modal what will
 *   arrive and merges; the outcome is told in the panel;
 * - nothing stale: staging or unstaging a file outside VS Code shows or takes away the "Not mergeable" note at once
 *   (the repository is watched), and "Delete session" takes the session off the panel and the status bar;
 * - the first-run card: no model and no sandbox are said with buttons that fix them (a served model picked from the
 *   server's list), and each item goes as soon as it is fixed, and the error card of the wrong model with it;
 * - one test state: after a red refactoring was rolled back, the header, the status bar and the Testing view (before
 *   any run of its own) show the committed tests; a Testing-view run of a branch with two tests now shows 2 in all three;
 * - a commit the person makes in a terminal takes "Not mergeable: uncommitted changes" away at once;
 * - a kata whose front matter is not valid YAML: the error card's whole reason, its link to the file at the line, and
 *   what to do.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { simpleGit } from 'simple-git';
import { fizzbuzzJs, JS, JS_SOURCE_PATH, JS_TEST_PATH } from '../support/fizzbuzzPlans';
import { scriptedKataModel } from '../support/scriptedKataModel';
import { alwaysAllowUntilFinished, EXTENSION_ID, GIT_ENV, sessionBranches, useWorkbench } from './kataHarness';
import { answerInputBox, eventually, extensionOutputLog, findWebviewFrame, pickQuickItem, runCommand, screenshot } from './lib';

/** Runs the bundled FizzBuzz kata from the palette and answers its cards until it ends; resolves to the panel. */
async function runFizzBuzz(page: Page): Promise<Frame> {
  await runCommand(page, 'TDD Agent: Run TDD kata');
  await pickQuickItem(page, 'FizzBuzz');
  const panel = await findWebviewFrame(page, '#session-status', 90_000);
  assert.match(await alwaysAllowUntilFinished(panel), /Completed|Max cycles/);
  return panel;
}

/** A Refactorer's turn that breaks the cycle-1 test (numbers instead of strings): the supervisor rolls it back. */
const breakingRefactor = (k: number) => ({
  writes: [{ path: JS_SOURCE_PATH, content: `export function fizzbuzz(n) {\n  return n; // attempt ${k}\n}\n` }],
  report: `inline the conversion (${k})`,
});

/** Commits `files` onto `branch` without checking it out (a temporary index): a commit the person adds to the branch. */
function commitOnBranch(repository: string, branch: string, files: Record<string, string>, message: string): void {
  const index = path.join(os.tmpdir(), `e2e-index-${process.pid}-${Date.now()}`);
  const env = { ...process.env, ...GIT_ENV, GIT_INDEX_FILE: index };
  const git = (args: string[], input?: string) => execFileSync('git', args, { cwd: repository, env, input }).toString().trim();
  try {
    git(['read-tree', branch]);
    for (const [file, content] of Object.entries(files))
      git(['update-index', '--add', '--cacheinfo', `100644,${git(['hash-object', '-w', '--stdin'], content)},${file}`]);
    git(['update-ref', `refs/heads/${branch}`, git(['commit-tree', git(['write-tree']), '-p', branch, '-m', message])]);
  } finally {
    execFileSync('rm', ['-f', index]);
  }
}

/** The text of the status bar's TDD item. */
/**
 * Merge is offered; then the person writes notes.txt and stages it with git outside VS Code, and the panel's merge
 * note says why Merge is not offered. Returns that git (in the workspace), the Merge button and the note.
 */
async function stageNotesOutside(panel: Frame, workspace: string) {
  const merge = panel.locator('#session .session-actions button[data-session-action="merge"]');
  await merge.waitFor({ timeout: 30_000 });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, env: { ...process.env, ...GIT_ENV } });
  await fsp.writeFile(path.join(workspace, 'notes.txt'), 'my notes\n');
  git('add', 'notes.txt');
  const note = panel.locator('#session .merge-note', { hasText: /uncommitted changes/ });
  await note.waitFor({ timeout: 30_000 });
  return { git, merge, note };
}

async function tddStatusItem(page: Page): Promise<string> {
  return (await page.locator('.statusbar-item').allInnerTexts()).filter((t) => /TDD/.test(t)).join(' | ');
}

describe('TDD Agent extension: merge into a freshly git-initialised folder, and nothing stale afterwards', function () {
  const wb = useWorkbench(
    'first-hour-merge',
    {
      'tddAgent.maxCycles': 1,
      'tddAgent.approvalPolicy': { SAFE: 'allow', LOW: 'allow', MEDIUM: 'allow', HIGH: 'ask', CRITICAL: 'ask' },
      'tddAgent.testTimeoutMs': 30_000,
    },
    async (workspace) => {
      // `git init` in an empty folder: main has no commit.
      await fsp.rm(path.join(workspace, '.git'), { recursive: true, force: true });
      await fsp.rm(path.join(workspace, 'fizzbuzz.kata.md'));
      await simpleGit(workspace).init(['--initial-branch=main']);
      await fsp.writeFile(path.join(workspace, '.git', 'info', 'exclude'), 'secret.env\n');
      await fsp.writeFile(path.join(workspace, 'secret.env'), 'TOKEN=the-person-s-own\n');
    },
  );

  it('runs a session in a freshly git-initialised folder; staging a file outside VS Code blocks Merge at once, unstaging it lifts that', async function () {
    const { page } = wb;
    wb.model.setFallback(scriptedKataModel({ cycles: fizzbuzzJs(1) }).reply);
    const panel = await runFizzBuzz(page);
    // The person stages a file in a terminal: the panel says why Merge is not offered, with no focus change...
    const { git, merge, note } = await stageNotesOutside(panel, wb.workspace);
    await screenshot(page, 'first-hour-staged-outside');
    // ...and unstages it again: the note goes and Merge comes back.
    git('rm', '--cached', '-q', 'notes.txt');
    await merge.waitFor({ timeout: 30_000 });
    assert.equal(await note.count(), 0);
  });

  it('"Merge into main" on an unborn main: a modal says what arrives, main gets the commits, the panel says so', async function () {
    const { page } = wb;
    const panel = await findWebviewFrame(page, '#session-status', 30_000);
    const [branch] = await sessionBranches(wb.workspace);
    assert.ok(branch, 'a session branch');
    await panel.locator('#session .session-actions button[data-session-action="merge"]').click();

    const dialog = page.locator('.monaco-dialog-box', { hasText: new RegExp(`Merge \\d+ commits? of ${branch} into main\\?`) });
    await dialog.waitFor({ timeout: 30_000 });
    const text = await dialog.innerText();
    assert.match(text, /main has no commit yet/);
    assert.match(text, /Files \(\d+\):/);
    assert.match(text, /A .*fizzbuzz/i);
    await screenshot(page, 'first-hour-merge-modal');
    await dialog.locator('.monaco-button', { hasText: /^Merge$/ }).click();

    await panel
      .locator('#session-notice', { hasText: `Merged ${branch} into main as its first history` })
      .waitFor({ timeout: 30_000 });
    const git = simpleGit(wb.workspace);
    assert.equal((await git.revparse(['main'])).trim(), (await git.revparse([branch!])).trim());
    assert.equal((await git.raw(['status', '--porcelain', '--untracked-files=no'])).trim(), '', 'the files are checked out');
    assert.equal(await fsp.readFile(path.join(wb.workspace, 'secret.env'), 'utf8'), 'TOKEN=the-person-s-own\n');
    assert.equal(await fsp.readFile(path.join(wb.workspace, 'notes.txt'), 'utf8'), 'my notes\n');
    await panel.locator('#session .merge-note', { hasText: 'Already merged into main.' }).waitFor({ timeout: 30_000 });
    assert.equal(
      await page.locator('.notifications-toasts .notification-toast', { hasText: /Merge it yourself|conflicts/ }).count(),
      0,
      'no talk of conflicts',
    );
    await screenshot(page, 'first-hour-merged');
  });

  it('"Delete session" takes the session off the panel and the status bar at once', async function () {
    const { page } = wb;
    const panel = await findWebviewFrame(page, '#session-status', 30_000);
    const sessionId = await panel.locator('#session .session-actions').getAttribute('data-session-id');
    assert.ok(sessionId);
    await panel.locator('#session .session-actions button[data-session-action="delete"]').click();
    const dialog = page.locator('.monaco-dialog-box', { hasText: `Delete the session ${sessionId}?` });
    await dialog.waitFor({ timeout: 30_000 });
    await dialog.locator('.monaco-button', { hasText: /^Delete session$/ }).click();
    await panel.locator('#session').waitFor({ state: 'detached', timeout: 30_000 });
    await panel.locator('#session-notice', { hasText: `Deleted the session ${sessionId}` }).waitFor({ timeout: 30_000 });
    const ended = /done|max cycles|failed|stopped|✓|✗/;
    for (let i = 0; i < 50 && ended.test(await tddStatusItem(page)); i++) await page.waitForTimeout(200);
    assert.doesNotMatch(await tddStatusItem(page), ended, 'the status bar no longer shows the deleted session');
    await screenshot(page, 'first-hour-deleted');
  });
});

describe('TDD Agent extension: the first-run card', function () {
  const wb = useWorkbench(
    'first-run',
    // Nothing configured: no key, no base URL, no Ollama where it is looked for.
    { 'tddAgent.provider': 'auto', 'tddAgent.baseUrl': '', 'tddAgent.model': '', 'tddAgent.ollamaHost': 'http://127.0.0.1:9' },
    undefined,
    { TDD_AGENT_BWRAP: '/nonexistent/bwrap' },
  );

  it('says no model and no sandbox are there, with buttons that fix them; each item goes once fixed', async function () {
    const { page } = wb;
    await runCommand(page, 'TDD Agent: Open panel');
    const panel = await findWebviewFrame(page, '#setup', 60_000);
    const model = panel.locator('#setup [data-setup-item="model"]');
    const sandbox = panel.locator('#setup [data-setup-item="sandbox"]');
    await model.locator('text=No model is configured').waitFor({ timeout: 30_000 });
    assert.deepEqual(
      (await model.locator('button').allInnerTexts()).map((t) => t.trim()),
      ['Set API key', 'Choose provider or base URL'],
    );
    await sandbox.locator('text=No OS sandbox works here').waitFor({ timeout: 30_000 });
    assert.match(await sandbox.innerText(), /bubblewrap \(bwrap\) is not installed/);
    await screenshot(page, 'first-run-card');

    // The Settings editor takes the empty default Base URL as valid: no red "URI expected".
    await panel.locator('button[data-command="openSettings"]').first().click();
    const baseUrl = page.locator('.settings-editor .setting-item-contents', { hasText: /Base Url/ }).first();
    await baseUrl.waitFor({ timeout: 30_000 });
    await page.waitForTimeout(1000); // validation runs as the item renders
    assert.equal(await page.locator('.settings-editor').getByText('URI expected').count(), 0, 'no "URI expected"');
    assert.equal(await baseUrl.locator('.setting-item-validation-message:visible').count(), 0);
    await screenshot(page, 'first-run-settings-base-url');
    // This VS Code shows the Settings editor as a modal: close it.
    for (let i = 0; i < 5 && (await page.locator('.monaco-modal-editor-block').count()) > 0; i++) {
      await page.keyboard.press('Escape');
      await page.waitForTimeout(300);
    }
    await page.locator('.monaco-modal-editor-block').waitFor({ state: 'detached', timeout: 10_000 });

    // An OpenAI-compatible server by its base URL, then a model from the ones it serves.
    await model.locator('button', { hasText: 'Choose provider or base URL' }).click();
    await pickQuickItem(page, 'An OpenAI-compatible server');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 30_000 });
    await input.fill('');
    await answerInputBox(page, wb.model.baseURL);
    await pickQuickItem(page, 'test-model');
    await model.waitFor({ state: 'detached', timeout: 30_000 });
    const userSettings = await eventually(
      () => fsp.readFile(path.join(wb.server.userDataDir, 'User', 'settings.json'), 'utf8'),
      /"tddAgent\.model":\s*"test-model"/,
    );
    assert.equal((JSON.parse(userSettings) as Record<string, unknown>)['tddAgent.baseUrl'], wb.model.baseURL);

    // The sandbox's fix: the cause and the commands, per distribution.
    await sandbox.locator('button', { hasText: 'Show the fix' }).click();
    const editor = page.locator('.editor-group-container.active');
    await editor.getByText('Why no OS sandbox works here').first().waitFor({ timeout: 30_000 });
    await editor.getByText('sudo apt-get install bubblewrap').first().waitFor({ timeout: 30_000 });
    assert.equal(await panel.locator('#setup [data-setup-item="sandbox"]').count(), 1, 'not fixed yet: still there');
    await screenshot(page, 'first-run-sandbox-fix');
  });

  it('a model the server does not serve: the card and the error card offer the picker of served models', async function () {
    const { page } = wb;
    // The repository's own settings name a model the server does not serve.
    await fsp.mkdir(path.join(wb.workspace, '.vscode'), { recursive: true });
    await fsp.writeFile(path.join(wb.workspace, '.vscode', 'settings.json'), '{ "tddAgent.model": "no-such-model" }\n');
    const git = (...args: string[]) => execFileSync('git', args, { cwd: wb.workspace, env: { ...process.env, ...GIT_ENV } });
    git('add', '.vscode/settings.json');
    git('commit', '-q', '-m', 'a model of our own');
    const panel = await findWebviewFrame(page, '#setup', 60_000);
    const model = panel.locator('#setup [data-setup-item="model"]');
    await model.locator("text=The model 'no-such-model' is not served").waitFor({ timeout: 30_000 });
    assert.deepEqual(
      (await model.locator('button').allInnerTexts()).map((t) => t.trim()),
      ['Pick a model'],
    );

    // The sandbox turned off in the setting its button opens (a user setting), as the person decides.
    await panel.locator('#setup [data-setup-item="sandbox"] button', { hasText: 'Open sandbox setting' }).click();
    const item = page.locator('.settings-editor .setting-item-contents', { hasText: /Sandbox/ }).first();
    await item.waitFor({ timeout: 30_000 });
    await item.locator('select').selectOption('off');
    await panel.locator('#setup [data-setup-item="sandbox"]').waitFor({ state: 'detached', timeout: 30_000 });
    await page.keyboard.press('Escape');

    await runCommand(page, 'TDD Agent: Run TDD kata');
    await pickQuickItem(page, 'FizzBuzz');
    const card = panel.locator('.error-card', { hasText: 'INVALID_REQUEST' });
    await card.waitFor({ timeout: 60_000 });
    assert.match(await card.innerText(), /no-such-model/);
    assert.equal(
      await page.locator('.notifications-toasts .notification-toast', { hasText: /no-such-model/ }).count(),
      0,
      'the panel is visible: no notification repeats the error card',
    );
    await screenshot(page, 'first-run-wrong-model');
    await card.locator('button', { hasText: 'Pick a model' }).click();
    await pickQuickItem(page, 'test-model');
    await model.waitFor({ state: 'detached', timeout: 30_000 });
    assert.equal(await panel.locator('#setup').count(), 0, 'nothing is missing any more');
    // The error card of the wrong model goes with it: the check finds the model served now.
    await card.waitFor({ state: 'detached', timeout: 10_000 });
    assert.equal(
      await panel.locator('.error-card', { hasText: /no-such-model/ }).count(),
      0,
      'no error card for the fixed model',
    );
    assert.match(
      await fsp.readFile(path.join(wb.workspace, '.vscode', 'settings.json'), 'utf8'),
      /"tddAgent\.model":\s*"test-model"/,
    );
    await screenshot(page, 'first-run-fixed');
  });
});

describe('TDD Agent extension: one test state (the last commit’s) in the header, the status bar and the Testing view', function () {
  const wb = useWorkbench('one-test-state', {
    'tddAgent.maxCycles': 1,
    'tddAgent.approvalPolicy': { SAFE: 'allow', LOW: 'allow', MEDIUM: 'allow', HIGH: 'ask', CRITICAL: 'ask' },
    'tddAgent.testTimeoutMs': 30_000,
  });

  it('a red refactoring rolled back leaves "1 passed, 0 failed" everywhere, the Testing view too before any run of its own; a Testing-view run (2 tests now) is the state after it', async function () {
    const { page } = wb;
    wb.model.setFallback(
      scriptedKataModel({
        cycles: fizzbuzzJs(1),
        overrides: {
          'refactorer:1:1': breakingRefactor(1),
          'refactorer:1:2': breakingRefactor(2),
          'refactorer:1:3': breakingRefactor(3),
        },
      }).reply,
    );
    const panel = await runFizzBuzz(page);
    const stat = (label: string) => panel.locator('#session .stat', { hasText: label }).locator('.stat-value');
    assert.equal((await stat('tests failed').innerText()).trim(), '0', 'the header: the red refactoring was rolled back');
    assert.equal((await stat('tests passed').innerText()).trim(), '1');
    assert.match(await tddStatusItem(page), /✓1 ✗0/, 'the status bar agrees');
    assert.match(await panel.locator('.cycle').first().innerText(), /1 passed/);
    await screenshot(page, 'one-test-state-after-red-refactor');

    // The Testing view right after the session, before any run of its own: the committed test, passing; not the red
    // run the supervisor rolled back.
    await runCommand(page, 'Testing: Focus on Test Explorer View');
    const explorer = page.locator('.test-explorer');
    await explorer.getByText('returns the number itself for 1').first().waitFor({ timeout: 30_000 });
    assert.equal(
      await explorer.locator('.codicon-testing-failed-icon').count(),
      0,
      'no red test in the Testing view after the session',
    );
    assert.ok((await explorer.locator('.codicon-testing-passed-icon').count()) >= 1, 'the committed test shows passed');
    await screenshot(page, 'one-test-state-testing-view-after-session');

    // The person adds a second test to the session's branch (a commit of their own): a run from the Testing view has
    // two tests now, so the header, the status bar and the Testing view show 2 only if they took that run.
    const [branch] = await sessionBranches(wb.workspace);
    assert.ok(branch, 'a session branch');
    commitOnBranch(wb.workspace, branch!, { [JS_TEST_PATH]: JS.testFile(2), [JS_SOURCE_PATH]: JS.impl(2) }, 'test: Fizz');
    await runCommand(page, 'Test: Run All Tests');
    const output = () => extensionOutputLog(wb.server, EXTENSION_ID);
    assert.match(
      await eventually(output, /Testing view: .* \(2 passed, 0 failed\)/, 120_000),
      /Testing view: .* \(2 passed, 0 failed\)/,
    );
    await explorer.getByText('returns Fizz for multiples of three').first().waitFor({ timeout: 30_000 });
    assert.equal(await explorer.locator('.codicon-testing-failed-icon').count(), 0, 'no red test in the Testing view');
    await screenshot(page, 'one-test-state-testing-view');
    assert.match(
      await eventually(() => tddStatusItem(page), /✓2 ✗0/, 10_000),
      /✓2 ✗0/,
      'the status bar shows the Testing view run',
    );
    await runCommand(page, 'TDD Agent: Open panel');
    const shown = await findWebviewFrame(page, '#session .stat', 30_000);
    const after = (label: string) => shown.locator('#session .stat', { hasText: label }).locator('.stat-value');
    // A panel opened again shows its saved snapshot first, then the host's newer one (the Testing view's run).
    const header = async (): Promise<string> =>
      `${(await after('tests passed').innerText()).trim()} passed, ${(await after('tests failed').innerText()).trim()} failed`;
    assert.equal(
      await eventually(header, /^2 passed, 0 failed$/, 10_000),
      '2 passed, 0 failed',
      'the header shows the Testing view run',
    );
  });

  it('a commit the person makes in a terminal lifts "Not mergeable: uncommitted changes" at once', async function () {
    const { page } = wb;
    const panel = await findWebviewFrame(page, '#session-status', 30_000);
    const { git, merge, note } = await stageNotesOutside(panel, wb.workspace);
    git('commit', '-q', '-m', 'my notes');
    await note.waitFor({ state: 'detached', timeout: 10_000 });
    await merge.waitFor({ timeout: 10_000 });
    await screenshot(page, 'one-test-state-committed-outside');
  });

  it('a kata whose front matter is not valid YAML: the error card has the whole reason, a link to the file at its line, and what to do', async function () {
    const { page } = wb;
    // Line 3 of the front matter (line 4 of the file) is where the YAML parser notices the unclosed list.
    await fsp.writeFile(
      path.join(wb.workspace, 'broken.kata.md'),
      '---\ntitle: Broken kata\ntags: [a, b\nlanguage: javascript\n---\n# Broken kata\n',
    );
    // Committed, so no "where should the session start" question comes first.
    execFileSync('git', ['add', 'broken.kata.md'], { cwd: wb.workspace });
    execFileSync('git', ['commit', '-q', '-m', 'a kata of my own'], { cwd: wb.workspace, env: { ...process.env, ...GIT_ENV } });
    await runCommand(page, 'TDD Agent: Run TDD kata');
    await pickQuickItem(page, 'Broken kata');
    const panel = await findWebviewFrame(page, '.error-card', 60_000);
    const card = panel.locator('.error-card', { hasText: 'VALIDATION' });
    await card.waitFor({ timeout: 30_000 });
    assert.match(
      await card.locator('.error-message').innerText(),
      /broken\.kata\.md:4: the front matter is not valid YAML \(front matter line 3, column 1\): Flow sequence .* end with a \]\.$/,
      'the whole reason, not cut after "column 1:"',
    );
    assert.match(await card.locator('.error-action').innerText(), /^What to do: Correct what the message names/);
    assert.equal(
      await page.locator('.notifications-toasts .notification-toast', { hasText: /not valid YAML/ }).count(),
      0,
      'the panel is visible: no notification repeats the card',
    );
    await screenshot(page, 'broken-kata-card');
    await card.locator('.error-message .file-link', { hasText: /broken\.kata\.md:4$/ }).click();
    await page.locator('.tabs-container .tab.active', { hasText: 'broken.kata.md' }).waitFor({ timeout: 30_000 });
    await page.locator('.statusbar-item', { hasText: /Ln 4, Col 1/ }).waitFor({ timeout: 10_000 });
    await screenshot(page, 'broken-kata-opened');
  });
});
