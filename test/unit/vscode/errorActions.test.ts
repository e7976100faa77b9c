import assert from 'node:assert/strict';
import { ERROR_CODES, isAgentError } from '../../../src/core/errors/agentError';
import { parseKata } from '../../../src/core/tdd/kata/parseKata';
import { emptyPanelState } from '../../../src/shared/panelProtocol';
import { buildLlmError } from '../../../src/core/llm/llmError';
import { errorAction, vscodeErrorMessage } from '../../../src/vscode/panel/errorActions';
import { reducePanel } from '../../../src/vscode/panel/panelReducer';
import { statusView } from '../../../src/vscode/status/statusText';

describe('what the extension tells a person to do about an error (VS Code words)', () => {
  const actions = [...ERROR_CODES, 'WORKSPACE_DIRTY', 'UNTRUSTED_WORKSPACE', 'NO_WORKSPACE', 'NO_SELECTION', 'SESSION_RUNNING']
    .map((code) => [code, errorAction(code)] as const)
    .filter((entry): entry is readonly [string, string] => entry[1] !== undefined);

  it('never names a CLI flag, the old stash flow or the old .tdd/session.json', () => {
    assert.ok(actions.length > 10);
    for (const [code, text] of actions) {
      assert.doesNotMatch(text, /(^|\s)--[a-z]/, `${code}: ${text}`);
      assert.doesNotMatch(text, /stash|\.tdd\/session\.json/i, `${code}: ${text}`);
    }
    assert.equal(errorAction('WORKSPACE_DIRTY'), undefined, 'a dirty repository is no error any more');
  });

  it('never names a setting id, an environment variable or a command to type (issue 36)', () => {
    for (const [code, text] of [...actions, ['TIMEOUT', errorAction('TIMEOUT', { baseURL: 'http://x/v1' }) ?? '']]) {
      assert.doesNotMatch(text, /tddAgent\.|OPENAI_|OLLAMA_|'ollama serve'/, `${code}: ${text}`);
    }
  });

  it('SANDBOX_UNAVAILABLE says how to turn the sandbox off in VS Code and what that means', () => {
    const text = errorAction('SANDBOX_UNAVAILABLE') ?? '';
    assert.match(text, /turn the sandbox off in your user settings \(Open sandbox setting\)/);
    assert.match(text, /unconfined on your machine/);
    assert.match(text, /bubblewrap/);
  });

  it('VALIDATION (a broken kata file) says to correct what the message names, opening the file at its line from the link', () => {
    const text = errorAction('VALIDATION');
    assert.ok(text, 'a "What to do" line for VALIDATION');
    assert.match(text, /^Correct what the message names/);
    assert.match(text, /opens at that line from the link/);
    assert.match(text, /then try again\.$/);
    // The line reaches the error card of a kata whose front matter is not valid YAML, under the parser's whole reason.
    let message = '';
    try {
      parseKata('---\ntitle: Broken\ntags: [a, b\nlanguage: javascript\n---\n# Broken\n', { fileName: '/ws/katas/broken.md' });
    } catch (error) {
      assert.ok(isAgentError(error));
      assert.equal(error.error_code, 'VALIDATION');
      message = error.message;
    }
    assert.match(
      message,
      /^Kata \/ws\/katas\/broken\.md: the front matter is not valid YAML \(front matter line \d+, column \d+\): \S/,
    );
    const card = reducePanel(emptyPanelState({ instanceId: 'h', trusted: true }), {
      type: 'error',
      error: { error_code: 'VALIDATION', message },
      at: 1,
    }).errors[0];
    assert.equal(card?.action, text);
    assert.equal(card?.message, message, 'the whole reason, not cut after "column 1:"');
  });

  it('the new session refusals say what to do in the panel', () => {
    assert.match(errorAction('KATA_NOT_APPROVED') ?? '', /approve the command on the card in the TDD Agent panel/);
    assert.match(errorAction('SESSION_STATE_INVALID') ?? '', /Delete that session in the TDD Agent panel/);
    assert.match(errorAction('CANCELLED') ?? '', /Resume it from the TDD Agent panel/);
  });
});

