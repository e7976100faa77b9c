/**
 * "Ask about selection" (QA agent) and "Explain selection step by step" (CoT agent): the selected
 * code is the context, the answer goes into the panel. Allowed in Restricted Mode: the agents only
 * read the selection and call the model, they run no tools.
 */
import * as vscode from 'vscode';
import { AgentError, type AgentEvent, CoTAgent, cotSteps, QAAgent, toAgentError } from '../../core';
import type { Answer } from '../../shared/panelProtocol';
import { createModelClient } from '../config/modelClient';
import type { ExtensionSettings } from '../config/settings';
import { showErrorNotice } from '../panel/errorNotice';
import type { PanelStore } from '../panel/panelStore';
import { MAX_ANSWERS } from '../panel/panelReducer';
import { followUpContextText, selectionContextText, SURROUNDING_LINES } from './selectionContext';
import { questionFailure, type SelectionAgentKind } from './questionFailure';
import { lineRangeLabel, selectedLines } from './selectionRange';
import { streamedAnswerText } from './streamedAnswer';

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

export type { SelectionAgentKind } from './questionFailure';

let answerCounter = 0;

function clamp01(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);
}

/** What an answer was given from, kept so a follow-up asked in the panel goes to the same agent with it. */
interface AnswerOrigin {
  kind: SelectionAgentKind;
  context: string;
  source: string;
}

/** The origins of the recent answers (as many as the panel keeps), by answer id. */
const origins = new Map<string, AnswerOrigin>();

function rememberOrigin(id: string, origin: AnswerOrigin): void {
  origins.set(id, origin);
  for (const key of origins.keys()) {
    if (origins.size <= MAX_ANSWERS) break;
    origins.delete(key);
  }
}

/**
 * The selected text of the active editor with its file name, language and up to SURROUNDING_LINES lines
 * before and after (marked as context), and where it is; undefined without a selection.
 */
function currentSelection(): { context: string; source: string } | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty) return undefined;
  const { document } = editor;
  const { start, end } = editor.selection;
  // One definition of the lines for the label and the prompt: a selection ending at column 1 leaves that line out.
  const lines = selectedLines(start, end);
  const code = document.getText(
    new vscode.Range(start, lines.last - 1 === end.line ? end : document.lineAt(lines.last - 1).range.end),
  );
  if (code.trim() === '') return undefined;
  const lineText = (from: number, to: number): string[] => {
    const text: string[] = [];
    for (let line = Math.max(0, from); line <= Math.min(document.lineCount - 1, to); line++)
      text.push(document.lineAt(line).text.slice(0, 500));
    return text;
  };
  const file = vscode.workspace.asRelativePath(document.uri);
  const context = selectionContextText({
    file,
    language: document.languageId,
    selection: code.slice(0, MAX_SELECTION_CHARS),
    startLine: lines.first,
    endLine: lines.last,
    before: start.line > 0 ? lineText(start.line - SURROUNDING_LINES, start.line - 1) : [],
    // 0-based index `lines.last` is the line right after the selection.
    after: lineText(lines.last, lines.last + SURROUNDING_LINES - 1),
  });
  return { context, source: `${file}:${lineRangeLabel(lines)}` };
}

/**
 * Runs the QA or CoT agent on the selection. `prompt` is the question (QA) or the problem (CoT);
 * asked with an input box when absent. Resolves to the answer shown, or undefined.
 */
export async function askAboutSelection(
  deps: SelectionAgentDeps,
  kind: SelectionAgentKind,
  prompt?: string,
): Promise<Answer | undefined> {
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

  return answerWith(deps, kind, question, { kind, context: selection.context, source: selection.source });
}

/**
 * A follow-up question asked in the panel under answer `answerId`: the same agent answers it with the
 * original context and the previous question and answer. Resolves to the new answer, or undefined (an
 * error card says why, e.g. the answer is from before the window was reloaded).
 */
export async function askFollowUp(deps: SelectionAgentDeps, answerId: string, question: string): Promise<Answer | undefined> {
  const previous = deps.store.state.answers.find((a) => a.id === answerId);
  const origin = origins.get(answerId);
  if (!previous || !origin) {
    void showErrorNotice(deps.store, deps.log, {
      error_code: 'NO_SELECTION',
      message: 'That answer is from before the window was reloaded: select the code and ask again.',
    });
    return undefined;
  }
  const previousQuestion = previous.kind === 'qa' ? previous.question : previous.problem;
  const previousAnswer =
    previous.kind === 'qa'
      ? previous.answer
      : [...previous.steps.map((step, i) => `${i + 1}. ${step}`), previous.final_answer].join('\n');
  return answerWith(
    deps,
    origin.kind,
    question.trim(),
    { ...origin, context: followUpContextText(origin.context, previousQuestion, previousAnswer) },
    answerId,
  );
}

/** The questions being answered, by the id their answer will have: the panel's Cancel aborts one. */
const running = new Map<string, AbortController>();

/** A question whose answer failed, kept so that its card's Retry asks it again as it was asked. */
interface FailedQuestion {
  kind: SelectionAgentKind;
  question: string;
  origin: AnswerOrigin;
  followUpOf?: string;
}

