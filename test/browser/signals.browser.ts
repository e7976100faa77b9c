/**
 * Issue 25 (4): the red / green signal reads at 4.5:1 or more in VS Code's light, dark and both high-contrast themes,
 * measured on the rendered text against the background it is drawn on; a run that ended green at its cycle limit is
 * not shown in a warning colour.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { stateMessage } from '../../src/shared/panelProtocol';
import { textContrast } from './contrast';
import { signalState } from './fixtures/panelStates';
import { startHarness, THEMES, type PanelHarness, type Theme, openPanel } from './harness';

/** Every text that carries red, green or a warning. */
const SIGNAL_TEXT = [
  '#session-status',
  '.cycle .outcome-badge',
  '.tests-passed',
  '.tests-failed',
  '.phase-outcome',
  '.test-badge.is-expected-red',
  '.test-badge.is-red',
  '.test-badge.is-green',
  '.history-failed',
  '.danger-badge',
  '.error-head',
];

describe('red / green signal contrast in Chromium (issue 25)', function () {
  this.timeout(60_000);
  let harness: PanelHarness;

  before(async () => {
    harness = await startHarness();
  });
  after(async () => {
    await harness?.close();
  });

  async function openWith(theme: Theme): Promise<Page> {
    const page = await openPanel(harness, {
      viewport: { width: 380, height: 900 },
      theme,
      state: stateMessage(signalState(Date.now() + 300_000)),
    });
    await page.waitForSelector('#session');
    await page.locator('details.history > summary').click();
    return page;
  }

  for (const theme of THEMES) {
    it(`every red, green and warning text reads at 4.5:1 or more (${theme})`, async () => {
      const page = await openWith(theme);
      try {
        const measured = await textContrast(page, SIGNAL_TEXT);
        for (const selector of SIGNAL_TEXT)
          assert.ok(
            measured.some((m) => m.selector === selector),
            `${selector} is on the page`,
          );
        const low = measured.filter((m) => m.ratio < 4.5);
        assert.deepEqual(
          low.map((m) => `${m.selector} "${m.text}" ${m.ratio}:1`),
          [],
          `text below 4.5:1 in the ${theme} theme`,
        );
        // Ended green at the cycle limit: the green of a finished run, not the warning yellow.
        const [status] = await textContrast(page, ['#session-status']);
        assert.match(status!.text, /all green/);
        const [green] = await textContrast(page, ['.test-badge.is-green']);
        assert.deepEqual(status!.color, green!.color, 'the header status has the colour of green');
      } finally {
        await page.context().close();
      }
    });
  }
});
