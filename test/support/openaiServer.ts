import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A real OpenAI-compatible HTTP server on loopback (127.0.0.1, random port) that tests
 * script reply by reply. It speaks the wire format the `openai` SDK expects
 * (`chat.completion`, SSE `chat.completion.chunk` + `data: [DONE]`, error bodies),
 * plays Ollama for provider detection (`/api/tags`, `/api/version`) and injects faults
 * (errors with retry-after headers, hangs, resets, cut streams, malformed JSON).
 *
 * Streaming splits text into word-sized deltas (`"hello big world"` → `"hello "`, `"big "`,
 * `"world"`), which is what `cutStreamAfter` counts.
 */

/** One request as the server received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or the raw string if the body was not JSON, or undefined when empty. */
  body: any;
  /** True once the client went away before the answer was complete (e.g. it aborted a hanging or paused request). */
  aborted?: boolean;
}

// Token counts a reply may force, and a scripted tool call: the same shapes as the in-process scripted client's.
import type { ScriptedToolCall, ScriptedUsage } from '../../src/core/replay/scriptedLlmClient';
export type { ScriptedToolCall, ScriptedUsage };

/** What the server does with one chat-completions request. */
export type ScriptedReply =
  /**
   * `pauseAfter`: streamed, the first `words` word deltas go out, then the stream waits for `until` before the rest
   * (the client sees a partial answer meanwhile); not streamed, the answer waits for `until`.
   */
  | {
      text: string;
      finishReason?: 'stop' | 'length';
      usage?: ScriptedUsage;
      model?: string;
      pauseAfter?: { words: number; until: Promise<unknown> };
    }
  /** `finishReason: 'length'`: the model ran out of output tokens while writing the (last) call. */
  | {
      toolCalls: ScriptedToolCall[];
      text?: string;
      finishReason?: 'tool_calls' | 'length';
      usage?: ScriptedUsage;
      model?: string;
    }
  | { json: unknown; usage?: ScriptedUsage; model?: string }
  | { fencedJson: unknown; usage?: ScriptedUsage; model?: string }
  | { error: { status: number; type?: string; code?: string; message?: string; headers?: Record<string, string> } }
  | { hang: true }
  | { reset: true }
  /**
   * Streamed: N word deltas, then (`then`, default 'end') the response ends without a finish
   * reason or [DONE], the server stops sending ('hang'), or the socket is reset ('reset').
   * Not streamed: the JSON body ends half-way.
   */
  | { cutStreamAfter: number; text: string; then?: 'end' | 'hang' | 'reset' }
  | { malformed: string }
  /**
   * A 200 answer of about `bytes` bytes written in 64 KB pieces as the socket drains, so it never sits in
   * memory whole: streamed, an SSE stream of 64 KB text deltas; otherwise one chat.completion whose content
   * is that long. `contentLength` announces the full size in a content-length header (non-streamed only).
   * `onEnd` gets the bytes handed to the socket and whether the whole body went out (false: the client
   * closed the connection first).
   */
  | { hugeBody: HugeBody }
  | ((req: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>);

/** See the `hugeBody` reply. */
export interface HugeBody {
  bytes: number;
  contentLength?: boolean;
  onEnd?: (info: { bytesWritten: number; complete: boolean }) => void;
}

/** Handle on a running test server. */
export interface OpenAITestServer {
  /** `http://127.0.0.1:PORT` (no trailing slash): the Ollama host. */
  url: string;
  /** `url + '/v1'`: the OpenAI-compatible base URL. */
  baseURL: string;
  /** Every request in arrival order. */
  requests: RecordedRequest[];
  /** Only `POST /v1/chat/completions`. */
  chatRequests(): RecordedRequest[];
  /** Queues replies (FIFO, each used once) for chat-completions requests. */
  enqueue(...replies: ScriptedReply[]): void;
  /** Reply used when the queue is empty; `undefined` restores the default 500 "no scripted reply". */
  setFallback(reply: ScriptedReply | undefined): void;
  /** Model ids served by `GET /v1/models` and Ollama's `GET /api/tags` (mutable). */
  models: string[];
  /** When false, `/api/tags` and `/api/version` answer 404 (mutable). */
  ollama: boolean;
  /** Stops the server, cutting hanging requests and open connections. */
  close(): Promise<void>;
}

type StaticReply = Exclude<ScriptedReply, (req: RecordedRequest) => unknown>;

const DEFAULT_FALLBACK: StaticReply = { error: { status: 500, type: 'server_error', message: 'no scripted reply' } };

const DEFAULT_ERROR_TYPE: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_request_error',
  403: 'invalid_request_error',
  404: 'invalid_request_error',
  408: 'timeout',
  409: 'conflict',
  429: 'rate_limit_exceeded',
};

