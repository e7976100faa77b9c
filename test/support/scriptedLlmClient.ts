import {
  createScriptedLlmClient as createPublicScriptedLlmClient,
  type ScriptedLlmClient as PublicScriptedLlmClient,
} from '../../src/core/replay/scriptedLlmClient';
import type { LlmClient } from '../../src/core/llm/types';
import type { RecordedRequest, ScriptedReply } from './openaiServer';

/**
 * The scripted model of `tdd-agent/testing` (src/core/replay/scriptedLlmClient.ts), typed with the loopback
 * server's scripts (`scriptedKataModel(...).reply`, `{ text }`, `{ toolCalls }`, `{ json }`, `{ fencedJson }`,
 * `{ hang }`): an in-process `LlmClient`, without HTTP. For tests of the supervisor's logic (what a role is told,
 * what is committed, reverted or retried), where the wire format is not the subject: it saves a socket, a JSON
 * round trip and the SDK per model turn. Wire faults (HTTP errors, resets, cut streams, huge bodies) stay with
 * `startOpenAIServer()`, as do the `llm/` layer, the CLI, the examples and the end-to-end tests; given one, the
 * client throws.
 *
 * Every call is recorded as the request body `createOpenAIClient` would send, so assertions written against
 * `server.chatRequests()` read the same fields.
 */
export interface ScriptedLlmClient extends LlmClient {
  /** Every call in order, shaped as the loopback server records a `POST /v1/chat/completions`. */
  requests: RecordedRequest[];
  /** Only the chat calls (all of `requests` but the `checkModel` look-ups). */
  chatRequests(): RecordedRequest[];
  /** Queues replies (FIFO, each used once). */
  enqueue(...replies: ScriptedReply[]): void;
  /** Reply used when the queue is empty; `undefined` restores the default (a thrown "no scripted reply"). */
  setFallback(reply: ScriptedReply | undefined): void;
  /** Model ids `checkModel` accepts (mutable; empty: any). */
  models: string[];
}

/** Creates the client; `models` are what the preflight (`checkModel`) accepts (default `test-model`). */
export function createScriptedLlmClient(options: { models?: string[] } = {}): ScriptedLlmClient {
  // The same object: the loopback server's script types are a superset of the public ones, and the client refuses
  // the wire-level kinds at the call that meets them.
  const client: PublicScriptedLlmClient = createPublicScriptedLlmClient(options);
  return client as unknown as ScriptedLlmClient;
}
