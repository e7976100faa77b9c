/** One tool call's bookkeeping inside the executor: its state, the result built from it, what it shows of its parameters. */
import { performance } from 'node:perf_hooks';
import { redactSecrets, redactValue } from '../security/redact';
import type { EscalationRecord, ToolAuditRecord } from './toolAudit';
import type { ApprovalOutcome, DangerLevel, ToolCallResult } from './types';

/** What the executor knows of one call while it runs. */
export interface CallState {
  name: string;
  callId?: string;
  requestedBy?: string;
  dangerLevel?: DangerLevel;
  /** The parameters as the model sent them (never shown: see `params`). */
  rawParams: unknown;
  /** The redacted parameters memory and the audit trail show; set by {@link shownParams}. */
  params?: unknown;
  approval: ApprovalOutcome;
  approvedBy?: string;
  escalations: EscalationRecord[];
  started: number;
}

/**
 * A result's common fields, in the order results always had them (the optional ones only when set): one object
 * built in place instead of spreads of small ones.
 */
export function callResult(
  state: CallState,
  ok: boolean,
  content: string,
  data?: unknown,
  error?: ToolCallResult['error'],
): ToolCallResult {
  const result = { toolName: state.name } as ToolCallResult;
  if (state.callId !== undefined) result.callId = state.callId;
  result.ok = ok;
  result.content = content;
  if (data !== undefined) result.data = data;
  if (error) result.error = error;
  result.approval = state.approval;
  if (state.approvedBy !== undefined) result.approvedBy = state.approvedBy;
  result.durationMs = performance.now() - state.started;
  return result;
}

/** The parameters memory and the audit trail show: the parsed ones, else the raw ones, redacted once. */
export function shownParams(state: CallState): unknown {
  if (!('params' in state))
    state.params = typeof state.rawParams === 'string' ? redactSecrets(state.rawParams) : redactValue(state.rawParams);
  return state.params;
}

/** The audit trail's record of a finished call. */
export function auditRecordOf(state: CallState, result: ToolCallResult): ToolAuditRecord {
  return {
    time: new Date().toISOString(),
    tool: state.name,
    ...(state.callId !== undefined ? { callId: state.callId } : {}),
    ...(state.requestedBy !== undefined ? { requestedBy: state.requestedBy } : {}),
    ...(state.dangerLevel !== undefined ? { dangerLevel: state.dangerLevel } : {}),
    params: shownParams(state),
    approval: result.approval,
    ...(result.approvedBy !== undefined ? { approvedBy: result.approvedBy } : {}),
    ok: result.ok,
    ...(result.error ? { errorCode: result.error.error_code } : {}),
    durationMs: result.durationMs,
    resultSize: result.content.length,
    ...(state.escalations.length ? { escalations: [...state.escalations] } : {}),
  };
}
