/**
 * Issue 25 (8, 10): the panel speaks a person's words, not the code's: error titles (the code on a line for bug
 * reports), why a card asks, the Tester's "nothing left to test", no "Auto-approved" on the supervisor's own test
 * runs, a notice where a timed-out card was; a broken kata's file and line are a link with what to do; a file an
 * approval card would create opens as the proposed content.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { stateMessage, type PanelState } from '../../src/shared/panelProtocol';
import { approvalState, finishedState, testRunAction, T0 } from './fixtures/panelStates';
import { waitForPosted, usePanelPages } from './harness';

describe("the panel's words (issue 25)", function () {
  this.timeout(60_000);
  const pages = usePanelPages();
  let page: Page;

  async function open(state: PanelState): Promise<void> {
    page = await pages.open({ viewport: { width: 380, height: 900 }, state: stateMessage(state) });
    await page.waitForSelector('#root > *');
  }

  async function text(selector: string): Promise<string> {
    return (await page.locator(selector).first().innerText()).replace(/\s+/g, ' ').trim();
  }

  it('error titles in words, the code on a line of its own; a broken kata links its file at the line, with what to do', async () => {
    const state = finishedState();
    state.errors = [
      { id: 'e1', error_code: 'PROVIDER_NOT_CONFIGURED', message: 'No model provider is configured, so the kata did not start.' },
      {
        id: 'e2',
        error_code: 'VALIDATION',
        message:
          'Kata katas/broken.md: the front matter is not valid YAML (front matter line 2, column 12): Implicit keys of flow sequence pairs need to be on a single line.',
        action: 'Correct what the message names (a file it names opens at that line from the link), then try again.',
      },
    ];
    await open(state);
    const provider = page.locator('[data-error-id="e1"]');
    assert.equal(await provider.locator('.error-head').innerText(), 'No model to talk to yet');
    assert.equal(await provider.locator('.error-code-line').innerText(), 'For a bug report: PROVIDER_NOT_CONFIGURED');
    const kata = page.locator('[data-error-id="e2"]');
    assert.equal(await kata.locator('.error-head').innerText(), 'Something in the input is not right');
    assert.match(await kata.locator('.error-message').innerText(), /on a single line\.$/, 'the whole reason');
    assert.match(await kata.locator('.error-action').innerText(), /^What to do: /);
    await kata.getByRole('button', { name: 'katas/broken.md:3' }).click();
    assert.deepEqual((await waitForPosted(page, 2)).at(-1), { type: 'openFile', path: 'katas/broken.md', line: 3 });
  });

  it('why a card asks, in words; a new file opens as the proposed content; a timed-out card leaves a notice', async () => {
    const state = approvalState(Date.now() + 300_000);
    state.approvals[0] = {
      ...state.approvals[0]!,
      reason: 'the policy for MEDIUM tools is "ask"',
      preview: {
        kind: 'diff',
        path: 'src/roman.js',
        diff: ['--- /dev/null', '+++ b/src/roman.js', '@@ -0,0 +1 @@', '+export const roman = () => "I";'].join('\n'),
      },
      params: { path: 'src/roman.js', content: 'export const roman = () => "I";' },
    };
    state.actions.push({
      kind: 'toolCall',
      id: 'timed-out-1',
      role: 'implementer',
      tool: 'run_command',
      params: { command: 'npm install' },
      resultSummary: 'Not executed: nobody answered in time.',
      ok: false,
      approval: 'timeout',
      durationMs: 0,
      cycle: 2,
      at: T0,
    });
    await open(state);
    const card = page.locator('.approval-card[data-request-id="req-write-42"]');
    const reason = await card.locator('.approval-reason').innerText();
    assert.match(reason, /Your approval settings ask before every medium risk step\./);
    assert.doesNotMatch(reason, /policy for|"ask"/);
    await card.getByRole('button', { name: 'src/roman.js (new file)' }).click();
    assert.deepEqual((await waitForPosted(page, 2)).at(-1), { type: 'openDiff', id: 'req-write-42' });
    assert.match(
      await text('.approval-timed-out'),
      /^run_command timed out: nobody answered in time, so it was denied automatically\. Implementer was told nothing was changed/,
    );
  });

  it("the Tester's KATA_COMPLETE and the Refactorer's NO_REFACTOR in words; the supervisor's test runs are not \"Auto-approved\"", async () => {
    const state = finishedState();
    state.actions = [
      testRunAction('run-1', 'implementer', 3, { status: 'passed', passed: 3, failed: 0 }),
      {
        id: 'message-4-tester-1-1',
        role: 'tester',
        kind: 'message',
        cycle: 3,
        text: 'KATA_COMPLETE',
        final: true,
        streaming: false,
      },
      {
        id: 'message-4-refactorer-1-1',
        role: 'refactorer',
        kind: 'message',
        cycle: 3,
        text: 'NO_REFACTOR',
        final: true,
        streaming: false,
      },
    ];
    await open(state);
    await page.locator('details.history > summary').click();
    assert.match(await text('li[data-action-id="message-4-tester-1-1"] .message-line'), /^Nothing left to test/);
    assert.match(await text('li[data-action-id="message-4-refactorer-1-1"] .message-line'), /^Nothing to tidy up/);
    assert.equal(await page.locator('#actions', { hasText: /KATA_COMPLETE|NO_REFACTOR/ }).count(), 0);
    const run = await text('li[data-action-id="run-1"] summary');
    assert.doesNotMatch(run, /Auto-approved/);
    assert.match(run, /by the supervisor/);
  });
});
