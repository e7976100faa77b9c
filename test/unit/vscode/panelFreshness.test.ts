/**
 * Nothing stale in the panel: a deleted session leaves the header, the timeline, the history and the status bar at
 * once, also when it was deleted elsewhere (the repository's list no longer has it); what the first-run card asks
 * for goes away when it is fixed; a session action's outcome is shown in the panel.
 */
import assert from 'node:assert/strict';
import {
  emptyPanelState,
  parsePanelState,
  type PanelState,
  type RepositorySessions,
  type SetupProblem,
} from '../../../src/shared/panelProtocol';
import { reducePanel, type PanelAction } from '../../../src/vscode/panel/panelReducer';
import { statusView } from '../../../src/vscode/status/statusText';
import { wholeSession } from './fixtures';

const fold = (state: PanelState, actions: PanelAction[]): PanelState => actions.reduce(reducePanel, state);
const finished = (): PanelState =>
  fold(
    emptyPanelState({ instanceId: 'h', trusted: true }),
    wholeSession(2).map((event, i) => ({ type: 'supervisor', event, at: 1000 + i })),
  );

function repository(ids: string[]): RepositorySessions {
  return {
    branch: 'main',
    sessions: ids.map((id) => ({
      id,
      kata: 'FizzBuzz',
      status: 'completed',
      branch: `tdd/${id}`,
      baseBranch: 'main',
      cycles: 2,
      commits: 2,
      merged: false,
      resumable: false,
    })),
  };
}

