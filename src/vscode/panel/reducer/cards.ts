/**
 * The cards at the top of the panel, as the reducer keeps them: approval requests (from the control protocol),
 * error cards, and the QA / CoT questions being answered.
 */
import { type ApprovalRequestMessage, redactSecrets } from '../../../core';
import type { PanelError, PanelState, PendingApproval, SetupProblem } from '../../../shared/panelProtocol';
import { approvalPreview } from '../approvalPreview';
import { errorAction, errorFixes, vscodeErrorMessage } from '../errorActions';
import { boundedParams, clip, MAX_SUMMARY_CHARS } from './history';

/** Most recent QA/CoT answers kept. */
export const MAX_ANSWERS = 20;
/** Most recent error cards kept. */
export const MAX_ERRORS = 20;

/** The control protocol's approval request as an approval card: who asks and for which call come with the request. */
export function fromControlRequest(request: ApprovalRequestMessage): PendingApproval {
  const expires = Date.parse(request.expiresAt);
  const preview = approvalPreview(request.tool, request.params, request.preview);
  return {
    requestId: request.id,
    tool: request.tool,
    dangerLevel: request.dangerLevel,
    params: boundedParams(request.params),
    ...(preview ? { preview } : {}),
    expiresAt: Number.isFinite(expires) && expires > 0 ? expires : 0,
    reason: request.reason ?? `${request.dangerLevel} tools need your approval`,
    ...(request.requestedBy ? { role: request.requestedBy } : {}),
    ...(request.callId ? { callId: request.callId } : {}),
  };
}

/** The card added (or replacing the one with its request id). */
export function addApproval(state: PanelState, approval: PendingApproval): PanelState {
  const approvals = [...state.approvals.filter((a) => a.requestId !== approval.requestId), approval];
  return { ...state, approvals };
}

/** The card of `requestId` gone (answered, withdrawn). */
export function removeApproval(state: PanelState, requestId: string): PanelState {
  if (!state.approvals.some((a) => a.requestId === requestId)) return state;
  return { ...state, approvals: state.approvals.filter((a) => a.requestId !== requestId) };
}

/** An error card (redacted, with what to do and the buttons that fix it); the same error twice in a row shows once. */
export function addError(
  state: PanelState,
  error: { error_code: string; message: string; details?: Record<string, unknown> },
  at: number,
  actionLine?: string,
): PanelState {
  const action = actionLine ?? errorAction(error.error_code, error.details);
  const fixes = errorFixes(error.error_code, error.details);
  const card: PanelError = {
    id: `error-${state.revision + 1}`,
    error_code: error.error_code,
    message: clip(redactSecrets(vscodeErrorMessage(error)), MAX_SUMMARY_CHARS),
    ...(action ? { action: clip(redactSecrets(action), MAX_SUMMARY_CHARS) } : {}),
    ...(fixes.length > 0 ? { fixes } : {}),
    at,
  };
  // The same error reported twice in a row (event + summary) shows once.
  const last = state.errors.at(-1);
  if (last && last.error_code === card.error_code && last.message === card.message) return state;
  return { ...state, errors: [...state.errors, card].slice(-MAX_ERRORS) };
}

/**
 * The error cards without those whose cause the first-run check found and now finds fixed. A card offers the buttons
 * that fix its cause, and so does the check's item for the same cause (no provider: Set API key and Choose provider;
 * a model the server does not serve: Pick a model; no sandbox: Show the fix and Open sandbox setting; invalid
 * settings: Open settings): a card whose buttons an item of `before` offered, and no item of `after` offers, is
 * fixed. A card the check never reported stays (a refused key, a model of api.openai.com, which the check does not
 * ask for its models): the check cannot see those fixed.
 */
export function withoutFixedErrors(errors: PanelError[], before: SetupProblem[], after: SetupProblem[]): PanelError[] {
  const key = (fixes: readonly string[]) => [...fixes].sort().join(' ');
  const asked = (problems: SetupProblem[], card: PanelError) => problems.some((p) => key(p.fixes) === key(card.fixes ?? []));
  const fixed = (card: PanelError) => card.fixes !== undefined && asked(before, card) && !asked(after, card);
  return errors.some(fixed) ? errors.filter((card) => !fixed(card)) : errors;
}

/** The QA / CoT question `id` no longer pending (answered, cancelled, failed). */
export function withoutQuestion(state: PanelState, id: string): PanelState {
  if (!state.questions?.some((q) => q.id === id)) return state;
  const questions = state.questions.filter((q) => q.id !== id);
  const { questions: _dropped, ...rest } = state;
  return questions.length > 0 ? { ...rest, questions } : rest;
}
