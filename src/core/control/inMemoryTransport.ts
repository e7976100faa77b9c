import { randomUUID } from 'node:crypto';
import type { AgentToPersonMessage, ApprovalDecision } from './messages';
import { Listeners, type ControlTransport } from './transport';

/** Options of an InMemoryTransport. */
export interface InMemoryTransportOptions {
  /** Called for every message the agent side sends, with the transport to answer through. */
  responder?: (message: AgentToPersonMessage, transport: InMemoryTransport) => void;
}

/**
 * Both ends of a control channel in one process: the agent side uses it as a ControlTransport,
 * the person side (a test, or the extension host relaying to the panel) watches `sent` /
 * `onAgentMessage` and answers with `approve`, `deny`, `always`, `answer`, `sendUserInput` or
 * `reply` (any raw value, validated by the protocol). Delivery to the person side is
 * asynchronous, like a real channel.
 */
export class InMemoryTransport implements ControlTransport {
  /** Every message the agent side sent, in order. */
  readonly sent: AgentToPersonMessage[] = [];
  /** When true, `send` throws as if the peer were gone. */
  offline = false;
  private readonly toPerson = new Listeners<AgentToPersonMessage>();
  private readonly toAgent = new Listeners<unknown>();

  constructor(options: InMemoryTransportOptions = {}) {
    const responder = options.responder;
    if (responder) this.toPerson.add((message) => responder(message, this));
  }

  /** Agent side: delivers a message to the person side (asynchronously). */
  send(message: AgentToPersonMessage): void {
    if (this.offline) throw new Error('the in-memory peer is offline');
    this.sent.push(message);
    queueMicrotask(() => this.toPerson.emit(message));
  }

  /** Agent side: subscribes to what the person side sends. */
  onMessage(handler: (message: unknown) => void): () => void {
    return this.toAgent.add(handler);
  }

  /** Person side: subscribes to what the agent side sends. */
  onAgentMessage(handler: (message: AgentToPersonMessage) => void): () => void {
    return this.toPerson.add(handler);
  }

  /** Person side: resolves with the next agent message of this type (or any type). */
  nextMessage<T extends AgentToPersonMessage['type']>(type?: T): Promise<Extract<AgentToPersonMessage, { type: T }>> {
    return new Promise((resolve) => {
      const off = this.toPerson.add((message) => {
        if (type && message.type !== type) return;
        off();
        resolve(message as Extract<AgentToPersonMessage, { type: T }>);
      });
    });
  }

  /** Person side: sends any raw value to the agent side (the protocol validates it). */
  reply(message: unknown): void {
    this.toAgent.emit(message);
  }

  /** Person side: answers an approval request. */
  decide(id: string, decision: ApprovalDecision, answeredBy = 'test', reason?: string): void {
    this.reply({ type: 'approval_response', id, decision, answeredBy, ...(reason ? { reason } : {}) });
  }

  /** Person side: approves once. */
  approve(id: string, answeredBy = 'test'): void {
    this.decide(id, 'approve', answeredBy);
  }

  /** Person side: denies, optionally saying why. */
  deny(id: string, reason?: string, answeredBy = 'test'): void {
    this.decide(id, 'deny', answeredBy, reason);
  }

  /** Person side: always allows this tool for the session. */
  always(id: string, answeredBy = 'test'): void {
    this.decide(id, 'always', answeredBy);
  }

  /** Person side: answers a question. */
  answer(id: string, text: string, answeredBy = 'test'): void {
    this.reply({ type: 'answer', id, text, answeredBy });
  }

  /** Person side: sends free text to the running agent. */
  sendUserInput(text: string): void {
    this.reply({ type: 'user_input', id: randomUUID(), text });
  }

  /** Drops every listener. */
  close(): void {
    this.toPerson.clear();
    this.toAgent.clear();
  }
}