describe('panel state stays fresh after actions', () => {
  it('Delete session: the header, timeline and history of that session go, and the status bar is idle', () => {
    const shown = reducePanel(finished(), { type: 'repository', repository: repository(['fizzbuzz-1']) });
    assert.equal(shown.session?.sessionId, 'fizzbuzz-1');
    const deleted = reducePanel(shown, { type: 'sessionDeleted', sessionId: 'fizzbuzz-1' });
    assert.equal(deleted.session, null);
    assert.deepEqual([deleted.cycles, deleted.actions], [[], []]);
    assert.equal(statusView(deleted).text, '$(beaker) TDD');
    assert.ok(parsePanelState(deleted));
  });

  it('a session deleted elsewhere (the CLI, another window) leaves the panel when the list is read again', () => {
    const shown = reducePanel(finished(), { type: 'repository', repository: repository(['fizzbuzz-1', 'other-2']) });
    const after = reducePanel(shown, { type: 'repository', repository: repository(['other-2']) });
    assert.equal(after.session, null);
    assert.equal(after.repository?.sessions.length, 1);
  });

  it('a running session is never dropped by a list that does not have it yet', () => {
    const running = fold(emptyPanelState({ instanceId: 'h', trusted: true }), [
      { type: 'supervisor', event: wholeSession(1)[0]!, at: 1 },
    ]);
    const after = reducePanel(running, { type: 'repository', repository: repository([]) });
    assert.equal(after.session?.status, 'running');
  });

  it('the merge blocker goes with the next reading of the repository (the person committed)', () => {
    const blocked = reducePanel(finished(), {
      type: 'repository',
      repository: { ...repository(['fizzbuzz-1']), mergeBlocker: 'the checkout has uncommitted changes' },
    });
    const clean = reducePanel(blocked, { type: 'repository', repository: repository(['fizzbuzz-1']) });
    assert.equal(clean.repository?.mergeBlocker, undefined);
  });

  it('the first-run card shows what is missing and empties when it is fixed; a notice tells an outcome', () => {
    const missing = reducePanel(emptyPanelState({ instanceId: 'h', trusted: true }), {
      type: 'setup',
      problems: [{ item: 'model', title: 'No model is configured', detail: '…', fixes: ['setApiKey', 'chooseProvider'] }],
    });
    assert.equal(missing.setup.length, 1);
    assert.ok(parsePanelState(missing));
    assert.equal(reducePanel(missing, { type: 'setup', problems: missing.setup }), missing, 'the same problems: no new snapshot');
    assert.deepEqual(reducePanel(missing, { type: 'setup', problems: [] }).setup, []);
    const told = reducePanel(missing, { type: 'notice', notice: { level: 'info', text: 'Merged tdd/x into main.', at: 5 } });
    assert.equal(told.notice?.text, 'Merged tdd/x into main.');
    assert.ok(parsePanelState(told));
  });

  it('a refusal the first-run check now finds fixed (a provider, the sandbox) leaves the Problems list', () => {
    const noModel: SetupProblem = {
      item: 'model',
      title: 'No model is configured',
      detail: '…',
      fixes: ['setApiKey', 'chooseProvider'],
    };
    const noSandbox: SetupProblem = {
      item: 'sandbox',
      title: 'No OS sandbox works here',
      detail: '…',
      fixes: ['showSandboxFix', 'openSandboxSetting'],
    };
    // The check runs when the window opens; the refusals come when the person runs a kata anyway.
    let state = reducePanel(emptyPanelState({ instanceId: 'h', trusted: true }), {
      type: 'setup',
      problems: [noModel, noSandbox],
    });
    for (const error_code of ['PROVIDER_NOT_CONFIGURED', 'SANDBOX_UNAVAILABLE', 'AUTH'])
      state = reducePanel(state, { type: 'error', error: { error_code, message: `${error_code}.` }, at: 1 });
    const sandboxStill = reducePanel(state, { type: 'setup', problems: [noSandbox] });
    assert.deepEqual(
      sandboxStill.errors.map((e) => e.error_code),
      ['SANDBOX_UNAVAILABLE', 'AUTH'],
    );
    const allFixed = reducePanel(sandboxStill, { type: 'setup', problems: [] });
    assert.deepEqual(
      allFixed.errors.map((e) => e.error_code),
      ['AUTH'],
      'a refused key is not something the check can see fixed',
    );
  });

  it('the wrong-model card goes once the check finds the model served; one the check never reported stays', () => {
    const notServed: SetupProblem = {
      item: 'model',
      title: "The model 'no-such-model' is not served at http://127.0.0.1:1234/v1",
      detail: 'It serves test-model. Pick one of them.',
      fixes: ['pickModel'],
    };
    const wrongModel: PanelAction = {
      type: 'error',
      error: {
        error_code: 'INVALID_REQUEST',
        message: "The model 'no-such-model' is not available at http://127.0.0.1:1234/v1 (HTTP 404).",
        details: { reason: 'model_not_found', status: 404 },
      },
      at: 2,
    };
    const refused = fold(emptyPanelState({ instanceId: 'h', trusted: true }), [
      { type: 'setup', problems: [notServed] },
      wrongModel,
    ]);
    assert.deepEqual(
      refused.errors.map((e) => e.error_code),
      ['INVALID_REQUEST'],
    );
    assert.equal(reducePanel(refused, { type: 'setup', problems: [notServed] }), refused, 'still not served: the card stays');
    const picked = reducePanel(refused, { type: 'setup', problems: [] });
    assert.deepEqual(picked.errors, [], 'the model picked from the served list: the card goes');
    assert.deepEqual(picked.setup, []);
    assert.ok(parsePanelState(picked));

    // api.openai.com: the check does not ask it for its models, so it never reported the model; nothing says it is fixed.
    const official = fold(emptyPanelState({ instanceId: 'h', trusted: true }), [{ type: 'setup', problems: [] }, wrongModel]);
    assert.equal(official.errors.length, 1);
    assert.equal(reducePanel(official, { type: 'setup', problems: [] }).errors.length, 1);
  });

  it('an error card carries the buttons that fix it: the model picker for a model the server does not serve', () => {
    const state = reducePanel(emptyPanelState({ instanceId: 'h', trusted: true }), {
      type: 'error',
      error: {
        error_code: 'INVALID_REQUEST',
        message: "The model server refused: model 'gpt-x' is not among the models it serves (a, b).",
        details: { reason: 'model_not_found' },
      },
      at: 1,
    });
    assert.deepEqual(state.errors[0]?.fixes, ['pickModel']);
    const none = reducePanel(state, {
      type: 'error',
      error: { error_code: 'PROVIDER_NOT_CONFIGURED', message: 'No provider.' },
      at: 2,
    });
    assert.deepEqual(none.errors[1]?.fixes, ['setApiKey', 'chooseProvider']);
    const sandbox = reducePanel(none, {
      type: 'error',
      error: { error_code: 'SANDBOX_UNAVAILABLE', message: 'No OS sandbox is available here.' },
      action: 'AppArmor restricts unprivileged user namespaces.',
      at: 3,
    });
    assert.equal(sandbox.errors[2]?.action, 'AppArmor restricts unprivileged user namespaces.');
    assert.deepEqual(sandbox.errors[2]?.fixes, ['showSandboxFix', 'openSandboxSetting']);
  });
});
