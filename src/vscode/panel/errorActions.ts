/**
 * What a person can do about an error, by `error_code`: the line shown under an error card in the
 * panel and in error notifications, and the buttons that fix it. Pure (no `vscode`).
 */
import type { PanelCommandName } from '../../shared/panelProtocol';

/** The sandbox turned off, in the words of the settings a person sees (never a workspace's: its value is ignored). */
export const SANDBOX_OFF =
  'only if you accept that the code the agents write runs unconfined on your machine, turn the sandbox off in your user settings (Open sandbox setting)';

/**
 * What to do, by error code, in VS Code's words: the buttons and commands a person has, never a setting's id, an
 * environment variable or a command-line flag. What happened is the card's title and message; this line says only what
 * to do next.
 */
const ACTIONS: Readonly<Record<string, string>> = {
  PROVIDER_NOT_CONFIGURED:
    'Set an API key, or choose a provider or the base URL of an OpenAI-compatible server; a running Ollama is found on its own.',
  AUTH: 'Set a valid API key.',
  RATE_LIMIT: 'Wait a minute and run the kata again, or use another model.',
  CONNECTION: 'Start the model server, or choose another provider or base URL.',
  CONTEXT_LENGTH: 'Pick a model with a larger context window.',
  INVALID_REQUEST: 'Check the model: Pick a model lists the ones the server serves.',
  CONFIG: 'Open the settings and correct the one the message names.',
  GIT_FAILED: 'Open the workspace folder that holds the git repository (git init it if needed) and try again.',
  REPLAY_DIVERGED: 'Record the session again, or choose a live provider.',
  SESSION_STATE_INVALID:
    "The session's record cannot be used. Delete that session in the TDD Agent panel (Sessions) and run the kata again.",
  SANDBOX_UNAVAILABLE: `Nothing ran and nothing was changed. Make the OS sandbox work (bubblewrap on Linux: Show the fix says how on this machine), or ${SANDBOX_OFF}.`,
  KATA_NOT_APPROVED:
    'This kata is not one of the bundled ones and names its own test command. Run it again and approve the command on the card in the TDD Agent panel if you trust it; nothing was changed.',
  TOOL_DENIED: 'Nothing was changed. Approve the step next time, or change which steps ask first in your approval settings.',
  SANDBOX_VIOLATION: 'Nothing was changed: the call was refused.',
  CANCELLED: 'The run was stopped; the session keeps its worktree. Resume it from the TDD Agent panel, or run the kata again.',
  UNTRUSTED_WORKSPACE: "Trust this workspace ('Workspaces: Manage Workspace Trust') to run katas and tools.",
  NO_WORKSPACE: 'Open a folder (a git repository) first: katas run against the open workspace.',
  NO_SELECTION: 'Select some code in the editor first.',
  VALIDATION: 'Correct what the message names (a file it names opens at that line from the link), then try again.',
  SESSION_RUNNING: "Stop it with 'TDD Agent: Stop kata' first.",
  GREEN_NOT_REACHED:
    "Nothing red was committed: the session's worktree is at its last green commit (or as it began, when no cycle reached green). The cycle history shows the failing tests; run the kata again, or try a stronger model.",
  INCOMPLETE:
    'Every commit of the branch is green, but the Tester stopped before every stated example had a test (or a test that was red is gone). Resume the session, or run the kata again with a stronger model.',
};

/** Buttons that fix the problem in one click, by error code (the panel's error card and the notification show them). */
const FIXES: Readonly<Record<string, readonly PanelCommandName[]>> = {
  PROVIDER_NOT_CONFIGURED: ['setApiKey', 'chooseProvider'],
  AUTH: ['setApiKey'],
  CONFIG: ['openSettings'],
  CONNECTION: ['chooseProvider'],
  TIMEOUT: ['chooseProvider'],
  UNTRUSTED_WORKSPACE: ['manageTrust'],
  SANDBOX_UNAVAILABLE: ['showSandboxFix', 'openSandboxSetting'],
};

/**
 * The fix buttons of an error: by its code, and for a model the server does not serve (the preflight's
 * `model_not_found`), the picker of the models it does serve.
 */
