/** Human-readable labels and numbers for the panel (pure functions, no DOM). */
import {
  PHASE_LABELS as PHASE_WORDS,
  PHASES,
  ROLE_TITLES,
  type ApprovalOutcome,
  type DangerLevel,
  type ErrorCode,
  type Phase,
  type Role,
} from '../src/core/vocabulary';
import type {
  PanelCycleOutcome,
  PanelPhaseOutcome,
  RecordedSessionStatus,
  PanelSessionStatus,
} from '../src/shared/panelProtocol';

/** "850 ms", "3.2 s", "2 min 05 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const totalSeconds = Math.round(ms / 1000);
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${minutes} min ${String(seconds).padStart(2, '0')} s`;
}

/** Thousands separators, stable across locales: 12,345. */
export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/** "850", "12.3k", "1.2M": a short token count. */
export function formatTokens(value: number): string {
  if (value < 1000) return String(value);
  if (value < 1_000_000) return `${(value / 1000).toFixed(value < 10_000 ? 1 : 0)}k`;
  return `${(value / 1_000_000).toFixed(1)}M`;
}

/** An estimated cost in USD: "~$0.0042", "~$1.27" ("<$0.0001" for almost nothing). */
export function formatCost(usd: number): string {
  if (usd > 0 && usd < 0.0001) return '<$0.0001';
  return `~$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}

/** "m:ss" for a countdown; never negative. */
export function formatCountdown(msLeft: number): string {
  const seconds = Math.max(0, Math.ceil(msLeft / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The first seven characters of a commit sha. */
export function shortSha(sha: string): string {
  return sha.slice(0, 7);
}

/** "1 attempt", "3 attempts". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** Pretty JSON for parameters, bounded so a huge value cannot freeze the panel. */
export function formatJson(value: unknown, limit = 20_000): string {
  let textValue: string;
  try {
    textValue = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    textValue = String(value);
  }
  return textValue.length > limit ? `${textValue.slice(0, limit)}\n… (truncated)` : textValue;
}

/** "72 %" from a 0..1 confidence. */
export function formatConfidence(confidence: number): string {
  return `${Math.round(confidence * 100)} %`;
}

/** Status shown in the session header. */
export const STATUS_LABELS: Record<PanelSessionStatus, string> = {
  idle: 'Idle',
  running: 'Running',
  completed: 'Completed',
  incomplete: 'Incomplete',
  max_cycles: 'Max cycles reached',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** How a recorded session of the repository stands, as shown in the sessions list. */
export const RECORDED_STATUS_LABELS: Record<RecordedSessionStatus, string> = {
  running: 'Running',
  interrupted: 'Interrupted',
  completed: 'Completed',
  incomplete: 'Incomplete',
  max_cycles: 'Max cycles reached',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** What the current phase means to a person: "Implementer is making it pass", "Cycle done". */
export const PHASE_LABELS = Object.fromEntries(
  PHASES.map((phase) => {
    const { role, doing } = PHASE_WORDS[phase];
    return [phase, role ? `${ROLE_TITLES[role]} is ${doing}` : `Cycle ${doing}`];
  }),
) as Readonly<Record<Phase, string>>;

/** A role's name as shown: a TDD role's title, another agent's name as it is. */
export function roleLabel(role: string): string {
  return role in ROLE_TITLES ? ROLE_TITLES[role as Role] : role;
}

/** Phase outcomes as shown. */
export const PHASE_OUTCOME_LABELS: Record<PanelPhaseOutcome, string> = {
  pending: 'Pending',
  running: 'Running',
  passed: 'Passed',
  failed: 'Failed',
  skipped: 'Skipped',
  reverted: 'Reverted',
  cancelled: 'Cancelled',
};

/** Cycle outcomes as shown. */
export const CYCLE_OUTCOME_LABELS: Record<PanelCycleOutcome, string> = {
  running: 'Running',
  passed: 'Green',
  complete: 'Complete',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** How a recorded tool call was allowed, as shown. */
export const APPROVAL_OUTCOME_LABELS: Record<ApprovalOutcome, string> = {
  auto: 'Auto-approved',
  approved: 'Approved',
  always: 'Always allowed',
  denied: 'Denied',
  timeout: 'Timed out',
  policy_denied: 'Denied by policy',
};

/** Danger levels as shown. */
export const DANGER_LABELS: Record<DangerLevel, string> = {
  SAFE: 'Safe',
  LOW: 'Low risk',
  MEDIUM: 'Medium risk',
  HIGH: 'High risk',
  CRITICAL: 'Critical',
};

/** What went wrong, by error code, as the title of an error card (the code itself goes on a line of its own). */
const ERROR_TITLES: Readonly<Partial<Record<ErrorCode, string>>> = {
  PROVIDER_NOT_CONFIGURED: 'No model to talk to yet',
  AUTH: 'The API key was refused',
  RATE_LIMIT: 'The model provider asks to slow down',
  TIMEOUT: 'Time ran out',
  CONNECTION: 'The model server cannot be reached',
  CONTEXT_LENGTH: 'Too much for this model',
  INVALID_REQUEST: 'The model server turned the request down',
  CONFIG: 'A setting needs a look',
  VALIDATION: 'Something in the input is not right',
  GIT_FAILED: 'Git could not do it',
  REPLAY_DIVERGED: 'The recording does not match this run',
  SESSION_STATE_INVALID: 'This session cannot be continued',
  SANDBOX_UNAVAILABLE: 'No sandbox to run the tests in',
  KATA_NOT_APPROVED: 'The kata’s test command was not approved',
  TOOL_DENIED: 'A step was not allowed',
  SANDBOX_VIOLATION: 'The agent tried to leave the workspace',
  CANCELLED: 'Stopped',
  UNTRUSTED_WORKSPACE: 'This workspace is not trusted',
  NO_WORKSPACE: 'No folder is open',
  NO_SELECTION: 'Nothing is selected',
  SESSION_RUNNING: 'A kata is already running',
  EXECUTION_FAILED: 'A step failed',
  QUALITY_GATE_FAILED: 'A quality gate failed',
  GREEN_NOT_REACHED: 'The tests did not turn green',
  INCOMPLETE: 'Not everything asked for is tested',
  NOTHING_TO_COMMIT: 'There was nothing to commit',
};

/** The title of an error card for `errorCode` ("Something went wrong" for a code without one). */
export function errorTitle(errorCode: string): string {
  return ERROR_TITLES[errorCode as ErrorCode] ?? 'Something went wrong';
}

/**
 * Why an approval card asks, in a person's words. The policy's own wording ('the policy for MEDIUM tools is "ask"')
 * becomes a sentence about the person's approval settings; any other reason (an escalation: a protected path, a
 * kata's own test command) is shown as it is.
 */
export function approvalReasonText(reason: string | undefined, dangerLevel: DangerLevel): string {
  if (!reason) return 'This tool call needs your approval.';
  const byLevel = /^the policy for (SAFE|LOW|MEDIUM|HIGH|CRITICAL) (?:tools|actions) is "ask"$/.exec(reason);
  if (byLevel) return `Your approval settings ask before every ${DANGER_LABELS[dangerLevel].toLowerCase()} step.`;
  const byTool = /^the policy for tool (\S+) is "ask"$/.exec(reason);
  if (byTool) return `Your approval settings ask before every ${byTool[1]}.`;
  return reason;
}
