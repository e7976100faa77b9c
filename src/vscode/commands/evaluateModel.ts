/**
 * "TDD Agent: Evaluate the configured model…": runs the bundled eval kata set (`tdd-agent eval`'s) against the
 * model the settings configure, with a cancellable progress notification, then opens the Markdown report in VS Code's
 * Markdown preview (a readable table, not raw JSON). Ctrl-C's equivalent is the notification's Cancel: the report
 * keeps the runs that finished.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { AgentError } from '../../core/errors/agentError';
import { bundledEvalSetDir, defaultConcurrency, loadEvalSet, runEval, selectExercises, type EvalOutcome } from '../../core/eval';
import { KATA_LANGUAGES, type KataLanguage } from '../../core/tdd/kata';
import { createModelClient } from '../config/modelClient';
import { modelPrice } from '../config/modelPrices';
import type { ExtensionSettings } from '../config/settings';

/** What the command needs from the extension host. */
export interface EvaluateModelDeps {
  settings: () => ExtensionSettings;
  apiKey: () => Promise<string | undefined>;
  log: vscode.LogOutputChannel;
  /** The extension's private storage: the reports go under `<storage>/eval/<time>/`. */
  storage: vscode.Uri;
  extensionPath: string;
}

/** `20261126-0712`: a folder name that sorts by time. */
function stamp(date = new Date()): string {
  return date.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
}

/** Asks for the language, the katas and the runs per kata; undefined when dismissed. */
async function askScope(tags: string[]): Promise<{ language: KataLanguage; katas: string[]; runs: number } | undefined> {
  const language = await vscode.window.showQuickPick(
    KATA_LANGUAGES.map((l) => ({ label: l })),
    { title: 'Evaluate the configured model: language', placeHolder: 'The language the sessions are run in' },
  );
  if (!language) return undefined;
  const katas = await vscode.window.showInputBox({
    title: 'Evaluate the configured model: katas',
    prompt: `Names or tags, comma-separated (empty: the whole set). Tags: ${tags.join(', ')}`,
    value: '',
  });
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
  return { language: language.label as KataLanguage, katas: katas.trim() ? [katas] : [], runs: Number(runs.label) };
}

/**
 * Runs the eval and opens its report; resolves to the outcome, or undefined when nothing ran (untrusted workspace,
 * dismissed question, configuration error — each explained).
 */
export async function evaluateModel(deps: EvaluateModelDeps): Promise<EvalOutcome | undefined> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage(
      'TDD Agent: an eval runs agents that write files and run commands; it is disabled in Restricted Mode.',
    );
    return undefined;
  }
  const settings = deps.settings();
  if (settings.provider === 'replay')
    throw new AgentError(
      'CONFIG',
      'The replay provider plays one recorded session; an eval needs a model. Choose another tddAgent.provider.',
      {},
    );
  const dir = bundledEvalSetDir();
  if (!dir) throw new AgentError('CONFIG', 'This installation has no eval kata set (katas/eval/set.json).', {});
  const set = await loadEvalSet(dir);
  const scope = await askScope([...new Set(set.exercises.flatMap((e) => e.tags))].sort());
  if (!scope) return undefined;
  const exercises = selectExercises(set, scope.katas, scope.language);
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const model = await createModelClient(settings, await deps.apiKey(), root, process.env, undefined, deps.extensionPath);
  const outDir = path.join(deps.storage.fsPath, 'eval', stamp());
  const total = exercises.length * scope.runs;
  deps.log.info(
    `eval: ${exercises.length} kata(s) × ${scope.runs} run(s) in ${scope.language} against ${model.provider} ${model.model}; report in ${outDir}`,
  );
  const outcome = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `TDD Agent: evaluating ${model.model}`,
      cancellable: true,
    },
    async (progress, token) => {
      const abort = new AbortController();
      const cancel = token.onCancellationRequested(() => abort.abort());
      progress.report({ message: `0 of ${total} runs` });
      try {
        return await runEval({
          set,
          exercises,
          language: scope.language,
          runs: scope.runs,
          concurrency: defaultConcurrency(),
          llm: model.llm,
          model: model.model,
          provider: model.provider,
          price: modelPrice(model.model, settings.modelPrices) ?? null,
          outDir,
          frontEnd: 'vscode',
          sandbox: settings.sandbox,
          testTimeoutMs: settings.testTimeoutMs,
          ...(settings.agentsDir && root ? { agentsDir: path.resolve(root, settings.agentsDir) } : {}),
          signal: abort.signal,
          onProgress: (event) => {
            if (event.type !== 'run_finished') return;
            const r = event.result;
            deps.log.info(
              `eval: ${r.kata} run ${r.run}: ${r.passed ? 'passed' : 'failed'} (${r.status}, acceptance ${r.acceptance.passed}/${r.acceptance.total})`,
            );
            progress.report({
              message: `${event.done} of ${total} runs (${r.kata}: ${r.passed ? 'passed' : 'failed'})`,
              increment: 100 / total,
            });
          },
        });
      } finally {
        cancel.dispose();
      }
    },
  );
  await vscode.commands.executeCommand('markdown.showPreview', vscode.Uri.file(outcome.markdownPath));
  const s = outcome.report.summary;
  void vscode.window
    .showInformationMessage(
      `TDD Agent: ${model.model} passed ${Math.round(s.pass_at_1 * 100)} % of ${s.runs} run(s)${outcome.report.interrupted ? ' (stopped: the report keeps the runs that finished)' : ''}.`,
      'Reveal the report folder',
    )
    .then((choice) => {
      if (choice) void vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(outcome.markdownPath));
    });
  return outcome;
}
