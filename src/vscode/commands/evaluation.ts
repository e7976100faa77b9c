/**
 * What "TDD Agent: Evaluate the configured model…" does, without VS Code: asks for the scope, runs the eval set
 * against the configured model under a cancellable progress notification, then opens the report in the Markdown
 * preview. Each VS Code call goes through {@link EvaluationUi} (`evaluateModel.ts` implements it with `vscode`), so
 * the handler runs — and is tested — with plain objects. No `vscode` import.
 */
import * as path from 'node:path';
import { AgentError } from '../../core';
import {
  acceptanceFor,
  bundledEvalSetDir,
  defaultConcurrency,
  evalFolderStamp,
  type EvalOutcome,
  type Language,
  LANGUAGES,
  loadEvalSet,
  progressFigure,
  runEval,
  selectExercises,
} from '../../core/tddApi';
import { createModelClient } from '../config/modelClient';
import { modelPrice } from '../config/modelPrices';
import type { ExtensionSettings } from '../config/settings';

/** The person's choices: the language, the katas (names or tags; none: the whole set) and the runs per kata. */
export interface EvalScope {
  language: Language;
  katas: string[];
  runs: number;
}

/** A kata of the eval set as the scope question lists it. */
export interface EvalKataChoice {
  slug: string;
  title: string;
  tags: readonly string[];
  /** The languages it can be run in (it has acceptance tests in them). */
  languages: readonly Language[];
}

/** A progress notification's reporter (the shape of VS Code's `Progress`). */
export interface ProgressReporter {
  report(value: { message?: string; increment?: number }): void;
}

/** A progress notification's Cancel (the shape of VS Code's `CancellationToken`). */
export interface CancelRequests {
  onCancellationRequested(listener: () => void): { dispose(): void };
}

/** The VS Code calls of the command. */
export interface EvaluationUi {
  /** Workspace trust: an eval runs agents that write files and run commands. */
  isTrusted(): boolean;
  warn(message: string): void;
  /**
   * Asks for the scope; undefined when the person dismissed a question. `tags` are the set's tags; `exercises` its
   * katas, each with the languages it has acceptance tests in (the katas are picked from a list, not typed).
   */
  askScope(tags: readonly string[], exercises: readonly EvalKataChoice[]): Promise<EvalScope | undefined>;
  /** Runs `task` under a cancellable progress notification (VS Code's `window.withProgress`). */
  withProgress<T>(title: string, task: (progress: ProgressReporter, cancel: CancelRequests) => Promise<T>): Promise<T>;
  /** Opens a Markdown file in VS Code's Markdown preview (`markdown.showPreview`): a readable table, not raw text. */
  openMarkdownPreview(file: string): Promise<void>;
  /** A notification with one action; resolves to true when the person chose it. */
  inform(message: string, action: string): PromiseLike<boolean>;
  /** Shows a file in the operating system's file manager (`revealFileInOS`). */
  revealFile(file: string): void;
}

/** What the command needs from the extension host. */
export interface EvaluationDeps {
  settings: () => ExtensionSettings;
  apiKey: () => Promise<string | undefined>;
  log: { info(message: string): void };
  /** The extension's private storage folder: the reports go under `<storage>/eval/<time>/`. */
  storage: string;
  extensionPath: string;
  /** The first workspace folder, if any (a relative `tddAgent.agentsDir` is resolved against it). */
  workspaceRoot?: string;
  ui: EvaluationUi;
  /** The environment the provider is resolved from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** The set to run (default: the bundled `katas/eval`). */
  setDir?: string;
}

/**
 * Runs the eval and opens its report; resolves to the outcome, or undefined when nothing ran (untrusted workspace,
 * dismissed question). A configuration problem (the replay provider, no set, an unknown kata) is an AgentError.
 * The notification's Cancel stops the running sessions and starts no other; the report keeps the runs that finished
 * and opens all the same.
 */
export async function runEvaluation(deps: EvaluationDeps): Promise<EvalOutcome | undefined> {
  const { ui } = deps;
  if (!ui.isTrusted()) {
    ui.warn('TDD Agent: an eval runs agents that write files and run commands; it is disabled in Restricted Mode.');
    return undefined;
  }
  const settings = deps.settings();
  if (settings.provider === 'replay')
    throw new AgentError(
      'CONFIG',
      'The replay provider plays one recorded session; an eval needs a model. Choose another tddAgent.provider.',
      {},
    );
  const dir = deps.setDir ?? bundledEvalSetDir();
  if (!dir) throw new AgentError('CONFIG', 'This installation has no eval kata set (katas/eval/set.json).', {});
  const set = await loadEvalSet(dir);
  const scope = await ui.askScope(
    [...new Set(set.exercises.flatMap((e) => e.tags))].sort(),
    set.exercises.map((e) => ({
      slug: e.slug,
      title: e.title,
      tags: e.tags,
      languages: LANGUAGES.filter((language) => acceptanceFor(e, language) !== undefined),
    })),
  );
  if (!scope) return undefined;
  const exercises = selectExercises(set, scope.katas, scope.language);
  const root = deps.workspaceRoot;
  const model = await createModelClient(
    settings,
    await deps.apiKey(),
    root,
    deps.env ?? process.env,
    undefined,
    deps.extensionPath,
  );
  const outDir = path.join(deps.storage, 'eval', evalFolderStamp());
  const total = exercises.length * scope.runs;
  deps.log.info(
    `eval: ${exercises.length} kata(s) × ${scope.runs} run(s) in ${scope.language} against ${model.provider} ${model.model}; report in ${outDir}`,
  );
  const outcome = await ui.withProgress(`TDD Agent: evaluating ${model.model}`, async (progress, cancelRequests) => {
    const abort = new AbortController();
    const cancel = cancelRequests.onCancellationRequested(() => abort.abort());
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
          if (event.type === 'stopping') {
            deps.log.info(
              `eval: the model provider failed on ${event.stopped.kata} run ${event.stopped.run} (${event.stopped.error_code}); no new run starts`,
            );
            return;
          }
          if (event.type !== 'run_finished') return;
          const r = event.result;
          const verdict = r.scored ? (r.passed ? 'passed' : 'failed') : 'not scored';
          deps.log.info(
            `eval: ${r.kata} run ${r.run}: ${verdict} (${r.status}, acceptance ${r.acceptance.passed}/${r.acceptance.total})`,
          );
          progress.report({
            message: `${event.done} of ${total} runs (${r.kata}: ${verdict}); ${progressFigure(event)}`,
            increment: 100 / total,
          });
        },
      });
    } finally {
      cancel.dispose();
    }
  });
  await ui.openMarkdownPreview(outcome.markdownPath);
  const { report } = outcome;
  const s = report.summary;
  const notes = [
    report.interrupted ? 'stopped: the report keeps the runs that finished' : '',
    s.not_scored > 0 ? `${s.not_scored} run(s) not scored: the model provider failed` : '',
  ].filter(Boolean);
  void ui
    .inform(
      `TDD Agent: ${model.model} passed ${Math.round(s.pass_at_1 * 100)} % of ${s.runs} run(s)${notes.length ? ` (${notes.join('; ')})` : ''}.`,
      'Reveal the report folder',
    )
    .then((chosen) => {
      if (chosen) ui.revealFile(outcome.markdownPath);
    });
  return outcome;
}
