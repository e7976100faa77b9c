import { createOpenAIClient } from '../../../src/core/llm';
import type { LlmClient } from '../../../src/core/llm/types';
import { setLogSink, type LogRecord } from '../../../src/core/logging/logger';
import { startOpenAIServer, type OpenAITestServer } from '../../support/openaiServer';

/** A loopback OpenAI server, a real SDK client pointed at it (no retries) and the log records of the file. */
export interface LoopbackContext {
  readonly server: OpenAITestServer;
  readonly llm: LlmClient;
  readonly logs: LogRecord[];
}

/**
 * Registers mocha `before`/`after` hooks that start the server and client and capture log records (instead
 * of printing them) for the enclosing `describe`; the returned object is usable inside tests.
 */
export function useLoopback(options: { apiKey?: string; timeoutMs?: number } = {}): LoopbackContext {
  let server: OpenAITestServer | undefined;
  let llm: LlmClient | undefined;
  const logs: LogRecord[] = [];
  let restore: (() => void) | undefined;
  before(async () => {
    const previous = setLogSink((r) => logs.push(r));
    restore = () => setLogSink(previous);
    server = await startOpenAIServer();
    llm = createOpenAIClient({
      baseURL: server.baseURL,
      apiKey: options.apiKey,
      maxRetries: 0,
      timeoutMs: options.timeoutMs ?? 5000,
    });
  });
  after(async () => {
    restore?.();
    await server?.close();
  });
  return {
    get server() {
      return server!;
    },
    get llm() {
      return llm!;
    },
    logs,
  };
}

/** The system message text of a recorded chat request. */
export function systemText(body: { messages: Array<{ role: string; content: unknown }> }): string {
  const m = body.messages.find((x) => x.role === 'system');
  return typeof m?.content === 'string' ? m.content : '';
}
