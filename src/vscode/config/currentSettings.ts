/**
 * The `tddAgent.*` settings of this window, read through VS Code's configuration (user-only settings from the user
 * settings alone, the approval policy never looser than the person's own), and the warning that tells the person,
 * once, about a workspace's values that are not applied.
 */
import * as vscode from 'vscode';
import { SETTINGS_SECTION, configurationReader, readSettings, type ExtensionSettings } from './settings';
import { unappliedSettingNotices } from './unappliedSettings';
import { workspaceFileSettings } from './workspaceSettingsFiles';

/** The validated settings (throws a CONFIG AgentError naming each bad one). */
export function currentSettings(): ExtensionSettings {
  return readSettings(configurationReader(vscode.workspace.getConfiguration(SETTINGS_SECTION)));
}

/** The button of the warning. */
export const OPEN_USER_SETTINGS = 'Open User Settings';

/**
 * Shows one warning with every setting that does not apply as written and was not told yet in this window (`told`
 * keeps the sentences already shown). Returns the sentences shown now.
 */
export async function warnAboutUnappliedSettings(told: Set<string>, log?: { warn(message: string): void }): Promise<string[]> {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
  const workspaceFile = vscode.workspace.workspaceFile;
  const files = await workspaceFileSettings(
    folders,
    workspaceFile?.scheme === 'file' ? workspaceFile.fsPath : undefined,
    SETTINGS_SECTION,
  );
  const notices = unappliedSettingNotices(vscode.workspace.getConfiguration(SETTINGS_SECTION), files).filter(
    (notice) => !told.has(notice),
  );
  if (notices.length === 0) return [];
  for (const notice of notices) {
    told.add(notice);
    log?.warn(notice);
  }
  void vscode.window.showWarningMessage(`TDD Agent: ${notices.join(' ')}`, OPEN_USER_SETTINGS).then((choice) => {
    if (choice === OPEN_USER_SETTINGS)
      void vscode.commands.executeCommand('workbench.action.openGlobalSettings', { query: SETTINGS_SECTION });
  });
  return notices;
}
