/**
 * The panel's HTML for one webview load: `renderPanelHtml` with a fresh nonce, accepting the
 * `cspSource` VS Code really gives. Pure (no `vscode`).
 */
import { createNonce, renderPanelHtml } from '../../shared/panelHtml';

/** One CSP source expression: `'self'`, a scheme (`https:`) or a scheme-qualified host (`https://*.vscode-cdn.net`). */
const CSP_SOURCE_TOKEN = /^(?:'self'|[a-z][a-z0-9+.-]*:(?:\/\/[^\s;,'"]+)?)$/i;
/** Stands in for a multi-token `cspSource` while rendering. */
const CSP_PLACEHOLDER = 'https://csp-source.invalid';

/** Inputs of {@link renderPanelDocument}: what the webview gives (`cspSource`, `asWebviewUri` results). */
export interface PanelDocumentOptions {
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  /** Default: a fresh {@link createNonce}. */
  nonce?: string;
}

/**
 * The panel document. VS Code 1.139 gives a `cspSource` of two tokens (`'self' https://*.vscode-cdn.net`),
 * which `renderPanelHtml` refuses as one source; such a list is checked token by token here and put in
 * place of a placeholder. Anything else goes to `renderPanelHtml` unchanged, which refuses what could
 * weaken the policy (a `;`, a quote outside `'self'`) with a TypeError.
 */
export function renderPanelDocument(options: PanelDocumentOptions): string {
  const tokens = options.cspSource.split(/\s+/).filter(Boolean);
  const multi = tokens.length > 1 && tokens.every((t) => CSP_SOURCE_TOKEN.test(t));
  const html = renderPanelHtml({
    cspSource: multi ? CSP_PLACEHOLDER : options.cspSource,
    nonce: options.nonce ?? createNonce(),
    scriptUri: options.scriptUri,
    styleUri: options.styleUri,
  });
  return multi ? html.split(CSP_PLACEHOLDER).join(tokens.join(' ')) : html;
}
