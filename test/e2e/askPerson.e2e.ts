/**
 * Issue 24, "a Tester question reaches a person in the panel": in a real VS Code (code-server) the scripted model's
 * Tester calls `ask_person`; the question card appears in the real panel, the person types an answer and sends it
 * with Enter, and the Tester's next model request carries "The person answered: …". Then, with the panel hidden, the
 * Implementer's question shows a notification whose "Open panel" brings the card back, and "Let the agent decide"
 * lets the session go on by itself.
 */
import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import type { RecordedRequest } from '../support/openaiServer';
import { fizzbuzzJs } from '../support/fizzbuzzPlans';
import { scriptedKataModel } from '../support/scriptedKataModel';
import { alwaysAllowUntilFinished, useWorkbench } from './kataHarness';
import { findWebviewFrame, pickQuickItem, runCommand, screenshot, waitForNotification } from './lib';

const TESTER_QUESTION = 'Should fizzbuzz(0) return "FizzBuzz" or "0"? <b>not bold</b>';
const IMPLEMENTER_QUESTION = 'May I add a JSDoc comment to fizzbuzz?';
const ANSWER = 'Start at 1: zero is out of scope';

function isRole(req: RecordedRequest, role: 'tester' | 'implementer'): boolean {
  return JSON.stringify(req.body).includes(`agent: ${role}/`);
}

describe('TDD Agent extension in a real VS Code: a role asks the person in the panel (ask_person)', function () {
  const wb = useWorkbench('question', {
    'tddAgent.maxCycles': 1,
    // No approval cards in the way: only the questions wait for the person.
    'tddAgent.approvalPolicy': { SAFE: 'allow', LOW: 'allow', MEDIUM: 'allow', HIGH: 'allow', CRITICAL: 'ask' },
    'tddAgent.testTimeoutMs': 30_000,
  });

  it('the Tester’s question is a card in the panel; the typed answer reaches the Tester’s next request', async function () {
    const { page } = wb;
    const cycles = fizzbuzzJs(1);
    cycles[0]!.tester = { ...cycles[0]!.tester, ask: TESTER_QUESTION };
    cycles[0]!.implementer = { ...cycles[0]!.implementer, ask: IMPLEMENTER_QUESTION };
    const scripted = scriptedKataModel({ cycles });
    // The Implementer's first request waits until the test has hidden the panel (so its question finds it hidden).
    let implementerArrived!: () => void;
    const implementerWaits = new Promise<void>((resolve) => (implementerArrived = resolve));
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let heldOne = false;
    wb.model.setFallback(async (req) => {
      if (!heldOne && isRole(req, 'implementer')) {
        heldOne = true;
        implementerArrived();
        await gate;
      }
      return scripted.reply(req);
    });

    await runCommand(page, 'TDD Agent: Run TDD kata');
    await pickQuickItem(page, 'FizzBuzz');

    // The question card: who asks, the question as plain text, and the keyboard focus in its text area.
    let panel: Frame = await findWebviewFrame(page, '.person-question-card', 120_000);
    const card = panel.locator('.person-question-card:not(.is-settled)').first();
    await card.waitFor({ timeout: 30_000 });
    assert.equal((await card.locator('.person-question-title').innerText()).trim(), 'The Tester asks');
    assert.equal(await card.locator('.person-question-text').textContent(), TESTER_QUESTION);
    assert.equal(await card.locator('.person-question-text b').count(), 0, 'the model’s words are text, not markup');
    assert.match(await card.locator('.countdown-text').innerText(), /^The Tester decides by itself in \d+:\d\d$/);
    await screenshot(page, 'person-question-card');

    const input = card.getByRole('textbox', { name: 'Your answer to the Tester' });
    await input.click();
    await input.pressSequentially(ANSWER);
    await input.press('Enter');

    // The Tester's next request carries the answer as the ask_person tool's result.
    await implementerWaits;
    const testerRequests = wb.model.chatRequests().filter((r) => isRole(r, 'tester'));
    assert.ok(testerRequests.length >= 2, `the Tester asked the model again (${testerRequests.length} requests)`);
    assert.ok(
      JSON.stringify(testerRequests[1]!.body).includes(JSON.stringify(`The person answered: ${ANSWER}`).slice(1, -1)),
      'the Tester read "The person answered: …" in its next request',
    );

    // The panel hidden, the Implementer's question comes as a notification; "Open panel" shows its card.
    await runCommand(page, 'View: Close Primary Side Bar');
    await page.locator('.part.sidebar').waitFor({ state: 'hidden', timeout: 15_000 });
    openGate();
    const toast = await waitForNotification(page, 'The Implementer has a question', 60_000);
    await screenshot(page, 'person-question-notification');
    await toast.locator('.monaco-button', { hasText: /^Open panel$/ }).click();
    panel = await findWebviewFrame(page, '.person-question-card', 60_000);
    const second = panel.locator('.person-question-card:not(.is-settled)').first();
    assert.equal((await second.locator('.person-question-title').innerText()).trim(), 'The Implementer asks');
    assert.equal(await second.locator('.person-question-text').textContent(), IMPLEMENTER_QUESTION);
    await second.getByRole('button', { name: 'Let the Implementer decide without your answer' }).click();

    const status = await alwaysAllowUntilFinished(panel, undefined, 180_000);
    assert.match(status, /Completed|Max cycles/);
    const implementerRequests = wb.model.chatRequests().filter((r) => isRole(r, 'implementer'));
    assert.match(JSON.stringify(implementerRequests[1]!.body), /Decide yourself/, 'the Implementer was told to decide itself');
    assert.equal(await panel.locator('.person-question-card').count(), 0, 'no question card is left');
  });
});
