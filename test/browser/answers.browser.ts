/**
 * Issue 25 (3): an Ask / Explain answer lands where the person is looking, even below a long session: the question
 * shows at once (with Cancel), its answer streams in, and the panel brings it into view.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { stateMessage, type PanelState } from '../../src/shared/panelProtocol';
import { longSessionState, T0 } from './fixtures/panelStates';
import { sendToPanel, waitForPosted, usePanelPages } from './harness';

/** The window: a side bar 794 px high. */
const VIEW = { width: 380, height: 794 };

describe('Ask / Explain answers in view (issue 25)', function () {
  this.timeout(60_000);
  const pages = usePanelPages();
  let page: Page;

  /** Where `selector`'s top and bottom are in the view (px), or null when it is not on the page. */
  async function box(selector: string): Promise<{ top: number; bottom: number } | null> {
    return (await page.evaluate(
      `(() => { const e = document.querySelector(${JSON.stringify(selector)}); if (!e) return null; const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom }; })()`,
    )) as { top: number; bottom: number } | null;
  }

  async function assertInView(selector: string): Promise<void> {
    await page.waitForSelector(selector);
    // scrollIntoView may be smooth in some setups: wait for the top to settle inside the view.
    await page.waitForFunction(
      `(() => { const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect(); return r.top >= 0 && r.top < ${VIEW.height - 60}; })()`,
    );
    const where = await box(selector);
    assert.ok(
      where && where.top >= 0 && where.top < VIEW.height - 60,
      `${selector} starts in the view: ${JSON.stringify(where)}`,
    );
  }

  function withQuestion(state: PanelState, revision: number, partial: string): PanelState {
    return {
      ...state,
      revision,
      questions: [{ id: 'qa-9', kind: 'qa', question: 'Why check 15 first?', source: 'src/fizzbuzz.js:2-4', at: T0, partial }],
    };
  }

  it('a question asked below a long session shows at once in view, with Cancel; its answer streams, then arrives in view', async () => {
    const session = longSessionState(10, false, 70);
    page = await pages.open({ viewport: VIEW, state: stateMessage(session) });
    await page.waitForSelector('#session');
    await page.locator('details.history > summary').click();
    // The person has scrolled down to the end of the history.
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');

    await sendToPanel(page, stateMessage(withQuestion(session, 71, '')));
    await assertInView('[data-question-id="qa-9"]');
    const pending = page.locator('[data-question-id="qa-9"]');
    assert.match(await pending.innerText(), /Why check 15 first\?/);
    assert.match(await pending.innerText(), /Waiting for the model/);

    await sendToPanel(page, stateMessage(withQuestion(session, 72, 'Because 15 is divisible by **both**')));
    await page.waitForSelector('[data-question-id="qa-9"] .answer-streaming strong');
    assert.match(await pending.locator('.answer-streaming').innerText(), /Because 15 is divisible by both/);

    await pending.getByRole('button', { name: /^Cancel the question/ }).click();
    const posted = await waitForPosted(page, 2);
    assert.deepEqual(posted.at(-1), { type: 'cancelQuestion', id: 'qa-9' });

    // Scrolled away again, the answer comes: it replaces the pending card and is brought into view.
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    await sendToPanel(
      page,
      stateMessage({
        ...session,
        revision: 73,
        answers: [
          {
            kind: 'qa',
            id: 'qa-9',
            question: 'Why check 15 first?',
            answer: 'Because 15 is divisible by both 3 and 5.',
            confidence: 0.9,
            reasoning: '',
            source: 'src/fizzbuzz.js:2-4',
            at: T0,
          },
        ],
      }),
    );
    await assertInView('[data-answer-id="qa-9"]');
    assert.equal(await page.locator('[data-question-id]').count(), 0, 'the pending card is gone');
  });
});
