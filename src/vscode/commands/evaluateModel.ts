/**
 * "TDD Agent: Evaluate the configured model…": runs the bundled eval kata set (`tdd-agent eval`'s) against the
 * model the settings configure, with a cancellable progress notification, then opens the Markdown report in VS Code's
 * Markdown preview (a readable table, not raw JSON). Ctrl-C's equivalent is the notification's Cancel: the report
 * keeps the runs that finished. The logic is `runEvaluation` (evaluation.ts); this file gives it VS Code's calls.
 */
import * as vscode from 'vscode';
import { type EvalOutcome, type Language, LANGUAGES } from '../../core/tddApi';
import type { ExtensionSettings } from '../config/settings';
import { runEvaluation, type EvalKataChoice, type EvalScope, type EvaluationUi } from './evaluation';

/** What the command needs from the extension host. */
export interface EvaluateModelDeps {
  settings: () => ExtensionSettings;
  apiKey: () => Promise<string | undefined>;
  log: vscode.LogOutputChannel;
  /** The extension's private storage: the reports go under `<storage>/eval/<time>/`. */
  storage: vscode.Uri;
  extensionPath: string;
}

/**
 * Asks for the language, the katas (a multi-select list of the set's katas that run in that language; none ticked is
 * the whole set) and the runs per kata; undefined when dismissed.
 */
async function askScope(_tags: readonly string[], exercises: readonly EvalKataChoice[]): Promise<EvalScope | undefined> {
  const language = await vscode.window.showQuickPick(
    LANGUAGES.map((l) => ({ label: l })),
    { title: 'Evaluate the configured model: language', placeHolder: 'The language the sessions are run in' },
  );
  if (!language) return undefined;
  const runnable = exercises.filter((e) => e.languages.includes(language.label as Language));
  const katas = await vscode.window.showQuickPick(
    runnable.map((e) => ({ label: e.slug, description: e.title, detail: e.tags.length > 0 ? e.tags.join(', ') : undefined })),
    {
      title: `Evaluate the configured model: katas (${runnable.length} in ${language.label})`,
      placeHolder: 'Tick the katas to run; none ticked runs them all',
      canPickMany: true,
      matchOnDescription: true,
      matchOnDetail: true,
    },
  );
  if (katas === undefined) return undefined;
  const runs = await vscode.window.showQuickPick(
    [
      { label: '1', description: 'one session per kata: pass@1' },
      { label: '3', description: 'pass@1 and pass@3' },
      { label: '5', description: 'pass@1 and pass@5' },
    ],
    { title: 'Evaluate the configured model: runs per kata' },
  );
  if (!runs) return undefined;
  return { language: language.label as Language, katas: katas.map((k) => k.label), runs: Number(runs.label) };
}

/** The command's VS Code calls. */
const VSCODE_UI: EvaluationUi = {
  isTrusted: () => vscode.workspace.isTrusted,
  warn: (message) => void vscode.window.showWarningMessage(message),
  askScope,
  withProgress: (title, task) =>
    Promise.resolve(
      vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, task),
    ),
  openMarkdownPreview: async (file) => {
    await vscode.commands.executeCommand('markdown.showPreview', vscode.Uri.file(file));
  },
  inform: (message, action) => vscode.window.showInformationMessage(message, action).then((choice) => choice === action),
  revealFile: (file) => void vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(file)),
};

/**
 * Runs the eval and opens its report; resolves to the outcome, or undefined when nothing ran (untrusted workspace,
 * dismissed question, configuration error — each explained).
 */
export function evaluateModel(deps: EvaluateModelDeps): Promise<EvalOutcome | undefined> {
  return runEvaluation({
    settings: deps.settings,
    apiKey: deps.apiKey,
    log: deps.log,
    storage: deps.storage.fsPath,
    extensionPath: deps.extensionPath,
    workspaceRoot: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    ui: VSCODE_UI,
  });
}
