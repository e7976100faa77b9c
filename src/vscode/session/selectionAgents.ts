/**
 * "Ask about selection" (QA agent) and "Explain selection step by step" (CoT agent): the selected
 * code is the context, the answer goes into the panel. Allowed in Restricted Mode: the agents only
 * read the selection and call the model, they run no tools.
 */
import * as vscode from 'vscode';
import { CoTAgent, cotSteps } from '../../core/builtinAgents/cotAgent';
import { QAAgent } from '../../core/builtinAgents/qaAgent';
import { AgentError, toAgentError } from '../../core/errors/agentError';
import type { Answer } from '../../shared/panelProtocol';
import { createModelClient } from '../config/modelClient';
import type { ExtensionSettings } from '../config/settings';
import { showErrorNotice } from '../panel/errorNotice';
import type { PanelStore } from '../panel/panelStore';
import { selectionLineRange } from './selectionRange';

/** Longest selection sent as context (characters). */
export const MAX_SELECTION_CHARS = 20_000;

/** What the selection commands need. */
export interface SelectionAgentDeps {
  store: PanelStore;
  log: vscode.LogOutputChannel;
  settings(): ExtensionSettings;
  apiKey(): Promise<string | undefined>;
  openPanel(): Thenable<unknown>;
}

/** Which agent to ask. */
export type SelectionAgentKind = 'qa' | 'cot';

let answerCounter = 0;

function clamp01(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

/** The selected text of the active editor and where it is, or undefined without a selection. */
function currentSelection(): { code: string; source: string } | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty) return undefined;
  const code = editor.document.getText(editor.selection);
  if (code.trim() === '') return undefined;
  const { start, end } = editor.selection;
  return { code: code.slice(0, MAX_SELECTION_CHARS), source: `${vscode.workspace.asRelativePath(editor.document.uri)}:${selectionLineRange(start, end)}` };
}

/**
 * Runs the QA or CoT agent on the selection. `prompt` is the question (QA) or the problem (CoT);
 * asked with an input box when absent. Resolves to the answer shown, or undefined.
 */
export async function askAboutSelection(deps: SelectionAgentDeps, kind: SelectionAgentKind, prompt?: string): Promise<Answer | undefined> {
  const selection = currentSelection();
  const fail = (code: string, message: string): undefined => {
    void showErrorNotice(deps.store, deps.log, { error_code: code, message });
    return undefined;
  };
  if (!selection) return fail('NO_SELECTION', 'Select the code to ask about first.');
  const question =
    prompt ??
    (await vscode.window.showInputBox({
      title: kind === 'qa' ? 'TDD Agent: Ask about selection' : 'TDD Agent: Explain selection step by step',
      prompt: kind === 'qa' ? 'Your question about the selected code' : 'What should be explained step by step?',
      value: kind === 'qa' ? 'What does this code do?' : 'Explain step by step how this code works.',
      ignoreFocusOut: true,
    }));
  if (question === undefined || question.trim() === '') return undefined;

  let settings: ExtensionSettings;
  try {
    settings = deps.settings();
  } catch (error) {
    const e = toAgentError(error, 'CONFIG');
    return fail(e.error_code, e.message);
  }
  try {
    const answer = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: kind === 'qa' ? 'TDD Agent: answering…' : 'TDD Agent: reasoning step by step…', cancellable: true },
      async (_progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
        const client = await createModelClient(settings, await deps.apiKey(), root, process.env, abort.signal);
        const config = { model: client.model };
        const id = `${kind}-${Date.now()}-${++answerCounter}`;
        if (kind === 'qa') {
          const result = await new QAAgent({ llm: client.llm, config }).execute({ question, context: selection.code }, { signal: abort.signal });
          if (result.error) throw new AgentError(result.error.error_code, result.error.message, result.error.details);
          return { kind: 'qa', id, question, answer: result.answer, confidence: clamp01(result.confidence), reasoning: result.reasoning ?? '', source: selection.source, at: Date.now() } satisfies Answer;
        }
        const result = await new CoTAgent({ llm: client.llm, config }).execute({ problem: question, context: selection.code }, { signal: abort.signal });
        if (result.error) throw new AgentError(result.error.error_code, result.error.message, result.error.details);
        const steps = cotSteps(result);
        return { kind: 'cot', id, problem: question, steps, final_answer: result.final_answer, confidence: clamp01(result.confidence), source: selection.source, at: Date.now() } satisfies Answer;
      },
    );
    deps.store.dispatch({ type: 'answer', answer });
    deps.store.flush();
    deps.log.info(`${kind} answer for ${selection.source} (confidence ${answer.confidence})`);
    void deps.openPanel();
    return answer;
  } catch (error) {
    const e = toAgentError(error);
    return fail(e.error_code, e.message);
  }
}
