import assert from 'node:assert/strict';
import { createNonce, panelCsp, PANEL_RESOURCES, renderPanelHtml } from '../../../src/shared/panelHtml';

const options = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  nonce: 'abcdefghijklmnopqrstuvwx',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js',
  styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/panel.css',
};

describe('renderPanelHtml', () => {
  it('sets a strict CSP: nothing by default, scripts only by nonce, styles only from the webview origin', () => {
    const html = renderPanelHtml(options);
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, new RegExp(`script-src 'nonce-${options.nonce}'`));
    assert.match(csp, /style-src https:\/\/file\+\.vscode-resource\.vscode-cdn\.net(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
  });

  it('loads exactly one script (with the nonce) and one stylesheet, and has no inline handlers or styles', () => {
    const html = renderPanelHtml(options);
    assert.equal(html.match(/<script /g)?.length, 1);
    assert.ok(html.includes(`<script nonce="${options.nonce}" src="${options.scriptUri}"></script>`));
    assert.ok(html.includes(`<link rel="stylesheet" href="${options.styleUri}">`));
    assert.doesNotMatch(html, /\son[a-z]+=/i);
    assert.doesNotMatch(html, /\sstyle=/i);
    assert.match(html, /<main id="root"/);
  });

  it('escapes URIs and the title', () => {
    const html = renderPanelHtml({ ...options, scriptUri: 'x"><img src=y>', title: '<b>T</b>' });
    assert.ok(!html.includes('"><img'));
    assert.ok(html.includes('x&quot;&gt;&lt;img src=y&gt;'));
    assert.ok(html.includes('<title>&lt;b&gt;T&lt;/b&gt;</title>'));
  });

  it('refuses a nonce or CSP source that could weaken the policy', () => {
    assert.throws(() => renderPanelHtml({ ...options, nonce: 'short' }), TypeError);
    assert.throws(() => renderPanelHtml({ ...options, nonce: "abcdefghijklmnop' 'unsafe-inline" }), TypeError);
    assert.throws(() => renderPanelHtml({ ...options, cspSource: "https://a; script-src 'unsafe-inline'" }), TypeError);
    assert.throws(() => renderPanelHtml({ ...options, cspSource: '' }), TypeError);
  });

  it('createNonce gives distinct nonces the renderer accepts', () => {
    const nonces = new Set(Array.from({ length: 50 }, () => createNonce()));
    assert.equal(nonces.size, 50);
    for (const nonce of nonces) assert.doesNotThrow(() => renderPanelHtml({ ...options, nonce }));
    assert.match(panelCsp('vscode-webview://x', 'n'), /script-src 'nonce-n'/);
  });

  it('names the resources the host must map with asWebviewUri', () => {
    assert.deepEqual(PANEL_RESOURCES, { script: 'dist/webview.js', style: 'media/panel.css' });
  });
});

describe('renderPanelHtml with the cspSource VS Code really gives', () => {
  const csp = (html: string): string => /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1]!;

  it("accepts a list of sources (VS Code 1.139: 'self' https://*.vscode-cdn.net) and keeps every one in each directive", () => {
    const policy = csp(renderPanelHtml({ ...options, cspSource: "'self' https://*.vscode-cdn.net" }));
    assert.match(policy, /style-src 'self' https:\/\/\*\.vscode-cdn\.net;/);
    assert.match(policy, /img-src 'self' https:\/\/\*\.vscode-cdn\.net data:/);
    assert.match(policy, /default-src 'none'/);
  });

  it('refuses a list that would inject a directive or a keyword', () => {
    for (const cspSource of [
      "'self' https://a; script-src *",
      "'unsafe-inline' https://a",
      "'self' 'unsafe-eval'",
      'https://a,https://b',
      '   ',
    ]) {
      assert.throws(() => renderPanelHtml({ ...options, cspSource }), TypeError, cspSource);
    }
  });
});
