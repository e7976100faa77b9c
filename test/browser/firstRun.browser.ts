/**
 * The first-run card, the fix buttons of error cards and a session action's notice, in real headless Chromium: what
 * is missing is said with its buttons, a click posts the command to the host, and an empty list shows no card.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { stateMessage } from '../../src/shared/panelProtocol';
import { emptyState } from './fixtures/panelStates';
import { sendToPanel, waitForPosted, usePanelPages } from './harness';

const SCREENSHOTS = path.resolve(__dirname, '../../test-results');

describe('agent panel in Chromium: the first-run card and fix buttons', function () {
  this.timeout(60_000);
  const pages = usePanelPages();
  let page: Page;

  async function open(): Promise<Page> {
    return pages.open({ viewport: { width: 320, height: 900 }, deviceScaleFactor: 2 });
  }

  it('says what is missing with the buttons that fix it; a button posts its command', async () => {
    page = await open();
    await sendToPanel(
      page,
      stateMessage(
        emptyState({
          revision: 2,
          setup: [
            {
              item: 'model',
              title: 'No model is configured',
              detail: 'The agents need a model.',
              fixes: ['setApiKey', 'chooseProvider'],
            },
            {
              item: 'sandbox',
              title: 'No OS sandbox works here',
              detail: 'AppArmor restricts unprivileged user namespaces.',
              fixes: ['showSandboxFix', 'openSandboxSetting'],
            },
          ],
          errors: [
            {
              id: 'error-1',
              error_code: 'INVALID_REQUEST',
              message: "The model 'gpt-x' is not among the models it serves (a, b).",
              fixes: ['pickModel'],
            },
          ],
          notice: { id: 'notice-1', level: 'info', text: 'Merged tdd/fizzbuzz-1 into main as a fast-forward.' },
        }),
      ),
    );
    await page.waitForSelector('#setup');
    assert.equal(await page.locator('#setup .setup-title').innerText(), 'Before a session can start');
    assert.deepEqual(await page.locator('#setup [data-setup-item="model"] button').allInnerTexts(), [
      'Set API key',
      'Choose provider or base URL',
    ]);
    assert.deepEqual(await page.locator('#setup [data-setup-item="sandbox"] button').allInnerTexts(), [
      'Show the fix',
      'Open sandbox setting',
    ]);
    assert.match(await page.locator('#session-notice').innerText(), /Merged tdd\/fizzbuzz-1 into main/);
    assert.equal(await page.locator('#session-notice').getAttribute('role'), 'status');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'panel-first-run.png'), fullPage: true });

    await page.locator('#setup button', { hasText: 'Choose provider or base URL' }).click();
    await page.locator('.error-card button', { hasText: 'Pick a model' }).click();
    const posted = await waitForPosted(page, 3);
    assert.deepEqual(posted.slice(1), [
      { type: 'command', name: 'chooseProvider' },
      { type: 'command', name: 'pickModel' },
    ]);
  });

  it('nothing missing: no card', async () => {
    page = await open();
    await sendToPanel(page, stateMessage(emptyState({ revision: 2 })));
    await page.waitForSelector('#empty-state');
    assert.equal(await page.locator('#setup').count(), 0);
    assert.equal(await page.locator('#session-notice').count(), 0);
  });
});
