/**
 * What "Start TDD task…" sends as the task (pure: no `vscode`): the sentence the person typed, and — when
 * code was selected in the active editor — that code with its workspace-relative file and line range, marked
 * as the context the task is about.
 */
import type { TaskSpec } from '../../core/tddApi';

/** The selection in the active editor, as read from it. */
export interface TaskSelection {
  /** Workspace-relative file path. */
  file: string;
  /** The editor's language id (`typescript`, `python`, …). */
  language: string;
  /** 1-based first and last line. */
  startLine: number;
  endLine: number;
  /** The selected text. */
  code: string;
}

/** Longest selection attached to a task (the agents read it every turn). */
export const MAX_TASK_SELECTION_CHARS = 8000;

/** A fence longer than any backtick run in the code, so the code cannot close it. */
function fence(code: string): string {
  const longest = Math.max(2, ...Array.from(code.matchAll(/`+/g), (m) => m[0].length));
  return '`'.repeat(longest + 1);
}

/** The task: the sentence, with the selected code (clipped, marked) as its context. */
export function taskDescription(text: string, selection?: TaskSelection): TaskSpec {
  const sentence = text.trim();
  if (!selection || !selection.code.trim()) return { text: sentence };
  const clipped = selection.code.length > MAX_TASK_SELECTION_CHARS;
  const code = clipped ? `${selection.code.slice(0, MAX_TASK_SELECTION_CHARS)}\n…` : selection.code;
  const lines =
    selection.startLine === selection.endLine
      ? `line ${selection.startLine}`
      : `lines ${selection.startLine}-${selection.endLine}`;
  const f = fence(code);
  return {
    text: sentence,
    context: [
      `The task is about this code, selected in ${selection.file} (${lines}, ${selection.language})${clipped ? `, its first ${MAX_TASK_SELECTION_CHARS} characters` : ''}:`,
      `${f}${selection.language}\n${code.replace(/\n$/, '')}\n${f}`,
    ].join('\n'),
  };
}
