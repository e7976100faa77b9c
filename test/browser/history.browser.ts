/**
 * Issue 25 (9): a long session's history is grouped per cycle and role's turn, oldest first like the cycles; the
 * running cycle is open and followed (unless the person scrolled away); a filter shows failures or approvals; the
 * sandbox is one line, its details on hover and when opened.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { stateMessage, type PanelState } from '../../src/shared/panelProtocol';
import { longSessionState, T0 } from './fixtures/panelStates';
import { sendToPanel, usePanelPages } from './harness';

describe('a long session in the panel (issue 25)', function () {
  this.timeout(60_000);
  const pages = usePanelPages();
  let page: Page;

  async function open(state: PanelState): Promise<void> {
    page = await pages.open({ viewport: { width: 380, height: 794 }, state: stateMessage(state) });
    await page.waitForSelector('#session');
    await page.locator('details.history > summary').click();
  }

  async function openCycles(): Promise<string[]> {
    return page
      .locator('.history-cycle:has(> details[open])')
      .evaluateAll((items) =>
        items.map((item) => (item as unknown as { getAttribute(name: string): string }).getAttribute('data-cycle')),
      );
  }

  it('groups 10 cycles of history per cycle and role, oldest first, the running cycle open', async () => {
    await open(longSessionState(10, true));
    const cycles = page.locator('.history-cycles > .history-cycle');
    assert.equal(await cycles.count(), 10);
    assert.deepEqual(
      await cycles.evaluateAll((items) =>
        items.map((i) => (i as unknown as { getAttribute(n: string): string }).getAttribute('data-cycle')),
      ),
      ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'],
    );
    assert.deepEqual(await openCycles(), ['10'], 'only the running cycle is open');
    const running = cycles.last();
    assert.deepEqual(await running.locator('.history-turn-role').allInnerTexts(), ['Tester', 'Implementer']);
    assert.deepEqual(
      await running
        .locator('li.action')
        .evaluateAll((items) =>
          items.map((i) => (i as unknown as { getAttribute(n: string): string }).getAttribute('data-action-id')),
        ),
      ['c10-w1', 'c10-r1', 'c10-w2'],
      'oldest first',
    );
    assert.match(await cycles.nth(2).locator('summary').first().innerText(), /Cycle 3\s+feat: behaviour 3\s+6/);
  });

  it('filters the history to approvals or failures; every cycle with a match opens', async () => {
    await open(longSessionState(10, true));
    await page.getByRole('button', { name: /^Approvals \(21\)$/ }).click();
    await page.waitForSelector('.history-filter-button.is-active[data-filter="approvals"]');
    assert.equal(await page.locator('.history-cycles li.action').count(), 21);
    assert.equal((await openCycles()).length, 10);
    assert.equal(await page.locator('li[data-action-id="c3-cmd"] .approval-badge').innerText(), 'Denied');
    await page.getByRole('button', { name: /^Failures \(0\)$/ }).click();
    assert.equal(await page.locator('.history-none').innerText(), 'No failures.');
    await page.getByRole('button', { name: /^All \(\d+\)$/ }).click();
    assert.deepEqual(await openCycles(), ['10']);
  });

  it('keeps open what the person opened, not what the render opened: a finished cycle folds when the next one runs', async () => {
    await open(longSessionState(10, true));
    // The render opened cycle 10; its toggle event comes as a task (before this fix it was taken as the person's).
    await page.evaluate('new Promise((resolve) => setTimeout(resolve, 100))');
    await page.locator('.history-cycle[data-cycle="3"] > details > summary').click();
    await page.waitForSelector('.history-cycle[data-cycle="3"] > details[open]');
    await sendToPanel(page, stateMessage(longSessionState(11, true, 70)));
    await page.waitForSelector('.history-cycle[data-cycle="11"]');
    assert.deepEqual(await openCycles(), ['3', '11'], 'the running cycle and the one the person opened');
    await page.evaluate('new Promise((resolve) => setTimeout(resolve, 100))');
    await sendToPanel(page, stateMessage(longSessionState(12, false, 80)));
    await page.waitForSelector('.history-cycle[data-cycle="12"]');
    assert.deepEqual(await openCycles(), ['3', '12'], 'once the session ended: the last cycle, and the one the person opened');
    await page.locator('.history-cycle[data-cycle="3"] > details > summary').click();
    await page.waitForSelector('.history-cycle[data-cycle="3"] > details:not([open])');
    await page.evaluate('new Promise((resolve) => setTimeout(resolve, 100))');
    await sendToPanel(page, stateMessage(longSessionState(12, false, 90)));
    await page.waitForFunction('document.querySelectorAll(".history-cycle").length === 12');
    assert.deepEqual(await openCycles(), ['12'], 'and closed again by the person, it stays closed');
  });

  it('follows the running cycle as entries come, unless the person scrolled away', async () => {
    const state = longSessionState(10, true);
    await open(state);
    await page.locator('li[data-action-id="c10-w2"]').scrollIntoViewIfNeeded();
    const more = (n: number): PanelState => ({
      ...state,
      revision: state.revision + n,
      actions: [
        ...state.actions,
        ...Array.from({ length: n }, (_, i) => ({
          kind: 'toolCall' as const,
          id: `c10-x${i}`,
          role: 'implementer',
          tool: 'read_file',
          params: { path: `src/file${i}.js` },
          resultSummary: 'ok',
          ok: true,
          approval: 'auto' as const,
          durationMs: 1,
          cycle: 10,
          at: T0 + 700_000 + i,
        })),
      ],
    });
    await sendToPanel(page, stateMessage(more(12)));
    await page.waitForSelector('li[data-action-id="c10-x11"]');
    const inView = `(() => { const r = document.querySelector('li[data-action-id="c10-x11"]').getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight + 1; })()`;
    await page.waitForFunction(inView);

    // Scrolled back up to read an earlier cycle: the panel stays there.
    await page.evaluate('window.scrollTo(0, 0)');
    await sendToPanel(page, stateMessage(more(14)));
    await page.waitForSelector('li[data-action-id="c10-x13"]');
    assert.equal(await page.evaluate('window.scrollY'), 0);
  });

  it('says which sandbox on one line; the paths are in its tooltip and when opened', async () => {
    await open(longSessionState(3, false));
    const line = page.locator('#session-sandbox > summary');
    assert.equal(await line.innerText(), "Sandbox: bubblewrap — only the session's worktree is writable, no network");
    const height = await line.evaluate(
      (e) => (e as unknown as { getBoundingClientRect(): { height: number } }).getBoundingClientRect().height,
    );
    assert.ok(height < 24, `one line (${height}px)`);
    assert.match((await page.locator('#session-sandbox').getAttribute('title')) ?? '', /\/usr\/bin\/bwrap.*worktrees/);
    assert.equal(await page.locator('.sandbox-details').isVisible(), false);
    await line.click();
    assert.match(
      await page.locator('.sandbox-details').innerText(),
      /^Sandbox: bubblewrap \(\/usr\/bin\/bwrap\): writes only in \/home/,
    );
  });
});