/** Starts a server on 127.0.0.1 with a random port. */
export async function startOpenAIServer(options: { models?: string[]; ollama?: boolean } = {}): Promise<OpenAITestServer> {
  const queue: ScriptedReply[] = [];
  let fallback: ScriptedReply = DEFAULT_FALLBACK;
  const sockets = new Set<Socket>();
  let counter = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any;
      if (raw.length > 0) {
        try {
          body = JSON.parse(raw);
        } catch {
          body = raw;
        }
      }
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: (req.url ?? '/').split('?')[0]!,
        headers: { ...req.headers },
        body,
      };
      handle.requests.push(recorded);
      res.on('close', () => {
        if (!res.writableFinished) recorded.aborted = true;
      });
      route(recorded, req, res).catch((err: unknown) => {
        if (!res.headersSent)
          sendJson(res, 500, { error: { message: `test server failure: ${String(err)}`, type: 'server_error' } });
        else res.destroy();
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function route(rec: RecordedRequest, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const { method, path } = rec;
    if (method === 'POST' && path === '/v1/chat/completions') {
      const next = queue.length > 0 ? queue.shift()! : fallback;
      const reply = await resolveReply(next, rec);
      return answerChat(reply, rec, req, res);
    }
    if (method === 'GET' && path === '/v1/models') {
      return sendJson(res, 200, {
        object: 'list',
        data: handle.models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'test' })),
      });
    }
    if (method === 'GET' && (path === '/api/tags' || path === '/api/version')) {
      if (!handle.ollama) return sendJson(res, 404, { error: 'not found' });
      if (path === '/api/version') return sendJson(res, 200, { version: '0.6.0' });
      return sendJson(res, 200, {
        models: handle.models.map((name) => ({
          name,
          model: name,
          modified_at: '2025-01-01T00:00:00Z',
          size: 1_000_000,
          digest: 'sha256:test',
          details: { format: 'gguf', family: 'test', parameter_size: '1B', quantization_level: 'Q4_0' },
        })),
      });
    }
    if (method === 'GET' && path === '/' && handle.ollama) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('Ollama is running');
      return;
    }
    sendJson(res, 404, {
      error: { message: `Unknown route ${method} ${path}`, type: 'invalid_request_error', code: 'unknown_url' },
    });
  }

  async function answerChat(
    reply: StaticReply,
    rec: RecordedRequest,
    req: http.IncomingMessage,
    res: http.ServerResponse,
  ): Promise<void> {
    const body = (rec.body && typeof rec.body === 'object' ? rec.body : {}) as Record<string, any>;
    const stream = body.stream === true;
    const includeUsage = stream && body.stream_options?.include_usage === true;
    const requestModel = typeof body.model === 'string' ? body.model : 'unknown-model';

    if ('hang' in reply) return; // never answer; close() destroys the socket
    if ('reset' in reply) {
      resetSocket(req.socket);
      return;
    }
    if ('error' in reply) {
      const { status, type, code, message, headers } = reply.error;
      return sendJson(
        res,
        status,
        {
          error: {
            message: message ?? `scripted error ${status}`,
            type: type ?? DEFAULT_ERROR_TYPE[status] ?? 'server_error',
            param: null,
            code: code ?? null,
          },
        },
        headers,
      );
    }
    if ('malformed' in reply) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(reply.malformed);
      return;
    }

    const id = `chatcmpl-test${++counter}`;
    const created = Math.floor(Date.now() / 1000);

    if ('hugeBody' in reply) {
      void writeHugeBody(res, reply.hugeBody, stream, id, created, requestModel);
      return;
    }

    if ('cutStreamAfter' in reply) {
      const pieces = splitWords(reply.text);
      if (stream) {
        startSse(res);
        sse(res, chunk(id, created, requestModel, { role: 'assistant', content: '' }, null, includeUsage));
        for (const piece of pieces.slice(0, reply.cutStreamAfter)) {
          sse(res, chunk(id, created, requestModel, { content: piece }, null, includeUsage));
        }
        if (reply.then === 'hang') return; // close() destroys the socket
        if (reply.then === 'reset') {
          // Let the chunks reach the client first, then drop the connection mid-body.
          res.write('', () => setTimeout(() => req.socket.destroy(), 20));
          return;
        }
        res.end(); // no finish_reason, no [DONE]
        return;
      }
      const full = JSON.stringify(completion(id, created, requestModel, reply.text, [], 'stop', estimateUsage(body, reply.text)));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(full.slice(0, Math.max(1, Math.floor(full.length / 2))));
      return;
    }

    const model = reply.model ?? requestModel;
    let text: string | null;
    let toolCalls: Array<{ id: string; name: string; arguments: string }> = [];
    let finish: 'stop' | 'length' | 'tool_calls' = 'stop';
    let pause: { words: number; until: Promise<unknown> } | undefined;
    if ('toolCalls' in reply) {
      text = reply.text ?? null;
      toolCalls = reply.toolCalls.map((t) => ({
        id: t.id ?? `call_${++counter}`,
        name: t.name,
        arguments: typeof t.arguments === 'string' ? t.arguments : JSON.stringify(t.arguments),
      }));
      finish = reply.finishReason ?? 'tool_calls';
    } else if ('json' in reply) {
      text = JSON.stringify(reply.json);
    } else if ('fencedJson' in reply) {
      text = '```json\n' + JSON.stringify(reply.fencedJson, null, 2) + '\n```';
    } else {
      text = reply.text;
      finish = reply.finishReason ?? 'stop';
      pause = reply.pauseAfter;
    }
    const usage = reply.usage
      ? { ...reply.usage, total_tokens: reply.usage.prompt_tokens + reply.usage.completion_tokens }
      : estimateUsage(body, (text ?? '') + toolCalls.map((t) => t.name + t.arguments).join(''));

    if (!stream) {
      if (pause) await pause.until;
      return sendJson(res, 200, completion(id, created, model, text, toolCalls, finish, usage));
    }
    startSse(res);
    sse(res, chunk(id, created, model, { role: 'assistant', content: text === null ? null : '' }, null, includeUsage));
    const pieces = splitWords(text ?? '');
    for (const [index, piece] of pieces.entries()) {
      if (pause && index === pause.words) {
        await pause.until;
        if (res.destroyed) return;
      }
      sse(res, chunk(id, created, model, { content: piece }, null, includeUsage));
    }
    toolCalls.forEach((call, index) => {
      sse(
        res,
        chunk(
          id,
          created,
          model,
          { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] },
          null,
          includeUsage,
        ),
      );
      for (const fragment of splitFragments(call.arguments)) {
        sse(res, chunk(id, created, model, { tool_calls: [{ index, function: { arguments: fragment } }] }, null, includeUsage));
      }
    });
    sse(res, chunk(id, created, model, {}, finish, includeUsage));
    if (includeUsage) {
      sse(res, { id, object: 'chat.completion.chunk', created, model, choices: [], usage });
    }
    res.write('data: [DONE]\n\n');
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  let closed: Promise<void> | undefined;

  const handle: OpenAITestServer = {
    url,
    baseURL: `${url}/v1`,
    requests: [],
    chatRequests: () => handle.requests.filter((r) => r.method === 'POST' && r.path === '/v1/chat/completions'),
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    setFallback: (reply) => {
      fallback = reply ?? DEFAULT_FALLBACK;
    },
    models: [...(options.models ?? ['test-model'])],
    ollama: options.ollama ?? true,
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
      return closed;
    },
  };
  return handle;
}

