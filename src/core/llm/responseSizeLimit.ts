/**
 * A cap on the bytes read from the model server per response, so a server (or anything between us and it)
 * that sends an endless or enormous body cannot fill this process's memory.
 */

/** Default of `maxResponseBytes`: 8 MB per response, far above any real chat completion. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** The fetch signature the `openai` SDK takes as its `fetch` option. */
export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * Raised inside the response body when it grows past the limit (or announces a larger content-length);
 * the client turns it into an LlmError with code RESPONSE_TOO_LARGE.
 */
export class ResponseTooLargeError extends Error {
  constructor(
    /** The limit in bytes. */
    readonly limitBytes: number,
    /** Bytes received (or announced by content-length) when the limit was hit. */
    readonly receivedBytes: number,
  ) {
    super(`response body exceeded ${limitBytes} bytes`);
    this.name = 'ResponseTooLargeError';
  }
}

/** The ResponseTooLargeError somewhere in `error`'s cause chain (the SDK may wrap it), if any. */
export function findResponseTooLarge(error: unknown): ResponseTooLargeError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof ResponseTooLargeError) return current;
    current = typeof current === 'object' ? (current as { cause?: unknown }).cause : undefined;
  }
  return undefined;
}

/** `bytes` as a person reads it: `8 MB`, `512 KB`, `1000 bytes`. */
export function formatByteSize(bytes: number): string {
  const units: Array<[number, string]> = [
    [1024 * 1024, 'MB'],
    [1024, 'KB'],
  ];
  for (const [size, unit] of units) {
    if (bytes >= size) {
      const value = bytes / size;
      return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
    }
  }
  return `${bytes} bytes`;
}

/**
 * Wraps `fetchImpl` so every response body it returns is read through a counter: a content-length above
 * `maxBytes`, or more than `maxBytes` bytes actually received (after any decompression), errors the body
 * with a {@link ResponseTooLargeError} and closes the connection (the underlying body is cancelled, which aborts the
 * request), so nothing more is read. Bodies within the limit pass through chunk by chunk, which
 * keeps SSE streaming incremental; an uncompressed body whose content-length is within the limit is returned as is.
 */
export function limitResponseBytes(fetchImpl: FetchFunction, maxBytes: number): FetchFunction {
  return async (input, init) => {
    // No signal of our own: cancelling the body (below) is what ends the request, as fetch aborts a request whose
    // body is cancelled. An AbortController and AbortSignal.any per call were the wrapper's largest cost.
    const response = await fetchImpl(input, init);
    if (!response.body) return response;
    const announced = Number(response.headers.get('content-length') ?? Number.NaN);
    // An uncompressed body with a content-length within the limit cannot grow past it (HTTP framing ends it
    // there), so it needs no counter: most chat completions take this path, and a web stream per response
    // was most of the client's own cost.
    const encoding = response.headers.get('content-encoding');
    if (Number.isFinite(announced) && announced <= maxBytes && (!encoding || encoding === 'identity')) return response;
    return withBoundedBody(response, {
      maxBytes,
      announcedBytes: announced,
      refusal: (bytes) => new ResponseTooLargeError(maxBytes, bytes),
    });
  };
}

/** How {@link withBoundedBody} reads a body. */
export interface BodyBound<E extends Error> {
  maxBytes: number;
  /** The size a content-length announces (NaN or undefined: none); past `maxBytes` the body is refused before reading. */
  announcedBytes?: number;
  /**
   * Takes each chunk and returns the size to hold against `maxBytes`, e.g. of the current message of a stream.
   * Default: the bytes received so far.
   */
  measure?: (chunk: Uint8Array) => number;
  /** The error the body fails with, for a size past the bound. */
  refusal(bytes: number): E;
  /** Told after the body has failed with `error` and the underlying body was cancelled. */
  onRefused?(error: E): void;
}

/**
 * `response` with its body read through a bound: chunks pass through one by one (an event stream stays incremental)
 * until `measure` says a size past `maxBytes`; then the body errors with `refusal(size)` and the underlying body is
 * cancelled, which ends the request, so nothing more is read. Used for the model server's responses and for MCP
 * servers over HTTP.
 */
export function withBoundedBody<E extends Error>(response: Response, bound: BodyBound<E>): Response {
  const source = response.body!.getReader();
  let received = 0;
  const measure = bound.measure ?? ((chunk: Uint8Array) => (received += chunk.byteLength));
  const refuse = (controller: ReadableStreamDefaultController<Uint8Array>, bytes: number): void => {
    const error = bound.refusal(bytes);
    controller.error(error);
    source.cancel(error).catch(() => undefined);
    bound.onRefused?.(error);
  };
  const announced = bound.announcedBytes ?? Number.NaN;
  const limited = new ReadableStream<Uint8Array>({
    start(controller) {
      if (Number.isFinite(announced) && announced > bound.maxBytes) refuse(controller, announced);
    },
    async pull(controller) {
      const { done, value } = await source.read();
      if (done) {
        controller.close();
        return;
      }
      const size = measure(value);
      if (size > bound.maxBytes) refuse(controller, size);
      else controller.enqueue(value);
    },
    cancel(reason) {
      return source.cancel(reason);
    },
  });
  const wrapped = new Response(limited, { status: response.status, statusText: response.statusText, headers: response.headers });
  Object.defineProperty(wrapped, 'url', { value: response.url });
  return wrapped;
}
