/**
 * Ids of everything the extension contributes, in one place: the manifest (`package.json`
 * `contributes`) uses the same strings, and a unit test keeps the two in step. Pure (no `vscode`).
 */

/** The category every command is listed under in the palette. */
export const COMMAND_CATEGORY = 'TDD Agent';

/** Contributed command ids. */
export const COMMANDS = {
  runKata: 'tddAgent.runKata',
  startTask: 'tddAgent.startTask',
  stopKata: 'tddAgent.stopKata',
  askSelection: 'tddAgent.askSelection',
  explainSelection: 'tddAgent.explainSelection',
  setApiKey: 'tddAgent.setApiKey',
  clearApiKey: 'tddAgent.clearApiKey',
  openPanel: 'tddAgent.openPanel',
  evaluateModel: 'tddAgent.evaluateModel',
} as const;

/** One contributed command id. */
export type CommandId = (typeof COMMANDS)[keyof typeof COMMANDS];

/** Palette titles (shown as `TDD Agent: <title>`). */
export const COMMAND_TITLES: Readonly<Record<CommandId, string>> = {
  [COMMANDS.runKata]: 'Run TDD kata',
  [COMMANDS.startTask]: 'Start TDD task…',
  [COMMANDS.stopKata]: 'Stop kata',
  [COMMANDS.askSelection]: 'Ask about selection',
  [COMMANDS.explainSelection]: 'Explain selection step by step',
  [COMMANDS.setApiKey]: 'Set API key',
  [COMMANDS.clearApiKey]: 'Clear API key',
  [COMMANDS.openPanel]: 'Open panel',
  [COMMANDS.evaluateModel]: 'Evaluate the configured model…',
};

/** The activity-bar container holding the panel. */
export const VIEW_CONTAINER_ID = 'tddAgent';
/** The agent panel (a webview view). */
export const PANEL_VIEW_ID = 'tddAgent.panel';
/** Key of the API key in SecretStorage. */
export const API_KEY_SECRET = 'tddAgent.apiKey';
/** Key of the persisted panel state in workspaceState. */
export const PANEL_STATE_KEY = 'tddAgent.panelState';
/** Key of the Testing view's last supervisor run in workspaceState (restored after a window reload). */
export const KATA_TESTS_STATE_KEY = 'tddAgent.kataTests';
/** Name of the LogOutputChannel. */
export const OUTPUT_CHANNEL_NAME = 'TDD Agent';