const HUGE_PIECE = 64 * 1024;

/** Writes a `hugeBody` reply piece by piece, waiting for the socket to drain; stops when the client goes away. */
async function writeHugeBody(
  res: http.ServerResponse,
  huge: HugeBody,
  stream: boolean,
  id: string,
  created: number,
  model: string,
): Promise<void> {
  const filler = 'a'.repeat(HUGE_PIECE);
  const head = stream
    ? `data: ${JSON.stringify(chunk(id, created, model, { role: 'assistant', content: '' }, null, false))}\n\n`
    : `{"id":"${id}","object":"chat.completion","created":${created},"model":${JSON.stringify(model)},"choices":[{"index":0,"message":{"role":"assistant","content":"`;
  const piece = stream ? `data: ${JSON.stringify(chunk(id, created, model, { content: filler }, null, false))}\n\n` : filler;
  const tail = stream
    ? `data: ${JSON.stringify(chunk(id, created, model, {}, 'stop', false))}\n\ndata: [DONE]\n\n`
    : `"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`;
  const pieces = Math.max(1, Math.ceil((huge.bytes - head.length - tail.length) / piece.length));
  let closed = false;
  let wake: (() => void) | undefined;
  res.on('close', () => {
    closed = true;
    wake?.();
  });
  if (stream) startSse(res);
  else {
    const headers: Record<string, string | number> = { 'content-type': 'application/json' };
    if (huge.contentLength) headers['content-length'] = head.length + pieces * piece.length + tail.length;
    res.writeHead(200, headers);
  }
  let bytesWritten = 0;
  const write = async (text: string): Promise<void> => {
    bytesWritten += Buffer.byteLength(text);
    if (res.write(text) || closed) return;
    await new Promise<void>((resolve) => {
      wake = resolve;
      res.once('drain', resolve);
    });
    res.off('drain', wake!);
    wake = undefined;
  };
  await write(head);
  for (let i = 0; i < pieces && !closed; i++) await write(piece);
  const complete = !closed;
  if (complete) res.end(tail);
  if (complete) bytesWritten += tail.length;
  huge.onEnd?.({ bytesWritten, complete });
}

