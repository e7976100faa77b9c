/**
 * The panel's conversation with the session that runs in this window, owned by one object: the panel store's cards
 * (approvals and a role's questions), the channel the session's control protocol talks through, and the answers the
 * person gives on those cards, matched to the waiting request by id.
 *
 * A session opens the conversation ({@link PanelConversation.open}: a `MessageChannelLike` for a `PortTransport`) and
 * closes it when it ends. To the core, an `approval_request` becomes an approval card, a `question` (a role's
 * `ask_person`) a question card, and a `cancel` removes either. The panel's answers come in through
 * {@link PanelConversation.answerApproval} and {@link PanelConversation.answerQuestion} and go back to the protocol as
 * an `approval_response` or an `answer` by id. Every card is closed in one place ({@link PanelConversation.closeCard}):
 * answered, withdrawn, left when the session ended, or answered when nothing waits for it any more.
 * Pure (no `vscode`): the webview is reached only through the store.
 */
import type { AgentToPersonMessage, ApprovalRequestMessage, MessageChannelLike, PersonToAgentMessage } from '../../core';
import type { ApprovalDecision } from '../../shared/panelProtocol';
import { pendingPersonQuestion, type PendingPersonQuestion } from '../../shared/personQuestionProtocol';
import type { PanelStore } from './panelStore';

/** Who answers approvals in the audit trail. */
export const PANEL_ANSWERER = 'panel';

/** What a role reads when the person chose "Let the agent decide". */
export const LET_THE_AGENT_DECIDE = 'Decide yourself: take what you think best, and say in your report what you chose.';

/** Minimal logger the conversation writes to. */
export interface ConversationLog {
  info(message: string): void;
  warn(message: string): void;
}

/** What the session that opens the conversation also wants to see. */
export interface ConversationWatchers {
  /** Each approval request whole (the host keeps a file write's proposed content for "Open diff"). */
  approvalRequested?(request: ApprovalRequestMessage): void;
  /** Each question card (the host tells a person whose panel is hidden). */
  questionAsked?(question: PendingPersonQuestion): void;
}

/** A card in the panel: an approval or a role's question. */
type Card = { kind: 'approval' | 'question'; id: string };

/** The person's answer to a role's question: words, or "Let the agent decide". */
export type QuestionAnswer = { text: string } | { declined: true };

/** One session's side of the conversation: the channel its protocol holds, dead once the session ended. */
class SessionChannel implements MessageChannelLike {
  readonly handlers = new Set<(message: unknown) => void>();
  closed = false;

  constructor(
    private readonly receive: (message: AgentToPersonMessage) => void,
    readonly watchers: ConversationWatchers,
  ) {}

  /** Returns false once the session's conversation is closed (the protocol then fails closed). */
  send(message: AgentToPersonMessage): boolean {
    if (this.closed) return false;
    this.receive(message);
    return true;
  }

  onMessage(handler: (message: unknown) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }
}

/** The owner of the panel's conversation with the running session: one per window. */
export class PanelConversation {
  private session: SessionChannel | undefined;
  /** The cards waiting for the person, by id. */
  private readonly pending = new Map<string, Card['kind']>();

