/** One tool call's bookkeeping inside the executor: its state, the result built from it, what it shows of its parameters. */
import { performance } from 'node:perf_hooks';
import { redactSecrets, redactValue } from '../security/redact';
import type { EscalationRecord, ToolAuditRecord } from './toolAudit';
import type { ApprovalOutcome, DangerLevel, ToolCallResult } from './types';

/**
 * What the executor knows of one call while it runs. The parameters it shows (memory, the audit trail, an approval
 * card) are redacted when first asked for: most calls are remembered and never read back.
 */
export class CallState {
  dangerLevel?: DangerLevel;
  approval: ApprovalOutcome = 'denied';
  approvedBy?: string;
  /** Escalations the tool asked for while it ran (none for most calls). */
  escalations?: EscalationRecord[];
  readonly started = performance.now();
  /** The parameters as parsed (a plain value), once they parsed. */
  private parsed?: { value: unknown };
  private shown?: { value: unknown };

  constructor(
    readonly name: string,
    readonly callId: string | undefined,
    readonly requestedBy: string | undefined,
    /** The parameters as the model sent them (never shown: see {@link shownParams}). */
    readonly rawParams: unknown,
  ) {}

  /** The arguments parsed; from now on they are what is shown (redacted). */
  parsedAs(value: unknown): void {
    this.parsed = { value };
  }

  /** The redacted parameters memory, the audit trail and an approval card show: the parsed ones, else the raw ones. */
  shownParams(): unknown {
    if (!this.shown) {
      const source = this.parsed ? this.parsed.value : this.rawParams;
      this.shown = { value: typeof source === 'string' ? redactSecrets(source) : redactValue(source) };
    }
    return this.shown.value;
  }
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

/** The audit trail's record of a finished call. */
export function auditRecordOf(state: CallState, result: ToolCallResult): ToolAuditRecord {
  return {
    time: new Date().toISOString(),
    tool: state.name,
    ...(state.callId !== undefined ? { callId: state.callId } : {}),
    ...(state.requestedBy !== undefined ? { requestedBy: state.requestedBy } : {}),
    ...(state.dangerLevel !== undefined ? { dangerLevel: state.dangerLevel } : {}),
    params: state.shownParams(),
    approval: result.approval,
    ...(result.approvedBy !== undefined ? { approvedBy: result.approvedBy } : {}),
    ok: result.ok,
    ...(result.error ? { errorCode: result.error.error_code } : {}),
    durationMs: result.durationMs,
    resultSize: result.content.length,
    ...(state.escalations?.length ? { escalations: [...state.escalations] } : {}),
  };
}
