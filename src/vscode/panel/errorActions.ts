/**
 * What a person can do about an error, by `error_code`: the line shown under an error card in the
 * panel and in error notifications, and the buttons that fix it. Pure (no `vscode`).
 */
import type { PanelCommandName } from '../../shared/panelProtocol';

const ACTIONS: Readonly<Record<string, string>> = {
  PROVIDER_NOT_CONFIGURED:
    "Run 'TDD Agent: Set API key', or set 'tddAgent.provider' / 'tddAgent.baseUrl' (an OpenAI-compatible server) or start Ollama.",
  AUTH: "The model provider refused the API key. Run 'TDD Agent: Set API key' with a valid key.",
  RATE_LIMIT: 'The model provider is rate limiting: wait a minute and run the kata again, or use another model.',
  TIMEOUT: "The model did not answer in time. Check 'tddAgent.baseUrl' and the server, then run the kata again.",
  CONNECTION: "The model server could not be reached. Check 'tddAgent.baseUrl' / 'tddAgent.ollamaHost' and that the server runs.",
  CONTEXT_LENGTH: 'The conversation is too long for this model: pick a model with a larger context window.',
  INVALID_REQUEST: "The model server rejected the request: check 'tddAgent.model' (Pick a model lists the ones it serves).",
  CONFIG: "Check the 'tddAgent.*' settings (the message names the one that is wrong).",
  GIT_FAILED: 'Open the workspace folder that holds the git repository (git init it if needed) and try again.',
  REPLAY_DIVERGED: "The cassette does not match this run: record it again, or set 'tddAgent.provider' to a live provider.",
  SESSION_STATE_INVALID:
    "The session's record cannot be used. Delete that session in the TDD Agent panel (Sessions) and run the kata again.",
  SANDBOX_UNAVAILABLE:
    'Nothing ran and nothing was changed. Make the OS sandbox work (bubblewrap on Linux: Show the fix says how on this machine), or — only if you accept that the code the agents write runs unconfined on your machine — set \'tddAgent.sandbox\' to "off" in your user settings.',
  KATA_NOT_APPROVED:
    'This kata is not one of the bundled ones and names its own test command. Run it again and approve the command on the card in the TDD Agent panel if you trust it; nothing was changed.',
  TOOL_DENIED: 'A tool call was denied; nothing was changed. Approve it next time, or adjust tddAgent.approvalPolicy.',
  SANDBOX_VIOLATION: 'The agent tried to leave the workspace; the call was refused and nothing was changed.',
  CANCELLED: 'The run was stopped; the session keeps its worktree. Resume it from the TDD Agent panel, or run the kata again.',
  UNTRUSTED_WORKSPACE: "Trust this workspace ('Workspaces: Manage Workspace Trust') to run katas and tools.",
  NO_WORKSPACE: 'Open a folder (a git repository) first: katas run against the open workspace.',
  NO_SELECTION: 'Select some code in the editor first.',
  VALIDATION: 'Correct what the message names (a file it names opens at that line from the link), then try again.',
  SESSION_RUNNING: "A kata is already running. Stop it with 'TDD Agent: Stop kata' first.",
  GREEN_NOT_REACHED:
    "Nothing red was committed: the session's worktree is at its last green commit (or as it began, when no cycle reached green). The cycle history shows the failing tests; run the kata again, or try a stronger model.",
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

/** The action line for `errorCode`, or undefined when there is nothing specific to suggest. */
export function errorAction(errorCode: string): string | undefined {
  return ACTIONS[errorCode];
}

/** What VS Code says instead of the core's command-line wording, by `error_code` (the action line says what to do). */
const VSCODE_MESSAGES: Readonly<Record<string, string>> = {
  PROVIDER_NOT_CONFIGURED: 'No model provider is configured, so the kata did not start.',
};

/**
 * The message of `error` in VS Code words: one error code drives both the CLI's wording and this one.
 * Known codes get their own sentence; otherwise sentences and parentheses that name command-line flags
 * (`--base-url`, `--provider replay`) are left out, and a doubled full stop ("Connection error..") is one.
 */
export function vscodeErrorMessage(error: { error_code: string; message: string }): string {
  const own = VSCODE_MESSAGES[error.error_code];
  if (own) return own;
  const flag = /(^|[\s(;])--[a-z]/;
  let text = error.message.replace(/\s*\([^()]*\)/g, (group) => (flag.test(group) ? '' : group));
  const sentences = text.match(/[^.!?]+(?:[.!?]+|$)/g) ?? [text];
  const kept = sentences.filter((sentence) => !flag.test(sentence));
  text = (kept.length > 0 ? kept.join('') : text).trim();
  return text.replace(/(^|[^.])\.\.(?!\.)/g, '$1.').replace(/\s+([.,;])/g, '$1');
}
