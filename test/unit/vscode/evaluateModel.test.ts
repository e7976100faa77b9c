/**
 * "TDD Agent: Evaluate the configured model…" refuses before running anything: in Restricted Mode, when the person
 * dismisses a question, and for the replay provider. Its handler runs with a double of VS Code's calls (the
 * `EvaluationUi` the command gives it); a real eval through it (progress, Cancel, the report's preview) is
 * test/integration/vscode/evaluateModel.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isAgentError } from '../../../src/core/errors/agentError';
import { readSettings } from '../../../src/vscode/config/settings';
import { runEvaluation } from '../../../src/vscode/commands/evaluation';
import { EVAL_FIXTURE_SET } from '../../support/evalPlayers';
import { FakeEvaluationUi } from '../../support/fakeEvaluationUi';

const SET = resolve(__dirname, '..', '..', '..', EVAL_FIXTURE_SET);

describe('TDD Agent: Evaluate the configured model… (the command’s handler): its refusals', () => {
  let storage: string;

  beforeEach(async () => (storage = await mkdtemp(join(tmpdir(), 'vscode-eval-'))));
  afterEach(() => rm(storage, { recursive: true, force: true }));

  // Port 9 (discard) has no model behind it: the eval starts under withProgress, which no case here reaches.
  const deps = (ui: FakeEvaluationUi, settings: Record<string, unknown> = {}) => ({
    settings: () =>
      readSettings((key) => ({ provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'test-model', ...settings })[key]),
    apiKey: () => Promise.resolve(undefined),
    log: { info: () => undefined },
    storage,
    extensionPath: resolve(__dirname, '..', '..', '..'),
    ui,
    env: { OLLAMA_HOST: 'http://127.0.0.1:9' },
    setDir: SET,
  });

  it('runs nothing in Restricted Mode, or when the person dismisses a question', async () => {
    const untrusted = new FakeEvaluationUi();
    untrusted.trusted = false;
    assert.equal(await runEvaluation(deps(untrusted)), undefined);
    assert.deepEqual(untrusted.calls, ['warn']);
    assert.match(untrusted.warnings[0]!, /disabled in Restricted Mode/);

    const dismissed = new FakeEvaluationUi();
    dismissed.scope = undefined;
    assert.equal(await runEvaluation(deps(dismissed)), undefined);
    assert.deepEqual(dismissed.calls, ['askScope conditionals,easy,strings']);
  });

  it('refuses the replay provider before asking anything (an eval needs a model)', async () => {
    const ui = new FakeEvaluationUi();
    await assert.rejects(
      runEvaluation(deps(ui, { provider: 'replay', cassette: 'x.json' })),
      (err) => isAgentError(err) && err.error_code === 'CONFIG' && /an eval needs a model/.test(err.message),
    );
    assert.deepEqual(ui.calls, []);
  });
});
