import assert from 'node:assert/strict';
import { ERROR_CODES } from '../../../src/core/errors/agentError';
import { errorAction } from '../../../src/vscode/panel/errorActions';

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