describe('error messages in VS Code words (one error code, two wordings)', () => {
  it('the no-provider error names no CLI flag and is short; the action line says what to do', async () => {
    const { HOW_TO_CONFIGURE } = await import('../../../src/core/llm/providerDetection');
    const text = vscodeErrorMessage({ error_code: 'PROVIDER_NOT_CONFIGURED', message: HOW_TO_CONFIGURE });
    assert.doesNotMatch(text, /--base-url|--provider|replay/);
    assert.ok(text.split(/\s+/).length < 20, text);
    assert.match(errorAction('PROVIDER_NOT_CONFIGURED') ?? '', /^Set an API key, or choose a provider/);
  });

  it('a model error keeps its fact, without the command-line advice after it, and a doubled full stop is one', () => {
    const text = vscodeErrorMessage({
      error_code: 'CONNECTION',
      message:
        "Could not reach the model server at http://127.0.0.1:9 after 2 retries: Connection error.. Check that the server is running and that the base URL is right (OPENAI_BASE_URL or --base-url; for Ollama: 'ollama serve' and OLLAMA_HOST).",
    });
    assert.equal(text, 'Could not reach the model server at http://127.0.0.1:9 after 2 retries: Connection error.');
    assert.equal(
      vscodeErrorMessage({ error_code: 'X', message: 'Wait... then retry. Or pass --stash to keep it.' }),
      'Wait... then retry.',
    );
  });

  it('says each thing once (issue 36): the server that cannot be reached or refused the key, and what to do, without setting ids or "set OPENAI_API_KEY"', () => {
    const context = { provider: 'openai' as const, baseURL: 'http://127.0.0.1:9/v1', model: 'm', timeoutMs: 1000, retries: 2 };
    for (const [failure, message, action] of [
      [
        { code: 'CONNECTION', retryable: true, serverMessage: 'Connection error.' },
        'Nothing answered at http://127.0.0.1:9/v1 (tried 3 times).',
        'Start the model server, or choose another provider or base URL.',
      ],
      [
        { code: 'AUTH', retryable: false, status: 401, serverMessage: 'Incorrect API key provided.' },
        'The model server at http://127.0.0.1:9/v1 answered HTTP 401: Incorrect API key provided.',
        'Set a valid API key.',
      ],
      [
        { code: 'TIMEOUT', retryable: true },
        "The model 'm' did not answer within 1000 ms after 2 retries (http://127.0.0.1:9/v1).",
        'Run the kata again; if the model keeps taking too long, choose a faster model or another server.',
      ],
    ] as const) {
      const error = buildLlmError(failure, context);
      const card = reducePanel(emptyPanelState({ instanceId: 'h', trusted: true }), {
        type: 'error',
        error: { error_code: error.error_code, message: error.message, details: { ...error.details } },
        at: 1,
      }).errors[0]!;
      assert.equal(card.message, message, failure.code);
      assert.equal(card.action, action, failure.code);
      assert.doesNotMatch(`${card.message} ${card.action}`, /tddAgent\.|OPENAI_|OLLAMA_|--[a-z]|ollama serve/, failure.code);
    }
    // Without the details, the core's own first sentence, with no "set OPENAI_API_KEY".
    const refused = buildLlmError({ code: 'AUTH', retryable: false, status: 401 }, context);
    assert.equal(
      vscodeErrorMessage({ error_code: 'AUTH', message: refused.message }),
      'The API key was rejected by the model server at http://127.0.0.1:9/v1 (HTTP 401).',
    );
    assert.equal(errorAction('TIMEOUT'), undefined, 'a test run that ran out of time: no model advice');
  });

  it('a refusal before the session started leaves no failed session (no red status bar, no "Cycle 0 of 10 / Branch —")', () => {
    let state = reducePanel(emptyPanelState({ instanceId: 'h', trusted: true }), {
      type: 'sessionStarting',
      kata: 'fizz.md',
      model: '',
      provider: 'auto',
      maxCycles: 10,
      at: 1,
    });
    state = reducePanel(state, { type: 'sessionAborted', status: 'failed', at: 2 });
    state = reducePanel(state, {
      type: 'error',
      error: { error_code: 'PROVIDER_NOT_CONFIGURED', message: 'x --base-url' },
      at: 3,
    });
    assert.equal(state.session, null);
    assert.equal(state.errors.length, 1, 'shown once');
    const status = statusView(state);
    assert.doesNotMatch(status.text, /failed|\$\(error\)/);
  });
});
