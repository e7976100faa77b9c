/**
 * What a kata run works on, asked before it starts: the kata (a QuickPick) or a task in plain words (an input box,
 * with the editor's selection as context), and two non-modal questions (QuickPicks, so Enter takes the safe first
 * item): resume an interrupted session of the same kata or start a new one, and — when the repository has
 * uncommitted changes — start from the last commit or include those changes. A folder that is not a git repository
 * is made one only after a modal that says what is created.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  inspectWorkspace,
  listSessions,
  MAX_TASK_CHARS,
  recordedStatus,
  resolveKata,
  type SessionListing,
  taskKata,
  type TaskSpec,
} from '../../core/tddApi';
import { pickKata } from '../commands/kataPicker';
import { taskDescription, type TaskSelection } from '../commands/taskDescription';
import { uncommittedChangeCount } from './repositorySessions';

/** Options of one run. */
export interface RunKataOptions {
  /** Kata file or bundled slug; asked with a QuickPick when absent (whose first entry describes a task instead). */
  kata?: string;
  /**
   * Run a task in plain words instead of a kata: its sentence, or true to ask for it in an input box. A selection in
   * the active editor is attached as the task's context (file, lines, code).
   */
  task?: string | true;
  /**
   * Continue a recorded session: its id, or true for the newest resumable session of the kata; false
   * starts a new one. Asked when absent and an interrupted session of the kata exists.
   */
  resume?: boolean | string;
  /** Start from the person's uncommitted files too; asked when absent and the repository has uncommitted changes. */
  fromWorkingTree?: boolean;
}

/** The button of the question before a folder is made a git repository (the e2e tests click it). */
export const CREATE_REPOSITORY_BUTTON = 'Create git repository';

/** What making `folder` a git repository for a session creates, as the modal says it. Pure. */
export function repositoryCreation(folder: string): { message: string; detail: string } {
  return {
    message: `${path.basename(folder)} is not a git repository. Make it one for the session?`,
    detail: [
      `TDD Agent works on a branch of a git repository. Creating one here (git init in ${folder}) makes:`,
      '',
      '• a .git folder, with the branch main. main stays empty: none of your files are added or committed, and none are changed.',
      "• the session's branch tdd/<kata>-<time>, with a commit per green cycle. It begins with the session's set-up: an empty first commit and, when the folder has no project yet, the kata's project files (package.json, pyproject.toml or go.mod, .gitignore, and empty .gitkeep files that keep the code and test folders).",
      '',
      "Merge brings the session's work into main without that set-up (Merge with the set-up keeps it). Cancel: nothing is created.",
    ].join('\n'),
  };
}

/**
 * A folder that is not a git repository becomes one only with the person's yes (a modal that says what is created);
 * true for a repository (nothing to ask) or a yes, false for Cancel. A folder that cannot be read is left to the
 * session, which says why.
 */
async function askToCreateRepository(root: string): Promise<boolean> {
  const facts = await inspectWorkspace(root).catch(() => undefined);
  if (!facts || facts.kind === 'repository') return true;
  const { message, detail } = repositoryCreation(facts.path);
  const choice = await vscode.window.showWarningMessage(message, { modal: true, detail }, CREATE_REPOSITORY_BUTTON);
  return choice === CREATE_REPOSITORY_BUTTON;
}

/** Labels of the two questions' items (the e2e tests pick them by label). */
export const QUESTION_LABELS = {
  newSession: 'Start a new session',
  resume: 'Resume the earlier session',
  lastCommit: 'Start from the last commit',
  includeChanges: 'Include my uncommitted changes',
} as const;

interface Choice<T> extends vscode.QuickPickItem {
  value: T;
}

/** Asks with a QuickPick (non-modal: Escape or a click elsewhere dismisses it); the first item is what Enter takes. */
async function ask<T>(items: Choice<T>[], title: string, placeHolder: string): Promise<T | undefined> {
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder, ignoreFocusOut: false });
  return picked?.value;
}

/** What a run works on: a kata (file or bundled slug) or a task in plain words. */
export type RunTarget = { kata: string } | { task: TaskSpec };

/** The newest resumable session of the kata or task in the repository at `workspace`, if any. */
async function resumableSession(workspace: string, target: RunTarget): Promise<SessionListing | undefined> {
  try {
    const slug = 'task' in target ? taskKata(target.task).slug : (await resolveKata(target.kata)).slug;
    return (await listSessions(workspace)).find((l) => l.resumable && l.state?.kata.slug === slug);
  } catch {
    return undefined; // an unreadable kata or repository is reported by the session itself
  }
}

/**
 * When an interrupted, cancelled or failed session of the same kata kept its worktree, asks whether to
 * resume it. Resolves to its id, false for a new session, undefined when dismissed. "Start a new
 * session" comes first, so Enter (e.g. pressed again right after Stop) never resumes by accident.
 */