async function resolveReply(reply: ScriptedReply, rec: RecordedRequest): Promise<StaticReply> {
  let current: ScriptedReply = reply;
  for (let depth = 0; typeof current === 'function'; depth++) {
    if (depth > 10) throw new Error('scripted reply functions nested too deeply');
    current = await current(rec);
  }
  return current;
}

/** Drops the connection (TCP RST where the platform allows it) without an HTTP response. */
function resetSocket(socket: Socket): void {
  const s = socket as Socket & { resetAndDestroy?: () => void };
  if (typeof s.resetAndDestroy === 'function') s.resetAndDestroy();
  else s.destroy();
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function startSse(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
}

function sse(res: http.ServerResponse, payload: unknown): void {
  res.write(`data: ${JSON.stringify(payload)}\n\n`);
}

function chunk(
  id: string,
  created: number,
  model: string,
  delta: Record<string, unknown>,
  finishReason: string | null,
  includeUsage: boolean,
): Record<string, unknown> {
  return {
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    system_fingerprint: 'fp_test',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage ? { usage: null } : {}),
  };
}

function completion(
  id: string,
  created: number,
  model: string,
  text: string | null,
  toolCalls: Array<{ id: string; name: string; arguments: string }>,
  finish: string,
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number },
): Record<string, unknown> {
  return {
    id,
    object: 'chat.completion',
    created,
    model,
    system_fingerprint: 'fp_test',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text,
          refusal: null,
          ...(toolCalls.length > 0
            ? {
                tool_calls: toolCalls.map((t) => ({
                  id: t.id,
                  type: 'function',
                  function: { name: t.name, arguments: t.arguments },
                })),
              }
            : {}),
        },
        logprobs: null,
        finish_reason: finish,
      },
    ],
    usage,
  };
}

/** Rough token estimate (4 characters per token) so usage is never zero for real content. */
function estimateUsage(
  body: Record<string, any>,
  output: string,
): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
  const prompt = JSON.stringify(body.messages ?? '').length;
  const prompt_tokens = Math.max(1, Math.ceil(prompt / 4));
  const completion_tokens = Math.ceil(output.length / 4);
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

/** Word-sized deltas, whitespace kept with the preceding word. */
function splitWords(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** Splits a tool-call argument string into up to three fragments. */
function splitFragments(args: string): string[] {
  if (args.length < 3) return args.length > 0 ? [args] : [];
  const size = Math.ceil(args.length / 3);
  const out: string[] = [];
  for (let i = 0; i < args.length; i += size) out.push(args.slice(i, i + size));
  return out;
}
