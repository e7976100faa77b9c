/**
 * The LLM client layer: one call signature over any OpenAI-compatible server, typed
 * errors, retries, and provider detection.
 */
export * from './types';
export { createOpenAIClient, isOfficialOpenAI, safeBaseURL, type OpenAIClientOptions } from './openaiClient';
export { LlmError, isLlmError, type LlmErrorCode, type LlmErrorDetails } from './llmError';
export { DEFAULT_MAX_RESPONSE_BYTES } from './responseSizeLimit';
export { DEFAULT_RETRY_POLICY, computeRetryDelay, parseRetryAfter, isRetryableStatus, type RetryPolicy } from './retryPolicy';
export {
  resolveProvider,
  createLlmClient,
  clearProviderDetectionCache,
  normalizeOllamaHost,
  probeOllama,
  type OllamaProbe,
  HOW_TO_CONFIGURE,
  type ProviderSettings,
  type ResolvedProvider,
  type ResolveProviderOptions,
  type LlmClientOptions,
} from './providerDetection';
export { servedModels, type ServedModels } from './servedModels';
export { readToolCallsFromText, withToolCallsFromText, type TextToolCalls } from './textToolCalls';
