/**
 * Issue 36: every state says what happened. The panel is fed the snapshots the host's reducer makes of a real
 * session's events (the same route as in VS Code), and read as a person reads it: a reverted refactoring, the history
 * listing each fact once, the roles' own words, errors in VS Code words, a reload, the project line.
 */
import assert from 'node:assert/strict';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { SupervisorEvent } from '../../src/core/tdd/events';
import { emptyPanelState, stateMessage, type PanelState } from '../../src/shared/panelProtocol';
import { buildLlmError } from '../../src/core/llm/llmError';
import { reducePanel, type PanelAction } from '../../src/vscode/panel/panelReducer';
import { restoreState } from '../../src/vscode/panel/panelStore';
import { questionFailure } from '../../src/vscode/selection/questionFailure';
import { OutputValidationError } from '../../src/core/agentRuntime/errors';
import { longSessionState } from './fixtures/panelStates';
import { askedAndRevertedCycle, mixedProject, sessionStart } from '../unit/vscode/fixtures';
import { sendToPanel, usePanelPages, waitForPosted } from './harness';

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

  it('7: an error card says what happened, the facts and what to do once each, in VS Code words', async () => {
    const unreachable = buildLlmError(
      { code: 'CONNECTION', retryable: true, serverMessage: 'Connection error.' },
      { provider: 'openai', baseURL: 'http://127.0.0.1:9/v1', model: 'gpt-4o-mini', timeoutMs: 60_000, retries: 2 },
    );
    const refused = buildLlmError(
      { code: 'AUTH', retryable: false, status: 401, serverMessage: 'Incorrect API key provided.' },
      { provider: 'openai', baseURL: 'https://api.openai.com/v1', model: 'gpt-4o-mini', timeoutMs: 60_000, retries: 0 },
    );
    await open(
      hostState(
        [unreachable, refused].map((e) => ({
          action: { type: 'error', error: { error_code: e.error_code, message: e.message, details: { ...e.details } }, at: T0 },
        })),
      ),
    );
    const card = page
      .locator('.error-card')
      .filter({ has: page.locator('.error-title', { hasText: 'The model server cannot be reached' }) });
    assert.equal(await card.locator('.error-message').innerText(), 'Nothing answered at http://127.0.0.1:9/v1 (tried 3 times).');
    assert.equal(
      await card.locator('.error-action').innerText(),
      'What to do: Start the model server, or choose another provider or base URL.',
    );
    assert.equal(await card.getByRole('button', { name: 'Choose provider or base URL' }).count(), 1);
    const key = page.locator('.error-card').filter({ has: page.locator('.error-title', { hasText: 'The API key was refused' }) });
    assert.equal(
      await key.locator('.error-message').innerText(),
      'The model server at https://api.openai.com/v1 answered HTTP 401: Incorrect API key provided.',
    );
    assert.equal(await key.locator('.error-action').innerText(), 'What to do: Set a valid API key.');
    const said = await page.locator('#errors').innerText();
    assert.doesNotMatch(said, /tddAgent\.|OPENAI_|OLLAMA_|--base-url|ollama serve/, 'no setting ids or command-line hints');
    assert.doesNotMatch(said, /could not (be )?reach/i, 'not said a second and third time');
    await page.locator('#errors').screenshot({ path: path.join(SCREENSHOTS, 'issue36-error-cards.png') });
  });

  it('7: a problem fixed leaves no stale "Problem:" line behind', async () => {
    const unreachable = buildLlmError(
      { code: 'CONNECTION', retryable: true },
      { provider: 'openai', baseURL: 'http://127.0.0.1:9/v1', model: 'm', timeoutMs: 60_000, retries: 0 },
    );
    const problem = {
      item: 'model' as const,
      title: 'The model server at http://127.0.0.1:9/v1 does not answer',
      detail: 'Start it, or choose another server or provider.',
      fixes: ['chooseProvider' as const],
    };
    const broken = hostState([
      { action: { type: 'setup', problems: [problem] } },
      {
        action: {
          type: 'error',
          error: { error_code: unreachable.error_code, message: unreachable.message, details: { ...unreachable.details } },
          at: T0,
        },
      },
    ]);
    await open(emptyPanelState({ instanceId: 'host-1', trusted: true }));
    await sendToPanel(page, stateMessage({ ...broken, revision: broken.revision + 1 }));
    await page.waitForSelector('.error-card');
    assert.match(await page.locator('#announcer').innerText(), /^Problem: /, 'told to a screen reader');
    // The person fixes the base URL: the setup check no longer finds the problem, and the card goes.
    const fixed = reducePanel(broken, { type: 'setup', problems: [] });
    await sendToPanel(page, stateMessage({ ...fixed, revision: fixed.revision + 1 }));
    await page.waitForSelector('.error-card', { state: 'detached' });
    assert.equal(await page.locator('#announcer').textContent(), '');
    assert.doesNotMatch(await page.evaluate<string>('document.body.innerText'), /Problem:/);
  });

  it('7: a window reloaded mid-session shows a neutral "Interrupted" with Resume, not a CANCELLED problem', async () => {
    const cycle = askedAndRevertedCycle(1, 'a1b2c3d4e5f6');
    const running = hostState([
      sessionStart(),
      ...cycle.slice(
        0,
        cycle.findIndex((e) => e.type === 'commit_made'),
      ),
    ]);
    const restored = restoreState(JSON.parse(JSON.stringify(running)), 'host-2', true, T0 + 600_000);
    const id = restored.session!.sessionId!;
    const listed = reducePanel(restored, {
      type: 'repository',
      repository: {
        branch: 'main',
        sessions: [
          {
            id,
            kata: 'FizzBuzz',
            status: 'interrupted',
            branch: 'tdd/fizzbuzz-1',
            baseBranch: 'main',
            cycles: 0,
            commits: 0,
            merged: false,
            resumable: true,
          },
        ],
      },
    });
    await open(listed);
    assert.equal(await text('#session-status'), 'Interrupted');
    assert.equal(
      await text('#session-interrupted'),
      'The window was reloaded while the kata ran, so it stopped there. Resume goes on from its last green commit.',
    );
    const resume = page.locator(`#session .session-actions button[data-session-action="resume"][data-session-id="${id}"]`);
    assert.equal(await resume.count(), 1);
    assert.match((await resume.getAttribute('class')) ?? '', /button-primary/);
    assert.equal(await page.locator('#errors, .error-card').count(), 0, 'nothing under Problems');
    assert.doesNotMatch(await page.evaluate<string>('document.body.innerText'), /CANCELLED|For a bug report/);
    await page.locator('#session').screenshot({ path: path.join(SCREENSHOTS, 'issue36-interrupted.png') });
  });

  it('4: the project line names every language, the test command of each, what is left out and why; patterns behind a disclosure', async () => {
    const { root, profile } = await mixedProject();
    try {
      await open(
        hostState([
          sessionStart(),
          { type: 'project_profile', profile, scaffolded: false, task: false },
          { type: 'known_failures', cycle: 1, tests: ['test/leap.test.js › 1900 is not a leap year'] },
        ]),
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
    const project = page.locator('#session-project');
    assert.equal(
      await text('#session-project li[data-language="JavaScript"]'),
      'Project: JavaScript (npm) — tests run with node --test (node:test)',
    );
    assert.equal(
      await text('#session-project li[data-language="Python"]'),
      "Python — not run: a session runs one language's tests, and this one runs the JavaScript tests only",
    );
    assert.match(
      await text('#session-project .project-left-out'),
      /^Left out: 1 test that already failed before the session is set aside/,
    );
    // The globs are not what a person reads first: only when "Which files are tests" is opened.
    const visible = async (): Promise<string> => (await project.innerText()).replace(/\s+/g, ' ');
    assert.doesNotMatch(await visible(), /\*\*|\{test,spec\}|\?\(/);
    await project.locator('.project-details > summary').click();
    assert.match(
      await visible(),
      /Tests: \*\.test\.js, \*\.spec\.js, .* files, and everything in __tests__ folders and test\/; new tests go in test\//,
    );
    assert.equal(await text('#session-project .project-origin'), 'From package.json, pyproject.toml, package-lock.json');
    assert.match(await text('#session-project .project-patterns'), /^Patterns: \*\*\/\*\.\{test,spec\}/);
    await page.locator('#session').screenshot({ path: path.join(SCREENSHOTS, 'issue36-project-line.png') });
  });
  it('1: Explain step by step that fails shows at the top at once, its error in view right there with Retry, in plain words', async () => {
    const view = { width: 380, height: 794 };
    // A long session and an earlier Ask answer, the person scrolled down to the end of the history.
    const earlier = reducePanel(longSessionState(12, false, 70), {
      type: 'answer',
      answer: {
        kind: 'qa',
        id: 'qa-1',
        question: 'What does this code do?',
        answer: 'It prints FizzBuzz.',
        confidence: 0.8,
        reasoning: '',
        source: 'src/fizzbuzz.js:1-9',
        at: T0,
      },
    });
    page = await pages.open({ viewport: view, state: stateMessage(earlier) });
    await page.waitForSelector('#session');
    await page.locator('details.history > summary').click();
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    const inView = async (selector: string): Promise<void> => {
      await page.waitForFunction(
        `(() => { const e = document.querySelector(${JSON.stringify(selector)}); if (!e) return false; const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= ${view.height}; })()`,
      );
    };

    // Asked: at the top at once, the old answer folded away under it (not shown as if it were the answer).
    const asked = reducePanel(earlier, {
      type: 'questionAsked',
      question: {
        id: 'cot-2',
        kind: 'cot',
        question: 'Explain step by step how this code works.',
        source: 'src/fizzbuzz.js:1-9',
        at: T0,
        partial: '',
      },
    });
    await sendToPanel(page, stateMessage(asked));
    await inView('[data-question-id="cot-2"]');
    const section = page.locator('#answers');
    assert.equal(
      await section
        .locator(':scope > .section-body > [data-answer-id], :scope [data-answer-id]:not(.earlier-answers [data-answer-id])')
        .count(),
      0,
      'the old answer is not shown open',
    );
    assert.equal(await section.locator('details.earlier-answers').getAttribute('open'), null);

    // The model's reply never takes the form asked for: the same card says so, in view, with Retry.
    const error = new OutputValidationError(
      "The model's reply did not match the output schema of cot/v1 (2 repair attempt(s), stopped by max_attempts).",
      ['final_answer: required', 'steps: expected an array'],
      { agent: 'cot/v1', attempts: 2, reason: 'max_attempts' },
    );
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    const failed = reducePanel(asked, { type: 'questionFailed', id: 'cot-2', failed: questionFailure('cot', error) });
    await sendToPanel(page, stateMessage(failed));
    const card = page.locator('[data-question-id="cot-2"].answer-failed');
    await card.waitFor();
    await inView('[data-question-id="cot-2"].answer-failed .answer-retry');
    assert.equal(await text('[data-question-id="cot-2"] .answer-failed-title'), 'The model’s explanation could not be read');
    assert.equal(
      await text('[data-question-id="cot-2"] .answer-failed-message'),
      'The model did not reply with numbered steps and a final answer in the form it was asked for, in 3 tries.',
    );
    assert.equal(await text('[data-question-id="cot-2"] .answer-question'), 'Explain step by step how this code works.');
    assert.equal(await card.getByRole('button', { name: /^Retry/ }).count(), 1);
    assert.equal(await card.getByRole('button', { name: 'Pick a model' }).count(), 1);
    const said = await page.evaluate<string>('document.body.innerText');
    assert.doesNotMatch(said, /output schema|max_attempts|cot\/v1|For a bug report|OUTPUT_VALIDATION_FAILED/);
    assert.equal(await page.locator('.error-card').count(), 0, 'not an error card at the bottom');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'issue36-explain-failed.png') });

    await card.getByRole('button', { name: /^Retry/ }).click();
    const posted = await waitForPosted(page, 2);
    assert.deepEqual(posted.at(-1), { type: 'retryQuestion', id: 'cot-2' });
  });

  it('5: shown with the keyboard while a card waits, the panel puts the focus on it (not the page body): an approval (A approves), a question’s answer field', async () => {
    const waiting = hostState([sessionStart()]);
    const request = {
      requestId: 'r-1',
      tool: 'run_command',
      params: { command: 'npm install left-pad' },
      dangerLevel: 'HIGH' as const,
      expiresAt: Date.now() + 3_600_000,
      role: 'implementer',
    };
    await open({ ...waiting, approvals: [request] });
    await page.locator('.approval-card').waitFor();
    // VS Code gives the view the keyboard ("Open panel", "Focus on Agent View"): the frame's window takes the focus.
    await page.evaluate('document.activeElement && document.activeElement.blur(); window.dispatchEvent(new FocusEvent("focus"))');
    assert.equal(await page.evaluate('document.activeElement.getAttribute("data-request-id")'), 'r-1');
    await page.keyboard.press('a');
    const posted = await waitForPosted(page, 2);
    assert.deepEqual(posted.at(-1), { type: 'approvalResponse', requestId: 'r-1', decision: 'approve' });

    // A role's question waits: its answer field takes the keyboard.
    await open({
      ...waiting,
      personQuestions: [{ id: 'q-1', asker: 'Tester', text: 'Start at 0 or 1?', expiresAt: Date.now() + 3_600_000 }],
    });
    await page.locator('.person-question-card').waitFor();
    await page.evaluate('document.activeElement && document.activeElement.blur(); window.dispatchEvent(new FocusEvent("focus"))');
    assert.equal(await page.evaluate('document.activeElement.getAttribute("aria-label")'), 'Your answer to the Tester');
  });
});
