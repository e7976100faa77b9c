/**
 * Issue 24: a role's question (`ask_person`) on a question card in the real panel bundle, in headless Chromium:
 * the question as plain text, choices, the time left, typing an answer and sending it with the keyboard, Escape
 * letting the agent decide, and an answer being typed surviving the snapshots that keep arriving meanwhile.
 */
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { stateMessage, type PanelState } from '../../src/shared/panelProtocol';
import type { PendingPersonQuestion } from '../../src/shared/personQuestionProtocol';
import { approvalState } from './fixtures/panelStates';
import { cspViolations, postedMessages, sendToPanel, startHarness, waitForPosted, type PanelHarness } from './harness';

const SCREENSHOTS = path.resolve(__dirname, '../../test-results');

/** A running session whose Tester waits for the person's answer (no approval card). */
function questionState(personQuestions: PendingPersonQuestion[], revision = 30): PanelState {
  const state = approvalState(Date.now() + 60_000, revision);
  return { ...state, approvals: [], personQuestions };
}

const HOSTILE = 'Should fizzbuzz(0) return <b>"FizzBuzz"</b> or <img src=x onerror="window.__pwned=1">?\nSecond line.';

describe('agent panel in Chromium: question cards (ask_person)', function () {
  this.timeout(60_000);
  let harness: PanelHarness;
  let page: Page;
  let pageErrors: string[];

  before(async () => {
    harness = await startHarness();
    await mkdir(SCREENSHOTS, { recursive: true });
  });
  after(async () => {
    await harness?.close();
  });
  afterEach(async () => {
    if (page) {
      assert.deepEqual(await cspViolations(page), [], 'no Content-Security-Policy violations');
      assert.deepEqual(pageErrors, [], 'no page errors');
      await page.context().close();
    }
  });

  async function openPanel(width = 380): Promise<Page> {
    const context = await harness.browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: 2 });
    const opened = await context.newPage();
    pageErrors = [];
    opened.on('pageerror', (error) => pageErrors.push(error.message));
    opened.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    await opened.goto(`${harness.origin}/panel.html?theme=dark`);
    await waitForPosted(opened, 1);
    await opened.bringToFront();
    return opened;
  }

  it('shows the question as plain text at the top of the session, with choices, a text area and the time left', async () => {
    page = await openPanel();
    const expiresAt = Date.now() + 4 * 60_000 + 30_000;
    const state = questionState([{ id: 'q-1', asker: 'Tester', text: HOSTILE, choices: ['FizzBuzz', '0'], expiresAt }]);
    state.approvals = approvalState(Date.now() + 60_000).approvals.slice(0, 1);
    await sendToPanel(page, stateMessage(state));
    const card = page.locator('.person-question-card');
    await card.waitFor();

    // Above the approval cards, right under the session header.
    const order = await page.evaluate(`[...document.querySelectorAll('#root > *')].map((e) => e.id || e.className)`);
    assert.ok(
      (order as string[]).indexOf('person-questions') < (order as string[]).indexOf('approvals'),
      `questions come first: ${JSON.stringify(order)}`,
    );
    assert.equal((await card.locator('.person-question-title').innerText()).trim(), 'The Tester asks');
    // The model's words are text: no element from them, no script run.
    assert.equal(await card.locator('.person-question-text').textContent(), HOSTILE);
    assert.equal(await card.locator('.person-question-text b, .person-question-text img').count(), 0);
    assert.equal(await page.evaluate('window.__pwned ?? null'), null);
    assert.deepEqual(await card.locator('button.person-question-choice').allInnerTexts(), ['FizzBuzz', '0']);
    assert.match(await card.locator('.countdown-text').innerText(), /^The Tester decides by itself in 4:(29|30)$/);
    assert.equal(await card.getByRole('textbox', { name: 'Your answer to the Tester' }).count(), 1);
    assert.equal(await card.getByRole('button', { name: 'Send your answer to the Tester' }).count(), 1);
    assert.equal(await card.getByRole('button', { name: 'Let the Tester decide without your answer' }).count(), 1);
    assert.equal(
      await page.evaluate(`document.activeElement?.getAttribute('aria-label')`),
      'Your answer to the Tester',
      'a new question puts the focus in its text area (the panel has the focus)',
    );
    await page.screenshot({ path: path.join(SCREENSHOTS, 'panel-person-question-card.png'), fullPage: true });

    // A choice is an answer in one click.
    await card.locator('button.person-question-choice', { hasText: '0' }).click();
    const posted = await waitForPosted(page, 2);
    assert.deepEqual(posted[1], { type: 'personQuestionAnswer', questionId: 'q-1', text: '0' });
    await page.locator('.person-question-card.is-settled').waitFor();
    assert.match(await card.locator('.person-question-status').innerText(), /Answer sent — waiting for the Tester/);
  });

  it('typing an answer and pressing Enter (or Ctrl+Enter) sends it; Shift+Enter is a new line; the text survives new snapshots', async () => {
    page = await openPanel();
    await sendToPanel(
      page,
      stateMessage(questionState([{ id: 'q-2', asker: 'Tester', text: 'Start at 0 or 1?', expiresAt: Date.now() + 60_000 }])),
    );
    const input = page.getByRole('textbox', { name: 'Your answer to the Tester' });
    await input.waitFor();
    // Enter on an empty answer sends nothing.
    await input.press('Enter');
    await input.pressSequentially('Start at 1');
    await input.press('Shift+Enter');
    // A snapshot arrives while the person types (the session goes on streaming): the draft and the focus stay.
    await sendToPanel(
      page,
      stateMessage(questionState([{ id: 'q-2', asker: 'Tester', text: 'Start at 0 or 1?', expiresAt: Date.now() + 60_000 }], 31)),
    );
    await input.pressSequentially('zero is out of scope');
    assert.equal(await input.inputValue(), 'Start at 1\nzero is out of scope');
    assert.equal((await postedMessages(page)).length, 1, 'nothing sent yet');
    await input.press('Enter');
    const posted = await waitForPosted(page, 2);
    assert.deepEqual(posted[1], { type: 'personQuestionAnswer', questionId: 'q-2', text: 'Start at 1\nzero is out of scope' });
    assert.equal(await input.isDisabled(), true, 'the card is settled until the host drops it');

    // The host drops it; the next question, answered with Ctrl+Enter.
    await sendToPanel(page, stateMessage(questionState([{ id: 'q-3', asker: 'Implementer', text: 'Which file?' }], 32)));
    const next = page.getByRole('textbox', { name: 'Your answer to the Implementer' });
    await next.waitFor();
    await next.fill('src/fizzbuzz.js');
    await next.press('Control+Enter');
    const again = await waitForPosted(page, 3);
    assert.deepEqual(again[2], { type: 'personQuestionAnswer', questionId: 'q-3', text: 'src/fizzbuzz.js' });
  });

  it('Escape lets the agent decide; so does the button; and an expired question takes no answer', async () => {
    page = await openPanel();
    await sendToPanel(
      page,
      stateMessage(questionState([{ id: 'q-4', asker: 'Tester', text: 'Start at 0 or 1?', expiresAt: Date.now() + 60_000 }])),
    );
    const input = page.getByRole('textbox', { name: 'Your answer to the Tester' });
    await input.waitFor();
    await input.pressSequentially('maybe');
    await input.press('Escape');
    let posted = await waitForPosted(page, 2);
    assert.deepEqual(posted[1], { type: 'personQuestionDecline', questionId: 'q-4' });
    assert.match(await page.locator('.person-question-status').innerText(), /Left to the Tester — it decides by itself/);
    await input.press('Escape').catch(() => undefined);
    assert.equal((await postedMessages(page)).length, 2, 'a settled card sends nothing more');

    await sendToPanel(page, stateMessage(questionState([{ id: 'q-5', text: 'Anything else?' }], 31)));
    await page.getByRole('button', { name: 'Let the agent decide without your answer' }).click();
    posted = await waitForPosted(page, 3);
    assert.deepEqual(posted[2], { type: 'personQuestionDecline', questionId: 'q-5' });

    await sendToPanel(
      page,
      stateMessage(questionState([{ id: 'q-6', asker: 'Tester', text: 'Too late?', expiresAt: Date.now() - 1 }], 32)),
    );
    await page.locator('.person-question-card[data-person-question-id="q-6"].is-settled').waitFor();
    assert.match(await page.locator('.person-question-status').innerText(), /No answer in time — the Tester decides by itself/);
    assert.equal(await page.getByRole('button', { name: 'Send your answer to the Tester' }).isDisabled(), true);
  });

  it('a new question does not take the focus from something being typed; at 300 px the card stays within the panel', async () => {
    page = await openPanel(300);
    await page.evaluate(
      `(() => { const input = document.createElement('input'); input.id = 'typing'; document.body.appendChild(input); input.focus(); })()`,
    );
    const long =
      'Which of these should the function return for numbers divisible by both three and five: "FizzBuzz", "BuzzFizz" or the number itself?';
    await sendToPanel(
      page,
      stateMessage(
        questionState([
          {
            id: 'q-7',
            asker: 'Tester',
            text: long,
            choices: ['FizzBuzz', 'BuzzFizz', 'the number itself, as a string'],
            expiresAt: Date.now() + 60_000,
          },
        ]),
      ),
    );
    await page.locator('.person-question-card').waitFor();
    assert.equal(await page.evaluate(`document.activeElement?.id`), 'typing');
    const outside = await page.evaluate(
      `[...document.querySelectorAll('.person-question-card, .person-question-card *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).map((e) => e.className || e.tagName)`,
    );
    assert.deepEqual(outside, []);
  });
});
