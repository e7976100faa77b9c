import type { AgentToPersonMessage } from './messages';
import type { ControlTransport } from './transport';

/** Anything `onMessage` may return to stop listening: a function or a VS Code-style Disposable. */
export type Unsubscribe =
  | (() => void)
  | {
      /** Stops delivering messages (VS Code's Disposable shape). */
      dispose(): void;
    }
  | void;

/** The two functions a message channel offers (a webview, a MessagePort, a worker, a socket). */
export interface MessageChannelLike {
  /** Posts one message to the person side; may return a promise (VS Code's `postMessage` returns a Thenable). */
  send(message: AgentToPersonMessage): unknown;
  /** Registers a handler for messages from the person side. */
  onMessage(handler: (message: unknown) => void): Unsubscribe;
}

/**
 * Adapts any `send(msg)` / `onMessage(cb)` channel to a ControlTransport. The extension host
 * plugs the webview panel in here (`webview.postMessage`, `webview.onDidReceiveMessage`);
 * incoming messages stay `unknown` and are validated by the ControlProtocol.
 */
export class PortTransport implements ControlTransport {
  private readonly disposers: Array<() => void> = [];

  constructor(private readonly channel: MessageChannelLike) {}

  /** Posts a message; a rejected or `false` post (VS Code: panel hidden/disposed) rejects. */
  async send(message: AgentToPersonMessage): Promise<void> {
    const delivered = await this.channel.send(message);
    if (delivered === false) throw new Error('the message channel did not accept the message (panel closed?)');
  }

  /** Subscribes to the channel. */
  onMessage(handler: (message: unknown) => void): () => void {
    const dispose = toDisposer(this.channel.onMessage(handler));
    let done = false;
    const off = (): void => {
      if (done) return;
      done = true;
      const index = this.disposers.indexOf(off);
      if (index >= 0) this.disposers.splice(index, 1);
      dispose();
    };
    this.disposers.push(off);
    return off;
  }

  /** Stops listening: the channel's handlers this transport added are removed, so a closed panel delivers nothing more. */
  close(): void {
    for (const off of [...this.disposers]) off();
  }
}

function toDisposer(unsubscribe: Unsubscribe): () => void {
  if (typeof unsubscribe === 'function') return unsubscribe;
  if (unsubscribe && typeof unsubscribe.dispose === 'function') return () => unsubscribe.dispose();
  return () => undefined;
}
