import assert from 'node:assert/strict';
import { renderPanelDocument } from '../../../src/vscode/panel/panelDocument';

const uris = { scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js', styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/panel.css' };
const csp = (html: string): string => /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1]!;

describe('panel document (CSP with the webview\'s real cspSource)', () => {
  it('accepts the two-token cspSource of VS Code 1.139 and keeps both tokens in every directive that uses it', () => {
    const html = renderPanelDocument({ ...uris, cspSource: "'self' https://*.vscode-cdn.net" });
    const policy = csp(html);
    assert.match(policy, /style-src 'self' https:\/\/\*\.vscode-cdn\.net;/);
    assert.match(policy, /img-src 'self' https:\/\/\*\.vscode-cdn\.net data:/);
    assert.match(policy, /default-src 'none'/);
    assert.doesNotMatch(html, /csp-source\.invalid/);
  });

  it('a fresh nonce per render, used by the only script', () => {
    const a = renderPanelDocument({ ...uris, cspSource: 'https://x.vscode-cdn.net' });
    const b = renderPanelDocument({ ...uris, cspSource: 'https://x.vscode-cdn.net' });
    const nonce = (html: string) => /script-src 'nonce-([^']+)'/.exec(html)![1];
    assert.notEqual(nonce(a), nonce(b));
    assert.match(a, new RegExp(`<script nonce="${nonce(a)}" src="${uris.scriptUri.replace(/[.+*]/g, '\\$&')}"></script>`));
    assert.equal((a.match(/<script/g) ?? []).length, 1);
  });

  it('refuses a cspSource that would inject a directive or a keyword', () => {
    for (const cspSource of ["'self' https://a; script-src *", "'unsafe-inline' https://a", "'self' 'unsafe-eval'", 'https://a,https://b', '']) {
      assert.throws(() => renderPanelDocument({ ...uris, cspSource }), TypeError, cspSource);
    }
  });
});
