import type { AgentToPersonMessage } from './messages';

/**
 * How the agent side talks to whoever answers (terminal, panel, test). The agent side sends
 * typed messages; whatever comes back is `unknown` until the ControlProtocol has validated it,
 * so a transport never needs to trust its peer.
 */
export interface ControlTransport {
  /** Delivers one message to the person side. May throw or reject when the peer is gone. */
  send(message: AgentToPersonMessage): void | Promise<void>;
  /** Subscribes to messages from the person side; returns an unsubscribe function. */
  onMessage(handler: (message: unknown) => void): () => void;
  /** Releases resources (stream listeners, ports). */
  close?(): void;
}

/** A tiny typed multi-listener list shared by the transports, the protocol, the tool executor's events and MCP connections. */
export class Listeners<T> {
  private readonly handlers = new Set<(value: T) => void>();

  /** Adds a handler; returns a function that removes it. */
  add(handler: (value: T) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /** Calls every handler; a throwing handler does not stop the others. Returns the errors thrown. */
  emit(value: T): unknown[] {
    const errors: unknown[] = [];
    for (const handler of [...this.handlers]) {
      try {
        handler(value);
      } catch (error) {
        errors.push(error);
      }
    }
    return errors;
  }

  /** Number of handlers. */
  get size(): number {
    return this.handlers.size;
  }

  /** Removes every handler. */
  clear(): void {
    this.handlers.clear();
  }
}
