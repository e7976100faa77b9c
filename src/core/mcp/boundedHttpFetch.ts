import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { withBoundedBody } from '../llm/responseSizeLimit';

/** Why an MCP HTTP server's response was cut: one JSON response, or one server-sent event, past the bound. */
export class HttpMessageLimitError extends Error {
  constructor(
    /** A whole JSON (or other) response body, or one event of an event stream. */
    readonly kind: 'response' | 'event',
    /** The bound in bytes. */
    readonly limitBytes: number,
  ) {
    super(
      kind === 'response' ? `response body longer than ${limitBytes} bytes` : `server-sent event longer than ${limitBytes} bytes`,
    );
    this.name = 'HttpMessageLimitError';
  }
}

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);
const LF = 0x0a;
const CR = 0x0d;

/**
 * The bytes of an event stream since its last event ended. An event ends at an empty line; a line ends at CRLF, LF
 * or CR (the server-sent events format), and a CRLF may be split across two chunks.
 */
class EventSizeCounter {
  private sinceEvent = 0;
  private atLineStart = true;
  private lastWasCR = false;

  /** Counts `chunk`; returns the largest pending event size seen in it. */
  add(chunk: Uint8Array): number {
    let largest = this.sinceEvent;
    for (const byte of chunk) {
      if (byte === LF && this.lastWasCR) {
        this.lastWasCR = false;
        continue;
      }
      this.lastWasCR = byte === CR;
      if (byte === LF || byte === CR) {
        if (this.atLineStart) this.sinceEvent = 0;
        else this.atLineStart = true;
        continue;
      }
      this.atLineStart = false;
      this.sinceEvent++;
      if (this.sinceEvent > largest) largest = this.sinceEvent;
    }
    return largest;
  }
}

/**
 * The fetch an MCP streamable-HTTP client uses, with every response read through a bound: a JSON response (any body
 * that is not an event stream) may be at most `maxMessageBytes` long, and so may each event of an event stream,
 * which may itself run for the whole session (the server's notification stream). Past the bound the body errors
 * with an {@link HttpMessageLimitError}, the connection is closed (the body is cancelled) and `onLimit` is told,
 * so the caller can fail the session at once rather than wait for a request's timeout. This is the HTTP side of
 * the bound the stdio transport puts on one line (see boundedStdioTransport.ts).
 */
export function boundedMessageFetch(
  maxMessageBytes: number,
  onLimit: (error: HttpMessageLimitError) => void,
  fetchImpl: FetchLike = (url, init) => fetch(url, init),
): FetchLike {
  return async (url, init) => {
    const response = await fetchImpl(url, init);
    // A status that cannot carry a body (a notification's 204, say) has nothing to bound.
    if (!response.body || NULL_BODY_STATUS.has(response.status)) return response;
    const eventStream = (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
    if (!eventStream)
      return withBoundedBody(response, {
        maxBytes: maxMessageBytes,
        announcedBytes: Number(response.headers.get('content-length') ?? Number.NaN),
        refusal: () => new HttpMessageLimitError('response', maxMessageBytes),
        onRefused: onLimit,
      });
    // An event stream may run all session: only its events are bounded, so its length says nothing.
    const events = new EventSizeCounter();
    return withBoundedBody(response, {
      maxBytes: maxMessageBytes,
      measure: (chunk) => events.add(chunk),
      refusal: () => new HttpMessageLimitError('event', maxMessageBytes),
      onRefused: onLimit,
    });
  };
}
