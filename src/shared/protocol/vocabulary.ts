/**
 * The panel protocol's vocabularies: one list each, which the UI and the host switch on (never on loose literals).
 * Part of the panel protocol (`../panelProtocol.ts`); browser-safe (no `vscode`, no node imports). The words the
 * core shares (danger levels, approval outcomes and decisions, roles, phases, session statuses) are declared once,
 * in the import-free src/core/vocabulary; the panel's own words are here.
 */
import { SESSION_STATUSES, type SandboxMode } from '../../core/vocabulary';

export {
  APPROVAL_DECISIONS,
  RECORDED_SESSION_STATUSES,
  SANDBOX_MODES,
  type ApprovalDecision,
  type RecordedSessionStatus,
} from '../../core/vocabulary';

/** Lifecycle of a kata session: `idle` before any run, then `running`, then one of the CLI's final statuses. */
export const PANEL_SESSION_STATUSES = ['idle', ...SESSION_STATUSES] as const;
/** The status shown in the session header. */
export type PanelSessionStatus = (typeof PANEL_SESSION_STATUSES)[number];

/**
 * How one role's phase ended. `passed` means the role's goal was verified by the supervisor
 * (tester: a new failing test; implementer: all green; refactorer: still green and committed).
 * `skipped`: the refactorer made no change or gave up (non-fatal); `reverted`: its changes were undone.
 */
export const PANEL_PHASE_OUTCOMES = ['pending', 'running', 'passed', 'failed', 'skipped', 'reverted', 'cancelled'] as const;
/** Outcome of one phase of a cycle. */
export type PanelPhaseOutcome = (typeof PANEL_PHASE_OUTCOMES)[number];

/** How a cycle ended: `passed` = green and committed; `complete` = the Tester found nothing left to test (the kata is done). */
export const PANEL_CYCLE_OUTCOMES = ['running', 'passed', 'complete', 'failed', 'cancelled'] as const;
/** Outcome of one red-green-refactor cycle. */
export type PanelCycleOutcome = (typeof PANEL_CYCLE_OUTCOMES)[number];

/**
 * Commands the panel may ask the host to run: the toolbar's, and the fixes offered on the first-run card and on
 * error cards (choose a provider or base URL, pick one of the served models, the sandbox's fix or setting, trust).
 */
export const PANEL_COMMANDS = [
  'runKata',
  'stopKata',
  'openSettings',
  'setApiKey',
  'chooseProvider',
  'pickModel',
  'showSandboxFix',
  'openSandboxSetting',
  'manageTrust',
] as const;
/** A command name the panel can send. */
export type PanelCommandName = (typeof PANEL_COMMANDS)[number];

/** The label of each command's button (the e2e specs find the buttons by them). */
export const PANEL_COMMAND_LABELS: Readonly<Record<PanelCommandName, string>> = {
  runKata: 'Run TDD kata',
  stopKata: 'Stop kata',
  openSettings: 'Open settings',
  setApiKey: 'Set API key',
  chooseProvider: 'Choose provider or base URL',
  pickModel: 'Pick a model',
  showSandboxFix: 'Show the fix',
  openSandboxSetting: 'Open sandbox setting',
  manageTrust: 'Manage Workspace Trust',
};

/** What the first-run card can say is missing: a model to talk to, an OS sandbox to run the agents' code in. */
export const SETUP_ITEMS = ['model', 'sandbox'] as const;
/** One thing a session needs before it can start. */
export type SetupItem = (typeof SETUP_ITEMS)[number];

/**
 * What a person can do with a recorded session of the repository from the panel: review its changes in
 * VS Code's diff views, merge its branch into their current branch, delete it (worktree, record and
 * branch, after a confirmation), or resume it.
 */
export const SESSION_ACTIONS = ['review', 'merge', 'delete', 'resume'] as const;
/** One session action. */
export type SessionActionName = (typeof SESSION_ACTIONS)[number];

/** The `tddAgent.sandbox` setting's values are the core's sandbox modes. */
export type PanelSandboxMode = SandboxMode;

/** Levels of a `log` message from the panel. */
export const PANEL_LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
/** Level of a panel log line. */
export type PanelLogLevel = (typeof PANEL_LOG_LEVELS)[number];