/** The questions whose answer failed and whose card is still in the panel, by id. */
const failedQuestions = new Map<string, FailedQuestion>();

/**
 * Stops answering pending question `id` (its Cancel button in the panel), or takes away the card of a question whose
 * answer failed (its Dismiss); false when it is neither.
 */
export function cancelQuestion(deps: Pick<SelectionAgentDeps, 'store'>, id: string): boolean {
  if (failedQuestions.delete(id)) {
    deps.store.dispatch({ type: 'questionEnded', id });
    deps.store.flush();
    return true;
  }
  const abort = running.get(id);
  abort?.abort();
  return abort !== undefined;
}

/** Asks failed question `id` again, as it was asked (its card's Retry); undefined when it is no longer kept. */
export async function retryQuestion(deps: SelectionAgentDeps, id: string): Promise<Answer | undefined> {
  const failed = failedQuestions.get(id);
  if (!failed) {
    deps.store.dispatch({ type: 'questionEnded', id });
    deps.store.flush();
    return undefined;
  }
  failedQuestions.delete(id);
  deps.store.dispatch({ type: 'questionEnded', id });
  return answerWith(deps, failed.kind, failed.question, failed.origin, failed.followUpOf);
}

/**
 * Asks the agent and shows the question in the panel at once: pending (with Cancel), then its answer as it
 * streams, then the answer. A status bar spinner says it is working; no notification covers the editor.
 */
async function answerWith(
  deps: SelectionAgentDeps,
  kind: SelectionAgentKind,
  question: string,
  origin: AnswerOrigin,
  followUpOf?: string,
): Promise<Answer | undefined> {
  const fail = (code: string, message: string): undefined => {
    void showErrorNotice(deps.store, deps.log, { error_code: code, message });
    return undefined;
  };
  let settings: ExtensionSettings;
  try {
    settings = deps.settings();
  } catch (error) {
    const e = toAgentError(error, 'CONFIG');
    return fail(e.error_code, e.message);
  }
  const id = `${kind}-${Date.now()}-${++answerCounter}`;
  const common = { id, source: origin.source, at: Date.now(), ...(followUpOf ? { followUpOf } : {}) };
  const abort = new AbortController();
  running.set(id, abort);
  deps.store.dispatch({ type: 'questionAsked', question: { ...common, kind, question, partial: '' } });
  deps.store.flush();
  void deps.openPanel();
  // The model's reply streams as JSON; each model call (a repair is a second one) starts over.
  let raw = '';
  let call = -1;
  const onEvent = (event: AgentEvent): void => {
    if (event.type !== 'text_delta') return;
    if (event.cycle !== call) [raw, call] = ['', event.cycle];
    raw += event.delta;
    const partial = streamedAnswerText(kind, raw);
    if (partial !== '') deps.store.dispatch({ type: 'questionStreamed', id, partial });
  };
  try {
    const answer = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: kind === 'qa' ? 'TDD Agent: answering' : 'TDD Agent: explaining' },
      async () => {
        const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
        const client = await createModelClient(settings, await deps.apiKey(), root, process.env, abort.signal);
        const config = { model: client.model };
        const options = { signal: abort.signal, onEvent, streamText: true };
        if (kind === 'qa') {
          const result = await new QAAgent({ llm: client.llm, config }).execute({ question, context: origin.context }, options);
          if (result.error) throw new AgentError(result.error.error_code, result.error.message, result.error.details);
          return {
            kind: 'qa',
            question,
            answer: text(result.answer),
            confidence: clamp01(result.confidence),
            reasoning: text(result.reasoning),
            ...common,
          } satisfies Answer;
        }
        const result = await new CoTAgent({ llm: client.llm, config }).execute(
          { problem: question, context: origin.context },
          options,
        );
        if (result.error) throw new AgentError(result.error.error_code, result.error.message, result.error.details);
        return {
          kind: 'cot',
          problem: question,
          steps: cotSteps(result),
          final_answer: text(result.final_answer),
          confidence: clamp01(result.confidence),
          ...common,
        } satisfies Answer;
      },
    );
    rememberOrigin(answer.id, origin);
    deps.store.dispatch({ type: 'answer', answer });
    deps.store.flush();
    deps.log.info(`${kind} answer for ${origin.source}${followUpOf ? ' (follow-up)' : ''} (confidence ${answer.confidence})`);
    return answer;
  } catch (error) {
    if (abort.signal.aborted) {
      deps.store.dispatch({ type: 'questionEnded', id });
      deps.store.flush();
      deps.log.info(`${kind} question for ${origin.source} cancelled`);
      return undefined;
    }
    // The card stays where the question was asked, at the top, and says why with Retry (not an error card far below).
    const e = toAgentError(error);
    deps.log.warn(`${kind} question for ${origin.source} failed: ${e.error_code}: ${e.message}`);
    failedQuestions.set(id, { kind, question, origin, ...(followUpOf ? { followUpOf } : {}) });
    for (const key of failedQuestions.keys()) {
      if (failedQuestions.size <= MAX_ANSWERS) break;
      failedQuestions.delete(key);
    }
    deps.store.dispatch({ type: 'questionFailed', id, failed: questionFailure(kind, e) });
    deps.store.flush();
    return undefined;
  } finally {
    running.delete(id);
  }
}
