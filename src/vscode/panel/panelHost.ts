/**
 * The host's side of the panel's messages ({@link PanelHost}): what each message's handler (in
 * `src/shared/panelMessages/`) asks for, carried out with the extension's services. The provider hands every valid
 * message to `handlePanelMessage(message, host)`.
 */
import * as vscode from 'vscode';
import type { PanelCommandName, PanelHost } from '../../shared/panelProtocol';
import type { SessionFiles } from '../editor/sessionFiles';
import type { KataRunner } from '../session/kataRunner';
import { askFollowUp, cancelQuestion, retryQuestion, type askAboutSelection } from '../selection/selectionAgents';
import type { SessionCommands } from '../session/sessionCommands';
import type { PanelConversation } from './panelConversation';
import { workspaceFilePath } from './workspacePath';

/** URI scheme of the read-only documents "Open full output" opens: `tdd-agent-output:/<history entry id>.log`. */
export const TEST_OUTPUT_SCHEME = 'tdd-agent-output';

/** What the panel's messages are carried out with. */
export interface PanelHostDeps {
  log: vscode.LogOutputChannel;
  /** The running session's cards: the person's answers go to it by id. */
  conversation: Pick<PanelConversation, 'answerApproval' | 'answerQuestion'>;
  runner: Pick<KataRunner, 'testOutput'>;
  sessions: Pick<SessionCommands, 'run' | 'openCommit'>;
  files: Pick<SessionFiles, 'openFile' | 'openDiff'>;
  selection: Parameters<typeof askAboutSelection>[0];
  runCommand(name: PanelCommandName): unknown;
  /** The panel (re)loaded: post it the state and read what may have changed. */
  panelReady(): void;
}

/** The extension's {@link PanelHost}. */
export function createPanelHost(deps: PanelHostDeps): PanelHost {
  return {
    log: deps.log,
    panelReady: () => deps.panelReady(),
    runCommand: (name) => deps.runCommand(name),
    answerApproval: (requestId, decision) => deps.conversation.answerApproval(requestId, decision),
    answerPersonQuestion: (id, answer) => deps.conversation.answerQuestion(id, answer),
    sessionAction: (action, id) => deps.sessions.run(action, id),
    openCommit: (id, sha) => deps.sessions.openCommit(id, sha),
    openWorkspaceFile: (path, line) => openWorkspaceFile(path, line),
    openSessionFile: (path, line) => deps.files.openFile(path, line),
    openDiff: (id) => deps.files.openDiff(id),
    openTestOutput: (id) => openTestOutput(deps.runner, id),
    askFollowUp: (answerId, question) => askFollowUp(deps.selection, answerId, question),
    cancelQuestion: (id) => cancelQuestion(deps.selection, id),
    retryQuestion: (id) => retryQuestion(deps.selection, id),
  };
}

/** Opens the full runner output of a test run of the history in a read-only editor. */
async function openTestOutput(runner: Pick<KataRunner, 'testOutput'>, id: string): Promise<void> {
  if (runner.testOutput(id) === undefined) {
    void vscode.window.showInformationMessage(
      'TDD Agent: the full output of this test run is no longer kept (it is kept for the runs of this window).',
    );
    return;
  }
  const uri = vscode.Uri.from({ scheme: TEST_OUTPUT_SCHEME, path: `/${id}.log` });
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
}

/** Opens a file the panel names (a file label), at `line` when given; only inside the workspace folder. */
async function openWorkspaceFile(relative: string, line: number | undefined): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  const file = folder && folder.uri.scheme === 'file' ? workspaceFilePath(folder.uri.fsPath, relative) : undefined;
  if (!file) {
    void vscode.window.showWarningMessage(`TDD Agent: ${relative} is not a file of this workspace folder.`);
    return;
  }
  try {
    const position = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
    await vscode.window.showTextDocument(vscode.Uri.file(file), {
      selection: new vscode.Range(position, position),
      preview: true,
    });
  } catch (error) {
    void vscode.window.showWarningMessage(
      `TDD Agent: cannot open ${relative}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
