import { AgentError, describeThrown, toAgentError } from '../errors/agentError';

/** One link of an error's cause chain as `details.causes` shows it. */
export interface CauseInfo {
  /** The cause's class name (`RangeError`, `AgentError`, ...); `value` for a thrown non-Error. */
  name: string;
  /** Its message (or the thrown value as text), at most 500 characters; redacted with the rest of `details`. */
  message: string;
}

/** Most links of a cause chain kept in `details.causes`; deeper ones are dropped. */
export const MAX_CAUSE_DEPTH = 5;

/**
 * The causes below `thrown` (not `thrown` itself, whose message the error already shows): each `cause` in
 * turn as `{ name, message }`, at most {@link MAX_CAUSE_DEPTH}, stopping at a cause seen before (a loop). An
 * AgentError that already lists its causes (`details.causes`) gives those. Empty when there is no cause.
 * The list goes into an AgentError's `details`, which redacts secrets.
 */
export function causeChain(thrown: unknown): CauseInfo[] {
  if (thrown instanceof AgentError && Array.isArray(thrown.details.causes)) return thrown.details.causes as CauseInfo[];
  const seen = new Set<unknown>([thrown]);
  const out: CauseInfo[] = [];
  let current = causeOf(thrown);
  while (current !== undefined && out.length < MAX_CAUSE_DEPTH && !seen.has(current)) {
    seen.add(current);
    out.push({ name: current instanceof Error ? current.name : 'value', message: describeThrown(current) });
    current = causeOf(current);
  }
  return out;
}

/** `details` plus `causes` when `thrown` has any (unchanged otherwise). */
export function withCauses(details: Record<string, unknown>, thrown: unknown): Record<string, unknown> {
  const causes = causeChain(thrown);
  return causes.length > 0 ? { ...details, causes } : details;
}

function causeOf(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !('cause' in value)) return undefined;
  return (value as { cause?: unknown }).cause;
}

/**
 * What a run reports for anything thrown inside it: an AgentError as it is; anything else as
 * `toAgentError` makes it, plus the cause chain of the thrown error in `details.causes` (`toAgentError`
 * keeps only the first cause, and without its own causes).
 */
export function toRunError(thrown: unknown): AgentError {
  if (thrown instanceof AgentError) return thrown;
  const error = toAgentError(thrown);
  const causes = causeChain(thrown);
  if (causes.length === 0) return error;
  return new AgentError(error.error_code, error.message, { ...error.details, causes }, { cause: thrown });
}
