/** The slice of the webview API the panel uses (`acquireVsCodeApi()` exists only inside a webview). */
import type { PanelMessage } from '../src/shared/panelProtocol';

/** What `acquireVsCodeApi()` returns, typed for our messages. */
export interface VsCodeApi {
  postMessage(message: PanelMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare global {
  /** Provided by VS Code in a webview (and by the browser test harness); callable once per page. */
  function acquireVsCodeApi(): VsCodeApi;
}
