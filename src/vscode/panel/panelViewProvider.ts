/**
 * The agent panel as a webview view: strict-CSP HTML from `renderPanelHtml` with a fresh nonce,
 * resources only from `dist/` and `media/`, the whole {@link PanelState} posted on every
 * (throttled) change and whenever the panel says `ready`. Every message from the panel is
 * validated with `parsePanelMessage` (an invalid or unknown one is logged and dropped) and handed to the
 * host's handler (`handlePanelMessage`: the message's own definition says what it does).
 */
import * as vscode from 'vscode';
import { createNonce, PANEL_RESOURCES, renderPanelHtml } from '../../shared/panelHtml';
import { parsePanelMessage, stateMessage, type PanelMessage } from '../../shared/panelProtocol';
import type { PanelStore } from './panelStore';

/** What the provider does with a valid panel message (`handlePanelMessage`); a returned promise's rejection is logged. */
export interface PanelMessageHandler {
  (message: PanelMessage): unknown;
}

/** Serves the panel; one instance per activation. */
export class PanelViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  /** Listeners of the current view only. */
  private readonly disposables: vscode.Disposable[] = [];
  private readonly unsubscribe: () => void;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly store: PanelStore,
    private readonly log: vscode.LogOutputChannel,
    private readonly onPanelMessage: PanelMessageHandler,
    /** Called when the panel says `ready` or becomes visible again (the host reads what may have changed meanwhile). */
    private readonly onShown: () => void = () => undefined,
  ) {
    this.unsubscribe = store.onDidChange(() => this.post());
  }

  /** Called by VS Code when the view is first shown (and again after it was disposed). */
  resolveWebviewView(view: vscode.WebviewView): void {
    this.releaseView(); // VS Code may resolve a new view after disposing the old one: drop the old listeners
    this.view = view;
    this.store.panelVisible = view.visible;
    const { webview } = view;
    const roots = [vscode.Uri.joinPath(this.extensionUri, 'dist'), vscode.Uri.joinPath(this.extensionUri, 'media')];
    webview.options = { enableScripts: true, localResourceRoots: roots };
    webview.html = renderPanelHtml({
      cspSource: webview.cspSource,
      nonce: createNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, PANEL_RESOURCES.script)).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, PANEL_RESOURCES.style)).toString(),
    });
    this.disposables.push(
      webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      view.onDidChangeVisibility(() => {
        this.store.panelVisible = view.visible;
        if (!view.visible) return;
        this.post();
        this.onShown();
      }),
      view.onDidDispose(() => {
        if (this.view === view) {
          this.view = undefined;
          this.store.panelVisible = false;
          this.releaseView();
        }
      }),
    );
    this.log.debug('panel view resolved');
  }

  /** Posts the current state to the panel (no-op while no view exists). */
  post(): void {
    const view = this.view;
    if (!view) return;
    view.webview.postMessage(stateMessage(this.store.state)).then(
      (delivered) => {
        if (!delivered) this.log.debug('panel did not take the state (hidden)');
      },
      (error: unknown) =>
        this.log.warn(`posting the state to the panel failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  private receive(raw: unknown): void {
    const { message, reason } = parsePanelMessage(raw);
    if (!message) {
      this.log.warn(`panel: dropped ${reason}`);
      return;
    }
    const failed = (error: unknown): void =>
      this.log.error(`panel message ${message.type} failed: ${error instanceof Error ? error.message : String(error)}`);
    try {
      const result = this.onPanelMessage(message);
      if (result instanceof Promise) result.catch(failed);
    } catch (error) {
      failed(error);
    }
  }

  /** Disposes the listeners of the current view. */
  private releaseView(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }

  dispose(): void {
    this.unsubscribe();
    this.releaseView();
    this.view = undefined;
  }
}
