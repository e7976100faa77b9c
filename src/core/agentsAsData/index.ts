/**
 * Agents defined as data: `config/agents/{agent_name}/{version}.json` → `AgentFactory.create(...)` →
 * `AgentPrompt.compose()` for the model call and `AgentPrompt.parseAndValidate()` for its reply.
 */
export { AgentFactory, type AgentFactoryOptions } from './agentFactory';
export { AgentPrompt, type ComposedPrompt } from './agentPrompt';
export { AGENTS_DIR_ENV, agentConfigPath, listAgentConfigs, resolveConfigRoot } from './configRoot';
export { checkAgentConfig, type CheckedAgentConfig, type ConfigOrigin } from './configValidation';
export { AgentConfigError, AgentPromptValidationError, UnknownAgentConfigError } from './errors';
export { isToolPattern, toolEntryProblem, toolNameMatcher, TOOL_PATTERN_WILDCARD } from './toolPatterns';
export { payloadLines, rawBlock, readRawBlock, type InputPayload } from './inputPayload';
export {
  checkOutputSchema,
  toStrictSchema,
  validateOutput,
  OUTPUT_SCHEMA_TYPES,
  type OutputSchemaNode,
  type OutputSchemaType,
} from './outputSchema';
export { CLOSING_SENTENCE, JSON_ONLY_INSTRUCTION, MODE_INSTRUCTIONS, REPORT_INSTRUCTION } from './promptComposer';
export {
  AGENT_MODES,
  AGENT_NAME_PATTERN,
  AGENT_VERSION_PATTERN,
  AgentConfigSchema,
  INPUT_KEY_PATTERN,
  type AgentConfig,
  type AgentMode,
} from './schema';
export { zodOutputValidator, jsonSchemaOutputValidator, type OutputValidator, type OutputCheck } from './outputValidator';