export function errorFixes(errorCode: string, details?: Record<string, unknown>): PanelCommandName[] {
  if (details?.reason === 'model_not_found' || (errorCode === 'INVALID_REQUEST' && details?.status === 404)) return ['pickModel'];
  return [...(FIXES[errorCode] ?? [])];
}

/**
 * The action line for `errorCode`, or undefined when there is nothing specific to suggest. A model call that ran out of
 * time (its `details` name the server) says to choose a faster model; another time limit has nothing more to say.
 */
export function errorAction(errorCode: string, details?: Record<string, unknown>): string | undefined {
  if (errorCode === 'TIMEOUT')
    return typeof details?.baseURL === 'string'
      ? 'Run the kata again; if the model keeps taking too long, choose a faster model or another server.'
      : undefined;
  return ACTIONS[errorCode];
}

/** What VS Code says instead of the core's command-line wording, by `error_code` (the action line says what to do). */
const VSCODE_MESSAGES: Readonly<Record<string, string>> = {
  PROVIDER_NOT_CONFIGURED: 'The kata did not start: no API key, provider or base URL is set, and no Ollama answered.',
};

/** Model errors whose message is the fact alone: the core's advice after it is the action line's job, in VS Code words. */
const FACT_ONLY: ReadonlySet<string> = new Set([
  'AUTH',
  'RATE_LIMIT',
  'TIMEOUT',
  'CONNECTION',
  'CONTEXT_LENGTH',
  'INVALID_REQUEST',
]);

/** A command-line flag, an environment variable a terminal sets, or a command to type: not what VS Code offers. */
const COMMAND_LINE = /(^|[\s(;])--[a-z]|\b(?:OPENAI|OLLAMA|ANTHROPIC|TDD_AGENT)_[A-Z_]+\b|'ollama serve'/;

/**
 * The message of `error` in VS Code words: one error code drives both the CLI's wording and this one, and the card
 * says each thing once (its title what happened, this message the facts, the action line what to do). Known codes get
 * their own sentence; a model server that cannot be reached or refuses the key is named with what it answered;
 * another model error keeps its first sentence; and anything that names command-line flags, environment variables or
 * commands to type (`--base-url`, `set OPENAI_API_KEY`, `'ollama serve'`) is left out, and a doubled full stop
 * ("Connection error..") is one.
 */
export function vscodeErrorMessage(error: { error_code: string; message: string; details?: Record<string, unknown> }): string {
  const own = VSCODE_MESSAGES[error.error_code] ?? serverAnswer(error);
  if (own) return own;
  let text = error.message.replace(/\s*\([^()]*\)/g, (group) => (COMMAND_LINE.test(group) ? '' : group));
  text = text.replace(/(^|[^.])\.\.(?!\.)/g, '$1.');
  const sentences = text.split(/(?<=[.!?])\s+/);
  const kept = sentences.filter((sentence) => !COMMAND_LINE.test(sentence));
  const shown = kept.length > 0 ? kept : sentences;
  text = (FACT_ONLY.has(error.error_code) ? shown.slice(0, 1) : shown).join(' ').trim();
  return text.replace(/\s+([.,;])/g, '$1');
}

/** A model server that cannot be reached, or refused the key: where it is and what it answered. */
function serverAnswer(error: { error_code: string; details?: Record<string, unknown> }): string | undefined {
  const { baseURL, status, serverMessage, reason, retries } = error.details ?? {};
  if (typeof baseURL !== 'string') return undefined;
  const said =
    typeof serverMessage === 'string' && !/^connection error\.?$/i.test(serverMessage.trim()) ? serverMessage.trim() : '';
  const tries = typeof retries === 'number' && retries > 0 ? ` (tried ${retries + 1} times)` : '';
  if (error.error_code === 'CONNECTION' && reason !== 'stream_incomplete')
    return `Nothing answered at ${baseURL}${tries}${said ? `: ${said.replace(/\.$/, '')}` : ''}.`;
  if (error.error_code === 'AUTH')
    return `The model server at ${baseURL} answered${typeof status === 'number' ? ` HTTP ${status}` : ''}${said ? `: ${said.replace(/\.$/, '')}` : ''}.`;
  return undefined;
}
