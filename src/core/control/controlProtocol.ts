import { randomUUID } from 'node:crypto';
import { settleOnce } from '../async/settleOnce';
import { getLogger, type Logger } from '../logging/logger';
import { redactSecrets, redactValue } from '../security/redact';
import type { DangerLevel } from '../vocabulary';
import {
  personToAgentMessageSchema,
  type AgentToPersonMessage,
  type ApprovalDecision,
  type ApprovalRequestMessage,
  type CancelMessage,
  type ToolCallPreviewMessage,
  type UserInputMessage,
} from './messages';
import { Listeners, type ControlTransport } from './transport';

/** Default time a person has to answer an approval request before it is denied: 5 minutes. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 5 * 60_000;

/** What the agent wants approved. */
export interface ApprovalRequestInput {
  /** Correlation id; a random UUID when absent. */
  id?: string;
  tool: string;
  dangerLevel: DangerLevel;
  params: unknown;
  /** A structured preview, or plain text (sent as `{ kind: 'text' }`). */
  preview?: ToolCallPreviewMessage | string;
  reason?: string;
  /** Who asked: a TDD role or an agent's id (shown on the approval card). */
  requestedBy?: string;
  /** The model's tool-call id the request is for. */
  callId?: string;
  timeoutMs?: number;
}

/**
 * How an approval request ended. Only `approved` and `always` let the call run; `timeout`
 * (nobody answered in time) and `denied` (a person said no, the request was cancelled, or the
 * channel is gone) fail closed.
 */
export interface ApprovalAnswer {
  id: string;
  outcome: 'approved' | 'always' | 'denied' | 'timeout';
  /** Who answered; absent when nobody did (timeout, cancellation, channel failure). */
  answeredBy?: string;
  /** Why it was denied, in words for the model and the person. */
  reason?: string;
}

/** The answer to a question; `outcome` tells whether a person actually answered. */
export interface QuestionAnswer {
  id: string;
  outcome: 'answered' | 'declined' | 'timeout' | 'cancelled';
  text?: string;
  answeredBy?: string;
}

/** Options of a ControlProtocol. */
export interface ControlProtocolOptions {
  /** Approval timeout when a request gives none (default 5 min). */
  approvalTimeoutMs?: number;
  /** Question timeout when a question gives none (default 5 min). */
  questionTimeoutMs?: number;
  logger?: Logger;
}

// Answers minted by a ControlProtocol from a validated person message. The approval policy only
// records session grants from these, so nothing the model produces can create one.
const personAnswers = new WeakSet<ApprovalAnswer>();

/** True when `answer` came from a person through a ControlProtocol (not built by other code). */
export function isPersonAnswer(answer: ApprovalAnswer): boolean {
  return personAnswers.has(answer);
}

interface Settlement {
  decision?: ApprovalDecision;
  text?: string;
  answeredBy?: string;
  reason?: string;
  declined?: boolean;
}

interface Pending {
  kind: 'approval' | 'question';
  settle(message: Settlement): void;
  cancel(reason: CancelMessage['reason']): void;
}

/**
 * The agent side of the control channel: approval requests, questions, progress and free user
 * input over any ControlTransport. Requests are correlated by id; every incoming message is
 * validated with zod and an invalid or unexpected one is dropped and logged, never acted on.
 * An approval nobody answers within its timeout is denied (fail closed), as is one whose
 * AbortSignal fires or whose transport fails.
 */
export class ControlProtocol {
  private readonly pending = new Map<string, Pending>();
  private readonly userInput = new Listeners<UserInputMessage>();
  private readonly unsubscribe: () => void;
  private readonly logger: Logger;
  private readonly approvalTimeoutMs: number;
  private readonly questionTimeoutMs: number;
  private closed = false;

  constructor(
    private readonly transport: ControlTransport,
    options: ControlProtocolOptions = {},
  ) {
    this.logger = options.logger ?? getLogger('control');
    this.approvalTimeoutMs = options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
    this.questionTimeoutMs = options.questionTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
    this.unsubscribe = transport.onMessage((message) => this.receive(message));
  }

  /** Number of requests waiting for an answer. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Asks a person to approve a tool call. Never rejects: failures resolve to a denial. */
  requestApproval(input: ApprovalRequestInput, signal?: AbortSignal): Promise<ApprovalAnswer> {
    const id = input.id ?? randomUUID();
    const timeoutMs = input.timeoutMs ?? this.approvalTimeoutMs;
    const message: ApprovalRequestMessage = {
      type: 'approval_request',
      id,
      tool: input.tool,
      dangerLevel: input.dangerLevel,
      params: redactValue(input.params),
      ...(input.preview !== undefined ? { preview: redactValue(toPreview(input.preview)) } : {}),
      ...(input.reason !== undefined ? { reason: input.reason } : {}),
      ...(input.requestedBy !== undefined ? { requestedBy: input.requestedBy } : {}),
      ...(input.callId !== undefined ? { callId: input.callId } : {}),
      timeoutMs,
      expiresAt: new Date(Date.now() + timeoutMs).toISOString(),
    };
    return this.open<ApprovalAnswer>(message, timeoutMs, signal, {
      kind: 'approval',
      answered: (m) => {
        const outcome = m.decision === 'approve' ? 'approved' : m.decision === 'always' ? 'always' : 'denied';
        const answer: ApprovalAnswer = { id, outcome, answeredBy: m.answeredBy };
        if (outcome === 'denied')
          answer.reason = m.reason ? `denied by ${m.answeredBy}: ${m.reason}` : `denied by ${m.answeredBy}`;
        personAnswers.add(answer);
        return answer;
      },
      unanswered: (why, detail) => ({
        id,
        outcome: why === 'timeout' ? 'timeout' : 'denied',
        reason:
          why === 'timeout'
            ? `nobody answered the approval request within ${formatSeconds(timeoutMs)}`
            : why === 'cancelled'
              ? 'the run was cancelled before anyone answered'
              : `the approval channel is unavailable (${detail ?? why})`,
      }),
    });
  }

