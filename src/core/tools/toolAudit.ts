import type { ApprovalOutcome, DangerLevel } from './types';

/** One escalation a tool asked for during a call (e.g. a write under `.vscode/`). */
export interface EscalationRecord {
  level: DangerLevel;
  reason: string;
  granted: boolean;
  answeredBy?: string;
}

/** One audit-trail record per tool call, with secrets redacted from the parameters. */
export interface ToolAuditRecord {
  time: string;
  tool: string;
  callId?: string;
  /** Which agent or role asked for the call. */
  requestedBy?: string;
  dangerLevel?: DangerLevel;
  /** Parameters as the model sent them, redacted. */
  params: unknown;
  approval: ApprovalOutcome;
  /** Who approved: a person (`terminal`, `panel`), `--yes`, or `policy` for auto-approved calls. */
  approvedBy?: string;
  ok: boolean;
  errorCode?: string;
  durationMs: number;
  /** Characters of the result content fed back to the model. */
  resultSize: number;
  escalations?: EscalationRecord[];
}

/** Receives audit records (a JSONL file, the session store, an array in tests). Failures are logged, never thrown. */
export type ToolAuditSink = (record: ToolAuditRecord) => void | Promise<void>;
