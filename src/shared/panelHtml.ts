/**
 * The agent panel's HTML document: one definition used by the extension host (webview view) and by
 * the browser test harness. Strict Content-Security-Policy: no inline script or style, no remote
 * resources; the only script is the bundle carrying the per-load nonce.
 *
 * Icons are inline SVG built by the panel script (no codicon font to serve), so the only resources
 * the host must expose through `asWebviewUri` are {@link PANEL_RESOURCES}.
 */

/** Files (relative to the extension root) the panel HTML loads; the host maps them with `asWebviewUri`. */
export const PANEL_RESOURCES = {
  script: 'dist/webview.js',
  style: 'media/panel.css',
} as const;

/** Inputs of {@link renderPanelHtml}. */
export interface PanelHtmlOptions {
  /** `webview.cspSource`: the source expression(s) the webview serves local resources from. */
  cspSource: string;
  /** A fresh random nonce per render (see {@link createNonce}). */
  nonce: string;
  /** URI of `dist/webview.js` as the webview sees it. */
  scriptUri: string;
  /** URI of `media/panel.css` as the webview sees it. */
  styleUri: string;
  /** Document title (defaults to "TDD Agent"). */
  title?: string;
}

const NONCE_PATTERN = /^[A-Za-z0-9+/_=-]{16,128}$/;

/** Escapes text for HTML text or a double-quoted attribute (the only kind this document uses). */
function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** One CSP source expression: `'self'`, a scheme (`https:`) or a scheme-qualified host (`https://*.vscode-cdn.net`). */
const CSP_SOURCE_TOKEN = /^(?:'self'|[a-z][a-z0-9+.-]*:(?:\/\/[^\s;,'"]+)?)$/i;

/**
 * `webview.cspSource` is one or more source expressions separated by spaces (VS Code 1.139 gives
 * `'self' https://*.vscode-cdn.net`). Each must be a plain source: nothing that ends the directive,
 * injects another one, or adds a keyword such as `'unsafe-inline'`.
 */
function assertCspSource(value: string): void {
  const tokens = value.trim().split(/\s+/).filter(Boolean);
  if (tokens.length === 0 || !tokens.every((token) => CSP_SOURCE_TOKEN.test(token))) {
    throw new TypeError(`renderPanelHtml: invalid cspSource ${JSON.stringify(value)}`);
  }
}

/** A URL-safe random nonce (base64url of 24 random bytes) from Web Crypto, available in Node 20 and browsers. */
export function createNonce(): string {
  const bytes = new Uint8Array(24);
  globalThis.crypto.getRandomValues(bytes);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The Content-Security-Policy of the panel for a given webview origin and nonce. */
export function panelCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * Renders the panel document. Throws a TypeError for a nonce or cspSource that could weaken the
 * policy (a programming error on the host, not user input).
 */
export function renderPanelHtml(options: PanelHtmlOptions): string {
  const { cspSource, nonce, scriptUri, styleUri } = options;
  if (!NONCE_PATTERN.test(nonce)) throw new TypeError('renderPanelHtml: the nonce must be 16-128 base64 characters');
  assertCspSource(cspSource);
  const title = escapeHtml(options.title ?? 'TDD Agent');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(panelCsp(cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(styleUri)}">
<title>${title}</title>
</head>
<body>
<main id="root" class="panel" aria-busy="true"><p class="loading">Loading the TDD Agent panel…</p></main>
<script nonce="${escapeHtml(nonce)}" src="${escapeHtml(scriptUri)}"></script>
</body>
</html>
`;
}