async function askToResume(workspace: string, target: RunTarget): Promise<string | false | undefined> {
  const listing = await resumableSession(workspace, target);
  const saved = listing?.state;
  if (!listing || !saved) return false;
  const done = saved.cycles.filter((c) => c.outcome !== 'in_progress' && c.outcome !== 'cancelled').length;
  const how = recordedStatus({ ...listing, state: saved });
  return ask<string | false>(
    [
      {
        label: QUESTION_LABELS.newSession,
        detail: 'A new session on a new branch; the earlier one stays as it is.',
        value: false,
      },
      {
        label: QUESTION_LABELS.resume,
        description: `${how}, ${done} cycle(s) done`,
        detail: `Continues ${saved.branch} from its last green commit (session ${listing.id}).`,
        value: listing.id,
      },
    ],
    `TDD Agent: an earlier session of "${saved.kata.title}" was ${how}`,
    'Start a new session, or resume the earlier one',
  );
}

/**
 * When the person's repository has uncommitted changes, asks where the session starts. Resolves to
 * true to include them, false for the last commit, undefined when dismissed; false without asking when
 * the checkout is clean.
 */
async function askStartingPoint(root: string): Promise<boolean | undefined> {
  const changes = await uncommittedChangeCount(root);
  if (changes === 0) return false;
  return ask<boolean>(
    [
      {
        label: QUESTION_LABELS.lastCommit,
        detail: 'The session starts from your last commit; your uncommitted changes stay out of it.',
        value: false,
      },
      {
        label: QUESTION_LABELS.includeChanges,
        detail: "Your modified and untracked files (not ignored ones) are copied into the session's first commit.",
        value: true,
      },
    ],
    `TDD Agent: your repository has ${changes} uncommitted change(s). Your checkout will not be changed either way.`,
    'Where should the session start?',
  );
}

/** The selection in the active editor, when there is one in a file of the workspace (a task's context). */
function editorSelection(): TaskSelection | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty || editor.document.uri.scheme !== 'file') return undefined;
  const { start, end } = editor.selection;
  // A selection that ends at column 1 of a line (whole lines selected) does not include that line.
  const last = end.character === 0 && end.line > start.line ? end.line - 1 : end.line;
  return {
    file: vscode.workspace.asRelativePath(editor.document.uri, false),
    language: editor.document.languageId,
    startLine: start.line + 1,
    endLine: last + 1,
    code: editor.document.getText(editor.selection),
  };
}

/**
 * Asks what to build (an input box; `given` skips it), with the active editor's selection attached as context.
 * Resolves to the task, or undefined when dismissed or left empty.
 */
async function askTask(given?: string): Promise<TaskSpec | undefined> {
  const selection = editorSelection(); // read first: the input box takes the focus
  const text =
    given ??
    (await vscode.window.showInputBox({
      title: 'TDD Agent: Start TDD task',
      prompt: selection
        ? `What to build, in plain words. The selection in ${selection.file} (lines ${selection.startLine}-${selection.endLine}) is attached as context.`
        : 'What to build, in plain words. The language, test command and folders come from your project.',
      placeHolder: 'Add a slugify(text) helper that lowercases and joins words with dashes',
      ignoreFocusOut: true,
      validateInput: (value) =>
        !value.trim()
          ? 'Say what to build.'
          : value.length > MAX_TASK_CHARS
            ? `Keep it under ${MAX_TASK_CHARS} characters (put the details in a kata file).`
            : undefined,
    }));
  if (!text?.trim()) return undefined;
  return taskDescription(text, selection);
}

/** What was chosen: the target, whether (and which session) to resume, and where a new session starts. */
export interface RunChoice {
  target: RunTarget;
  resume: string | boolean;
  fromWorkingTree: boolean | undefined;
}

/** Asks what `options` leaves open; undefined when the person dismissed a picker or question. */
export async function chooseRun(options: RunKataOptions, root: string, extensionPath: string): Promise<RunChoice | undefined> {
  let target: RunTarget | undefined;
  let resume: string | boolean | undefined;
  let fromWorkingTree: boolean | undefined;
  if (options.task !== undefined) {
    const task = await askTask(typeof options.task === 'string' ? options.task : undefined);
    target = task && { task };
  } else if (options.kata !== undefined) {
    target = { kata: options.kata };
  } else {
    const choice = await pickKata(extensionPath);
    const task = choice && 'task' in choice ? await askTask() : undefined;
    target = choice && ('kata' in choice ? { kata: choice.kata } : task && { task });
  }
  // Asked first, before anything about sessions: a folder that is not a repository has none, and Cancel creates nothing.
  if (target !== undefined && !(await askToCreateRepository(root))) return undefined;
  if (target !== undefined) resume = options.resume ?? (await askToResume(root, target));
  // A resumed session goes on in its own worktree: where to start from is already decided.
  if (resume === false) fromWorkingTree = options.fromWorkingTree ?? (await askStartingPoint(root));
  if (target === undefined || resume === undefined || (resume === false && fromWorkingTree === undefined)) return undefined;
  return { target, resume, fromWorkingTree };
}
