/**
 * What Ask / Explain send with a selection (pure: no `vscode`): the file name, its language and a few
 * lines around the selection, marked as context and kept apart from the selected code; and, for a
 * follow-up question, the previous question and answer.
 */

/** Lines of the file shown before and after the selection. */
export const SURROUNDING_LINES = 5;

/** A selection and what surrounds it, as read from the editor. */
export interface SelectionContextInput {
  /** Workspace-relative file name. */
  file: string;
  /** The editor's language id (`javascript`, `python`, …). */
  language: string;
  /** The selected text. */
  selection: string;
  /** 1-based line of the selection's first line. */
  startLine: number;
  /** 1-based line of its last line (`selectedLines`: a selection ending at column 1 does not include that line). */
  endLine: number;
  /** Up to {@link SURROUNDING_LINES} lines right before the selection (oldest first). */
  before: readonly string[];
  /** Up to {@link SURROUNDING_LINES} lines right after the selection. */
  after: readonly string[];
}

function fenced(lines: string, language: string): string {
  // A fence longer than any backtick run in the code, so the code cannot close it.
  const longest = Math.max(2, ...Array.from(lines.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${lines}\n${fence}`;
}

function lineSpan(from: number, to: number): string {
  return from === to ? `line ${from}` : `lines ${from}-${to}`;
}

/** The context text of a selection: file and language, the lines before, the selected code, the lines after. */
export function selectionContextText(input: SelectionContextInput): string {
  const { endLine } = input;
  const parts = [`File: ${input.file} (language: ${input.language}); the selection is ${lineSpan(input.startLine, endLine)}.`];
  if (input.before.length > 0) {
    const from = input.startLine - input.before.length;
    parts.push(
      `Context before the selection (${lineSpan(from, input.startLine - 1)}; not part of the selection):\n${fenced(input.before.join('\n'), input.language)}`,
    );
  }
  // Whole lines selected with the keyboard end in a line break: it belongs to the last line, not to a next one.
  parts.push(`Selected code:\n${fenced(input.selection.replace(/\r?\n$/, ''), input.language)}`);
  if (input.after.length > 0) {
    parts.push(
      `Context after the selection (${lineSpan(endLine + 1, endLine + input.after.length)}; not part of the selection):\n${fenced(input.after.join('\n'), input.language)}`,
    );
  }
  return parts.join('\n\n');
}

/** The context of a follow-up question: the original context, then the previous question and answer. */
export function followUpContextText(context: string, previousQuestion: string, previousAnswer: string): string {
  return `${context}\n\nPrevious question: ${previousQuestion}\n\nPrevious answer:\n${previousAnswer}\n\nAnswer the new question as a follow-up to this one.`;
}
