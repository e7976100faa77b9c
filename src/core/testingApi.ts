/**
 * `tdd-agent/testing`, fakes for your own tests: `import { createScriptedLlmClient } from 'tdd-agent/testing'`.
 * A scripted model client (answers queued reply by reply, every request recorded), and record-and-replay of a real
 * model's conversation (cassettes). Both are `LlmClient`s: hand them to an agent or to `runKataSession` as `llm`.
 * An in-memory transport for the control protocol is `InMemoryTransport` in `tdd-agent/core`.
 *
 * Every name is exported on purpose, one by one: the list is the public API, recorded in `api/testing.api.md` and
 * explained in docs/api-testing.md.
 * @packageDocumentation
 * @module tdd-agent/testing
 */
export {
  createScriptedLlmClient,
  type ScriptedLlmClient,
  type ScriptedLlmClientOptions,
  type ScriptedReply,
  type ScriptedRequest,
  type ScriptedToolCall,
  type ScriptedUsage,
} from './replay/scriptedLlmClient';
export {
  CASSETTE_MAX_BYTES,
  CassetteSchema,
  parseCassette,
  readCassette,
  RecordingLlmClient,
  ReplayLlmClient,
  writeCassette,
  type Cassette,
} from './replay';
// The model client's types of tdd-agent/core that these clients implement, again here as types.
export type {
  ChatMessage,
  FinishReason,
  JsonSchemaResponseFormat,
  LlmCallOptions,
  LlmClient,
  LlmResult,
  LlmToolCall,
  ProviderName,
  ResponseFormat,
  TokenUsage,
  ToolSpec,
} from './index';
