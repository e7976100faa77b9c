/**
 * Issue 36: every state says what happened. The panel is fed the snapshots the host's reducer makes of a real
 * session's events (the same route as in VS Code), and read as a person reads it: a reverted refactoring, the history
 * listing each fact once, the roles' own words, errors in VS Code words, a reload, the project line.
 */
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { SupervisorEvent } from '../../src/core/tdd/events';
import { emptyPanelState, stateMessage, type PanelState } from '../../src/shared/panelProtocol';
import { reducePanel, type PanelAction } from '../../src/vscode/panel/panelReducer';
import { askedAndRevertedCycle, sessionStart } from '../unit/vscode/fixtures';
import { usePanelPages } from './harness';

const SCREENSHOTS = path.resolve(__dirname, '../../test-results');
const T0 = Date.UTC(2026, 11, 4, 9, 0, 0);

/** A supervisor event (at one-second steps) or any other action of the host's reducer. */
type Step = SupervisorEvent | { action: PanelAction };

/** The host's snapshot after `steps`, folded by the panel's own reducer as in VS Code. */
function hostState(steps: Step[], state = emptyPanelState({ instanceId: 'host-1', trusted: true })): PanelState {
  return steps.reduce<PanelState>(
    (s, step, i) => reducePanel(s, 'action' in step ? step.action : { type: 'supervisor', event: step, at: T0 + i * 1000 }),
    state,
  );
}

describe('what happened, where the person looks (issue 36)', function () {
  this.timeout(60_000);
  const pages = usePanelPages();
  let page: Page;

  before(async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
  });

  async function open(state: PanelState, height = 900): Promise<void> {
    page = await pages.open({ viewport: { width: 380, height }, deviceScaleFactor: 2, state: stateMessage(state) });
    await page.waitForSelector('#root > *');
  }

  async function text(selector: string): Promise<string> {
    return (await page.locator(selector).first().innerText()).replace(/\s+/g, ' ').trim();
  }

  it('2: a reverted refactoring says so and which test it broke, not "Skipped"', async () => {
    await open(hostState([sessionStart(), ...askedAndRevertedCycle(1, 'a1b2c3d4e5f6')]));
    const cycle = page.locator('.timeline > li.cycle[data-cycle="1"]');
    const row = cycle.locator('tr.phase-row', { hasText: 'Refactorer' });
    assert.equal(await row.locator('.phase-outcome-label').innerText(), 'Reverted');
    assert.equal(
      await text('.timeline > li.cycle[data-cycle="1"] .phase-reverted'),
      'Refactoring reverted: it broke 1 test (returns Fizz for multiples of three)',
    );
    assert.doesNotMatch(await cycle.innerText(), /Skipped/);
    await cycle.screenshot({ path: path.join(SCREENSHOTS, 'issue36-reverted-refactoring.png') });
  });

  it('6: an answered question is one entry "Answered by you"; the green run after the Implementer is listed once', async () => {
    await open(hostState([sessionStart(), ...askedAndRevertedCycle(1, 'a1b2c3d4e5f6')]), 1400);
    await page.locator('details.history > summary').click();
    const cycle = page.locator('.history-cycle[data-cycle="1"]');
    const asked = cycle.locator('li.action', { has: page.locator('.action-tool', { hasText: /^ask_person$/ }) });
    assert.equal(await asked.count(), 1, 'one entry for the question');
    assert.equal(await asked.locator('.approval-badge').innerText(), 'Answered by you');
    assert.match(await asked.locator('.action-duration').innerText(), /^37\.7 s$/);
    assert.doesNotMatch(await asked.locator('summary').innerText(), /Auto-approved/);
    const implementer = cycle.locator('li.history-turn[data-role="implementer"]');
    assert.equal(await implementer.locator('li.action .action-tool', { hasText: /^test run$/ }).count(), 1, 'one green run');
    assert.equal(await implementer.locator('.test-badge').innerText(), 'green');
    await page.locator('#actions').screenshot({ path: path.join(SCREENSHOTS, 'issue36-history-once.png') });
  });

  it("9: the Tester's and the Implementer's words, said beside their tool calls, lead their turn in full", async () => {
    await open(hostState([sessionStart(), ...askedAndRevertedCycle(1, 'a1b2c3d4e5f6')]), 1400);
    await page.locator('details.history > summary').click();
    for (const [role, words] of [
      ['tester', 'Wrote one failing test: multiples of three are Fizz'],
      ['implementer', 'Return Fizz for multiples of three'],
    ] as const) {
      const turn = page.locator(`.history-cycle[data-cycle="1"] li.history-turn[data-role="${role}"]`);
      const entries = turn.locator('li.action');
      const said = entries.filter({ has: page.locator('.message-line') });
      assert.equal(await said.count(), 1, `one entry of the ${role}'s words`);
      assert.equal(await said.locator('.message-line').innerText(), words);
      const line = said.locator('.message-line');
      assert.ok(
        await line.evaluate((e) => e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1),
        `the ${role}'s words are not cut`,
      );
      // Said beside the write: before it, not after the supervisor's test runs.
      const order = await entries.evaluateAll((items) => items.map((i) => i.className));
      const wordsAt = order.findIndex((c) => c.includes('role-message'));
      const writeAt = await entries.evaluateAll((items) =>
        items.findIndex((i) => i.querySelector('.action-tool')?.textContent === 'write_file'),
      );
      assert.ok(wordsAt >= 0 && wordsAt < writeAt, `${role}: words at ${wordsAt}, write at ${writeAt}`);
    }
    await page.locator('.history-cycle[data-cycle="1"]').screenshot({ path: path.join(SCREENSHOTS, 'issue36-role-words.png') });
  });
});
