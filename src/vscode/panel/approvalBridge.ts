/**
 * Plugs the panel into the core's control protocol. To the core it is a `MessageChannelLike`
 * (wrapped in a `PortTransport`): an `approval_request` becomes an approval card in the panel state,
 * a `question` (a role's `ask_person`) a question card, and a `cancel` removes either. A person's
 * `approvalResponse { requestId, decision }` from the panel comes back through {@link ApprovalBridge.answer}
 * and is handed to the protocol as an `approval_response` by id; an answer to a question through
 * {@link ApprovalBridge.answerQuestion} or {@link ApprovalBridge.declineQuestion} as an `answer`.
 * Pure (no `vscode`): the webview is reached only through the store.
 */
import type { AgentToPersonMessage, PersonToAgentMessage } from '../../core/control/messages';
import type { MessageChannelLike } from '../../core/control/portTransport';
import type { ApprovalDecision } from '../../shared/panelProtocol';
import { pendingPersonQuestion, type PendingPersonQuestion } from '../../shared/personQuestionProtocol';
import type { PanelStore } from './panelStore';

/** Who answers approvals in the audit trail. */
export const PANEL_ANSWERER = 'panel';

/** What a role reads when the person chose "Let the agent decide". */
export const LET_THE_AGENT_DECIDE = 'Decide yourself: take what you think best, and say in your report what you chose.';

/** Minimal logger the bridge writes to. */
export interface BridgeLog {
  info(message: string): void;
  warn(message: string): void;
}

/** The panel side of the control channel for one session. */
export class ApprovalBridge implements MessageChannelLike {
  private readonly handlers = new Set<(message: unknown) => void>();
  private readonly pending = new Set<string>();
  /** Questions waiting for the person, by id. */
  private readonly questions = new Set<string>();
  private closed = false;

  constructor(
    private readonly store: PanelStore,
    private readonly log: BridgeLog,
    /** Also sees each approval request whole (the host keeps a file write's proposed content for "Open diff"). */
    private readonly onRequest?: (request: Extract<AgentToPersonMessage, { type: 'approval_request' }>) => void,
    /** Also sees each question card (the host tells a person whose panel is hidden). */
    private readonly onQuestion?: (question: PendingPersonQuestion) => void,
    /** Clock for a question's deadline (tests). */
    private readonly now: () => number = Date.now,
  ) {}

  /** Receives a message from the agent side. Returns false once closed (the protocol then fails closed). */
  send(message: AgentToPersonMessage): boolean {
    if (this.closed) return false;
    switch (message.type) {
      case 'approval_request':
        this.pending.add(message.id);
        this.onRequest?.(message);
        this.store.dispatch({ type: 'approvalRequested', request: message });
        this.store.flush();
        this.log.info(`approval requested: ${message.tool} (${message.dangerLevel}) [${message.id}]`);
        return true;
      case 'cancel':
        if (this.questions.delete(message.id)) {
          this.store.dispatch({ type: 'personQuestionClosed', id: message.id });
          this.log.info(`question ${message.id} withdrawn (${message.reason})`);
          return true;
        }
        this.pending.delete(message.id);
        this.store.dispatch({ type: 'approvalClosed', requestId: message.id });
        this.log.info(`approval request ${message.id} withdrawn (${message.reason})`);
        return true;
      case 'question': {
        const question = pendingPersonQuestion(message, this.now());
        this.questions.add(message.id);
        this.store.dispatch({ type: 'personQuestionAsked', question });
        this.store.flush();
        this.log.info(`question from ${question.asker ?? 'an agent'} [${message.id}]`);
        this.onQuestion?.(question);
        return true;
      }
      case 'progress':
        this.log.info(`progress: ${message.message}`);
        return true;
    }
  }

  /** Subscribes the control protocol to the person's answers. */
  onMessage(handler: (message: unknown) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /**
   * Hands a person's decision from the panel to the waiting executor, by request id. Returns false
   * (and changes nothing) for an id that is not pending, e.g. a stale card or an already answered one.
   */
  answer(requestId: string, decision: ApprovalDecision): boolean {
    if (this.closed || !this.pending.has(requestId)) {
      this.log.warn(`dropped an approval answer for unknown or finished request ${requestId}`);
      return false;
    }
    this.pending.delete(requestId);
    this.store.dispatch({ type: 'approvalClosed', requestId });
    this.log.info(`approval ${decision} for ${requestId} by ${PANEL_ANSWERER}`);
    this.emit({ type: 'approval_response', id: requestId, decision, answeredBy: PANEL_ANSWERER });
    return true;
  }

  /**
   * Hands the person's answer to question `id` to the waiting role. Returns false (and changes nothing) for an id
   * that is not pending (answered, withdrawn, or never asked here) or an empty answer.
   */
  answerQuestion(id: string, text: string): boolean {
    const answer = text.trim();
    if (answer === '') {
      this.log.warn(`dropped an empty answer to question ${id}`);
      return false;
    }
    return this.settleQuestion(id, { type: 'answer', id, text: answer, answeredBy: PANEL_ANSWERER });
  }

  /**
   * "Let the agent decide": the person's own answer, in words the role reads as one (a declined answer would tell it
   * that no one is there, which is not what happened). False for an id that is not pending.
   */
  declineQuestion(id: string): boolean {
    return this.settleQuestion(id, { type: 'answer', id, text: LET_THE_AGENT_DECIDE, answeredBy: PANEL_ANSWERER });
  }

  /** Removes every card and stops accepting messages. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const id of this.pending) this.store.dispatch({ type: 'approvalClosed', requestId: id });
    this.pending.clear();
    for (const id of this.questions) this.store.dispatch({ type: 'personQuestionClosed', id });
    this.questions.clear();
    this.handlers.clear();
  }

  private settleQuestion(id: string, answer: Extract<PersonToAgentMessage, { type: 'answer' }>): boolean {
    if (this.closed || !this.questions.has(id)) {
      this.log.warn(`dropped an answer for unknown or finished question ${id}`);
      return false;
    }
    this.questions.delete(id);
    this.store.dispatch({ type: 'personQuestionClosed', id });
    this.log.info(`question ${id} ${answer.declined ? 'left to the agent' : 'answered'} by ${PANEL_ANSWERER}`);
    this.emit(answer);
    return true;
  }

  private emit(message: PersonToAgentMessage): void {
    for (const handler of [...this.handlers]) handler(message);
  }
}
