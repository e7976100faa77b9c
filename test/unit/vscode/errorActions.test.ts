import assert from 'node:assert/strict';
import { ERROR_CODES } from '../../../src/core/errors/agentError';
import { emptyPanelState } from '../../../src/shared/panelProtocol';
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

  it('SANDBOX_UNAVAILABLE says how to turn the sandbox off in VS Code and what that means', () => {
    const text = errorAction('SANDBOX_UNAVAILABLE') ?? '';
    assert.match(text, /'tddAgent\.sandbox' to "off"/);
    assert.match(text, /user settings/);
    assert.match(text, /unconfined on your machine/);
    assert.match(text, /bubblewrap/);
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
    assert.match(errorAction('PROVIDER_NOT_CONFIGURED') ?? '', /Set API key/);
  });

  it('drops parentheses and sentences that name flags, and a doubled full stop', () => {
    const text = vscodeErrorMessage({
      error_code: 'CONNECTION',
      message:
        "Could not reach the model server at http://127.0.0.1:9 after 2 retries: Connection error.. Check that the server is running and that the base URL is right (OPENAI_BASE_URL or --base-url; for Ollama: 'ollama serve' and OLLAMA_HOST).",
    });
    assert.equal(
      text,
      'Could not reach the model server at http://127.0.0.1:9 after 2 retries: Connection error. Check that the server is running and that the base URL is right.',
    );
    assert.equal(
      vscodeErrorMessage({ error_code: 'X', message: 'Wait... then retry. Or pass --stash to keep it.' }),
      'Wait... then retry.',
    );
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