  constructor(
    private readonly store: PanelStore,
    private readonly log: ConversationLog,
    /** Clock for a question's deadline (tests). */
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Opens the conversation with a new session (closing any earlier one): the channel its control protocol talks
   * through, until {@link close}.
   */
  open(watchers: ConversationWatchers = {}): MessageChannelLike {
    this.close();
    const session = new SessionChannel((message) => this.receive(message, session), watchers);
    this.session = session;
    return session;
  }

  /** Ends the session's conversation: every card still waiting is closed, and its channel takes no more messages. */
  close(): void {
    const session = this.session;
    if (!session) return;
    session.closed = true;
    session.handlers.clear();
    this.session = undefined;
    for (const [id, kind] of [...this.pending]) this.closeCard({ kind, id });
  }

  /**
   * Hands a person's decision on approval card `requestId` to the waiting request. False for a card nothing waits
   * for (a stale one, an answered one, a question's id, or no session running): its card, if any, is closed.
   */
  answerApproval(requestId: string, decision: ApprovalDecision): boolean {
    const card: Card = { kind: 'approval', id: requestId };
    if (!this.isWaiting(card)) return this.drop(card, `an approval answer for unknown or finished request ${requestId}`);
    this.log.info(`approval ${decision} for ${requestId} by ${PANEL_ANSWERER}`);
    return this.settle(card, { type: 'approval_response', id: requestId, decision, answeredBy: PANEL_ANSWERER });
  }

  /**
   * Hands the person's answer to question card `id` to the waiting role ("Let the agent decide": the person's own
   * answer, in words the role reads as one — a declined answer would tell it that no one is there). False, changing
   * nothing, for an empty answer; false for a card nothing waits for (its card, if any, is closed).
   */
  answerQuestion(id: string, answer: QuestionAnswer): boolean {
    const text = 'declined' in answer ? LET_THE_AGENT_DECIDE : answer.text.trim();
    if (text === '') {
      this.log.warn(`dropped an empty answer to question ${id}`);
      return false;
    }
    const card: Card = { kind: 'question', id };
    if (!this.isWaiting(card)) return this.drop(card, `an answer for unknown or finished question ${id}`);
    this.log.info(`question ${id} ${'declined' in answer ? 'left to the agent' : 'answered'} by ${PANEL_ANSWERER}`);
    return this.settle(card, { type: 'answer', id, text, answeredBy: PANEL_ANSWERER });
  }

  /** A message from the session's control protocol. */
  private receive(message: AgentToPersonMessage, session: SessionChannel): void {
    switch (message.type) {
      case 'approval_request':
        this.pending.set(message.id, 'approval');
        session.watchers.approvalRequested?.(message);
        this.store.dispatch({ type: 'approvalRequested', request: message });
        this.store.flush();
        this.log.info(`approval requested: ${message.tool} (${message.dangerLevel}) [${message.id}]`);
        return;
      case 'question': {
        const question = pendingPersonQuestion(message, this.now());
        this.pending.set(message.id, 'question');
        this.store.dispatch({ type: 'personQuestionAsked', question });
        this.store.flush();
        this.log.info(`question from ${question.asker ?? 'an agent'} [${message.id}]`);
        session.watchers.questionAsked?.(question);
        return;
      }
      case 'cancel': {
        const kind = this.pending.get(message.id) ?? 'approval';
        this.closeCard({ kind, id: message.id });
        this.log.info(`${kind === 'question' ? 'question' : 'approval request'} ${message.id} withdrawn (${message.reason})`);
        return;
      }
      case 'progress':
        this.log.info(`progress: ${message.message}`);
        return;
    }
  }

  private isWaiting(card: Card): boolean {
    return this.session !== undefined && this.pending.get(card.id) === card.kind;
  }

  /** The card is answered: closed, and the answer goes to the session by id. */
  private settle(card: Card, answer: PersonToAgentMessage): true {
    const handlers = [...(this.session?.handlers ?? [])];
    this.closeCard(card);
    for (const handler of handlers) handler(answer);
    return true;
  }

  /** An answer nothing waits for: logged, and a card still shown for it (nothing can take its answer) is closed. */
  private drop(card: Card, what: string): false {
    this.log.warn(`dropped ${what}`);
    if (!this.pending.has(card.id)) this.closeCard(card);
    return false;
  }

  /** The one place a card leaves the panel. */
  private closeCard(card: Card): void {
    if (this.pending.get(card.id) === card.kind) this.pending.delete(card.id);
    this.store.dispatch(
      card.kind === 'approval' ? { type: 'approvalClosed', requestId: card.id } : { type: 'personQuestionClosed', id: card.id },
    );
  }
}