  /** Asks a person a question. Never rejects: a timeout or cancellation resolves with that outcome. */
  ask(text: string, options: { choices?: string[]; timeoutMs?: number; signal?: AbortSignal } = {}): Promise<QuestionAnswer> {
    const id = randomUUID();
    const timeoutMs = options.timeoutMs ?? this.questionTimeoutMs;
    return this.open<QuestionAnswer>(
      { type: 'question', id, text, ...(options.choices ? { choices: options.choices } : {}), timeoutMs },
      timeoutMs,
      options.signal,
      {
        kind: 'question',
        answered: (m) => ({
          id,
          outcome: m.declined ? 'declined' : 'answered',
          text: m.text ?? '',
          ...(m.answeredBy ? { answeredBy: m.answeredBy } : {}),
        }),
        unanswered: (why) => ({ id, outcome: why === 'timeout' ? 'timeout' : 'cancelled' }),
      },
    );
  }

  /** Sends a one-way progress note; a failing transport is logged, never thrown. */
  progress(message: string, data?: unknown): void {
    if (this.closed) return;
    this.deliver({
      type: 'progress',
      id: randomUUID(),
      message,
      ...(data !== undefined ? { data: redactValue(data) } : {}),
    }).catch(() => undefined);
  }

  /** Subscribes to free text a person sends; returns an unsubscribe function. */
  onUserInput(handler: (message: UserInputMessage) => void): () => void {
    return this.userInput.add(handler);
  }

  /** Denies every pending request (reason `closed`) and detaches from the transport. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const pending of [...this.pending.values()]) pending.cancel('closed');
    this.unsubscribe();
    this.userInput.clear();
    this.transport.close?.();
  }

  private open<T>(
    message: AgentToPersonMessage & { id: string },
    timeoutMs: number,
    signal: AbortSignal | undefined,
    handlers: {
      kind: Pending['kind'];
      answered(m: Settlement): T;
      unanswered(why: CancelMessage['reason'] | 'unreachable', detail?: string): T;
    },
  ): Promise<T> {
    const { id } = message;
    if (this.closed) return Promise.resolve(handlers.unanswered('closed', 'the control channel is closed'));
    if (signal?.aborted) return Promise.resolve(handlers.unanswered('cancelled'));
    return new Promise<T>((resolve) => {
      // `signal` is not aborted here (checked above), so no handler runs before `wait` is assigned.
      const wait = settleOnce({
        timeoutMs,
        onTimeout: () => withdraw('timeout'),
        signal,
        onAbort: () => withdraw('cancelled'),
        unref: true,
      });
      const finish = (value: T): void => {
        wait.settle(() => {
          this.pending.delete(id);
          resolve(value);
        });
      };
      const withdraw = (reason: CancelMessage['reason']): void => {
        if (wait.settled) return;
        finish(handlers.unanswered(reason));
        // Tell the person side to drop the prompt/card; the channel may already be gone.
        if (reason !== 'closed') this.deliver({ type: 'cancel', id, reason }).catch(() => undefined);
      };
      this.pending.set(id, {
        kind: handlers.kind,
        settle: (m) => finish(handlers.answered(m)),
        cancel: withdraw,
      });
      this.deliver(message).catch((error: unknown) => {
        const detail = error instanceof Error ? error.message : String(error);
        this.logger.warn('control message could not be delivered', { type: message.type, id, error: detail });
        finish(handlers.unanswered('unreachable', redactSecrets(detail)));
      });
    });
  }

  private async deliver(message: AgentToPersonMessage): Promise<void> {
    await this.transport.send(message);
  }

  private receive(raw: unknown): void {
    const parsed = personToAgentMessageSchema.safeParse(raw);
    if (!parsed.success) {
      this.logger.warn('dropped an invalid control message', {
        type: typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : typeof raw,
        issues: parsed.error.issues.map((i) => `${i.path.join('.') || '(message)'}: ${i.message}`),
      });
      return;
    }
    const message = parsed.data;
    if (message.type === 'user_input') {
      this.userInput.emit(message);
      return;
    }
    const pending = this.pending.get(message.id);
    const expected = message.type === 'approval_response' ? 'approval' : 'question';
    if (!pending || pending.kind !== expected) {
      this.logger.debug('dropped a control answer with no matching request', { type: message.type, id: message.id });
      return;
    }
    if (message.type === 'approval_response') {
      pending.settle({ decision: message.decision, answeredBy: message.answeredBy, reason: message.reason });
    } else {
      pending.settle({ text: message.text, answeredBy: message.answeredBy, declined: message.declined });
    }
  }
}

function toPreview(preview: ToolCallPreviewMessage | string): ToolCallPreviewMessage {
  return typeof preview === 'string' ? { kind: 'text', text: preview } : preview;
}

function formatSeconds(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
