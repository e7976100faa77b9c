/** The status bar item: cycle n/N, phase, tests and tokens from the panel state; a click opens the panel. */
import * as vscode from 'vscode';
import type { PanelState } from '../../shared/panelProtocol';
import { COMMANDS } from '../commands/commandIds';
import { statusView } from './statusText';

/** Keeps one status bar item in step with the panel state. */
export class KataStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor() {
    this.item = vscode.window.createStatusBarItem('tddAgent.status', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'TDD Agent';
    this.item.command = COMMANDS.openPanel;
  }

  /** Renders `state` into the item. */
  update(state: PanelState): void {
    const view = statusView(state);
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor =
      state.session?.status === 'failed' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    if (view.visible) this.item.show();
    else this.item.hide();
  }

  dispose(): void {
    this.item.dispose();
  }
}
