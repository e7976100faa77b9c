/**
 * `tdd-agent/core`, the agent framework as a library: `import { QAAgent, createAgentRuntime } from 'tdd-agent/core'`.
 * The LLM client, agents (`BaseAgent`, signatures, lifecycle hooks, execution strategies, agents defined as data),
 * tools with their registry, executor and approval policy, the control protocol, MCP servers as tool sources, the OS
 * sandbox, typed errors, logging, redaction, batches, the audit trail and performance metrics. Everything here runs
 * on Node without VS Code.
 *
 * Every name is exported on purpose, one by one: the list is the public API, recorded in `api/core.api.md` and
 * explained in docs/api-core.md. The TDD session API is `tdd-agent/tdd` (src/core/tddApi.ts), the test fakes are
 * `tdd-agent/testing` (src/core/testingApi.ts). The rest of src/core is internal: the CLI and the extension import
 * only these three entry points, as any program does (a lint rule in eslint.config.mjs holds them to it).
 * @packageDocumentation
 * @module tdd-agent/core
 */

// The LLM client
export {
  createLlmClient,
  createOpenAIClient,
  isLlmError,
  isOfficialOpenAI,
  LlmError,
  resolveProvider,
  servedModels,
  type ChatMessage,
  type FinishReason,
  type JsonSchemaResponseFormat,
  type LlmCallOptions,
  type LlmClient,
  type LlmClientOptions,
  type LlmErrorCode,
  type LlmErrorDetails,
  type LlmResult,
  type LlmToolCall,
  type OpenAIClientOptions,
  type ProviderName,
  type ProviderSettings,
  type ResolvedProvider,
  type ResolveProviderOptions,
  type ResponseFormat,
  type RetryPolicy,
  type ServedModels,
  type TokenUsage,
  type ToolSpec,
} from './llm';

// Agents: the base class, the runtime that makes them, signatures, configs and errors
export { BaseAgent } from './agentRuntime/baseAgent';
export { type BaseAgentOptions } from './agentRuntime/agentOptions';
export { DEFAULT_PERFORMANCE_TARGETS } from './agentRuntime/agentPerformanceTargets';
export { type AgentResult, type ExecuteOptions, type ExecutionMetadata } from './agentRuntime/agentResult';
export { type AgentToolCallOptions, type ToolDiscoveryOptions } from './agentRuntime/agentTools';
export { createAgentRuntime, type AgentRuntime, type AgentRuntimeOptions } from './agentRuntime/runtime';
export {
  createSignature,
  type CompiledSignature,
  type Signature,
  type SignatureDefinition,
  type SignatureField,
} from './agentRuntime/signature';
export {
  BaseAgentConfigSchema,
  STRATEGY_NAMES,
  type AgentConfigExtensions,
  type BaseAgentConfig,
  type BaseAgentConfigInput,
  type StrategyName,
} from './agentRuntime/config';
export {
  AgentInputError,
  AgentSettingsError,
  HookError,
  HookRejectedError,
  OutputValidationError,
  SignatureError,
  type InvalidHookValue,
} from './agentRuntime/errors';
export type { AgentRun, AgentRunDeps, ModelCallOptions } from './agentRuntime/agentRun';
export type { AgentEvent, AgentEventListener, TerminationReason } from './agentRuntime/events';
export type { OutputCheck, PreparedPrompt, PromptSource } from './agentRuntime/promptSource';
export type { AgentConfigRef, AgentPromptLike, AgentPromptLoader } from './agentRuntime/configPromptSource';

// Lifecycle hooks
export { HOOK_POINTS, HookAction, type AgentLifecycle, type MaybePromise } from './agentRuntime/lifecycle';
export type { HookRunner } from './agentRuntime/hookRunner';

// Execution strategies
export type {
  ActionRecord,
  CycleHandlers,
  CycleLimits,
  CycleRunState,
  CycleStep,
  ExecutionStrategy,
  StrategyHost,
  StrategyResult,
} from './agentRuntime/strategies/types';
export { SingleShotStrategy } from './agentRuntime/strategies/singleShot';
export { MultiCycleStrategy, type MultiCycleOptions } from './agentRuntime/strategies/multiCycle';
export { createToolLoopCycles, type ToolLoopLimits } from './agentRuntime/strategies/toolLoop';
export type { ConversationWindowOptions } from './agentRuntime/strategies/conversationWindow';

// The built-in agents
export { QAAgent, type QAOutput } from './builtinAgents/qaAgent';
export { CoTAgent, cotSteps, type CoTOutput } from './builtinAgents/cotAgent';
export { ReActAgent, type ReActAgentOptions, type ReActOutput } from './builtinAgents/reactAgent';

// Agents defined as data (JSON configs)
export {
  AGENT_MODES,
  AgentConfigError,
  AgentConfigSchema,
  AgentFactory,
  AgentPromptValidationError,
  jsonSchemaOutputValidator,
  listAgentConfigs,
  OUTPUT_SCHEMA_TYPES,
  UnknownAgentConfigError,
  zodOutputValidator,
  type AgentConfig,
  type AgentPrompt,
  type CheckedAgentConfig,
  type ComposedPrompt,
  type InputPayload,
  type AgentFactoryOptions,
  type AgentMode,
  type OutputSchemaNode,
  type OutputSchemaType,
  type OutputValidator,
} from './agentsAsData';
export type { EnumValue } from './agentsAsData/outputSchema';

// Tools: definitions, the registry, the executor and its approval policy, the built-in tools
export {
  APPROVAL_RULES,
  APPROVAL_OUTCOMES,
  ApprovalPolicy,
  approvalPolicyConfigSchema,
  BuiltinToolError,
  createBuiltinTools,
  createWorkspaceTools,
  DANGER_LEVELS,
  dangerRank,
  DEFAULT_LEVEL_RULES,
  defineTool,
  editedText,
  ToolCallError,
  ToolExecutor,
  ToolRegistrationError,
  ToolRegistry,
  TOOL_CATEGORIES,
  unifiedDiff,
  type AgentToolbox,
  type ApprovalOutcome,
  type ApprovalPolicyConfig,
  type ApprovalRule,
  type ApprovalVerdict,
  type BuiltinToolsOptions,
  type DangerLevel,
  type EscalationRecord,
  type AskPerson,
  type ExecuteCallOptions,
  type ExecuteToolOptions,
  type HttpRequestOptions,
  type RegisteredTool,
  type RememberedToolCall,
  type RunCommandOptions,
  type ToolAuditRecord,
  type ToolAuditSink,
  type ToolCallPreview,
  type ToolCallResult,
  type ToolCallWrapper,
  type ToolCategory,
  type ToolChainResult,
  type ToolChainStep,
  type ToolContext,
  type ToolDefinition,
  type ToolDiscoveryQuery,
  type ToolExecutorOptions,
  type ToolOutput,
  type ToolPreview,
  type ToolPreviewContext,
  type ToolPreviewResult,
} from './tools';

// The control protocol: approvals, questions and progress between an agent and a person
export {
  agentToPersonMessageSchema,
  answerSchema,
  APPROVAL_DECISIONS,
  approvalRequestSchema,
  approvalResponseSchema,
  cancelSchema,
  controlMessageSchema,
  ControlProtocol,
  InMemoryTransport,
  personToAgentMessageSchema,
  PortTransport,
  progressSchema,
  questionSchema,
  TerminalTransport,
  toolCallPreviewSchema,
  userInputSchema,
  type AgentToPersonMessage,
  type AnswerMessage,
  type ApprovalAnswer,
  type ApprovalDecision,
  type ApprovalRequestInput,
  type ApprovalRequestMessage,
  type ApprovalResponseMessage,
  type CancelMessage,
  type ControlMessage,
  type ControlProtocolOptions,
  type ControlTransport,
  type InMemoryTransportOptions,
  type MessageChannelLike,
  type PersonToAgentMessage,
  type ProgressMessage,
  type QuestionAnswer,
  type QuestionMessage,
  type TerminalTransportOptions,
  type ToolCallPreviewMessage,
  type Unsubscribe,
  type UserInputMessage,
} from './control';

// MCP servers as tool sources
export {
  mcpHttpServerConfigSchema,
  McpHub,
  mcpServerConfigSchema,
  McpServerError,
  mcpStdioServerConfigSchema,
  McpToolError,
  type McpConnectionState,
  type McpServerConnection,
  type McpServerConnectionOptions,
  type McpToolInfo,
  type McpCallResult,
  type McpHttpServerConfig,
  type McpHubOptions,
  type McpServerConfig,
  type McpServerStatus,
  type McpStdioServerConfig,
} from './mcp';

// The workspace boundary of file tools, and the OS sandbox of processes
export {
  resolveWorkspacePath,
  SandboxViolationError,
  type HostResolver,
  type PathAccess,
  type WorkspaceAccess,
  type WorkspacePath,
} from './workspaceSandbox';
export {
  createProcessSandbox,
  describeDiagnosis,
  findBubblewrap,
  isSandboxMode,
  openProjectView,
  probeSandbox,
  processLimitMechanism,
  SANDBOX_MODES,
  type LaunchEnd,
  type ModulesMount,
  type ProjectView,
  type ProjectViewNamespace,
  type ProjectViewSpec,
  type ProcessLaunch,
  type ProcessLimitMechanism,
  type ProcessSandbox,
  type SandboxDiagnosis,
  type SandboxFailureKind,
  type SandboxKind,
  type SandboxLimits,
  type SandboxLocator,
  type SandboxMode,
  type SandboxPolicy,
  type SandboxProbe,
  type WrappedLaunch,
} from './osSandbox';
export { runProcess, type RunProcessOptions, type RunProcessResult } from './process/runProcess';
// Git as the product runs it on a person's repository, and files a person names (a flag's file, a config file)
export { GitCommandError, productGit, type GitRun, type ProductGitOptions } from './hostGit/gitClient';
export {
  NAMED_FILE_MAX_BYTES,
  NamedFileError,
  readNamedText,
  type NamedFileOptions,
  type NamedFileProblem,
  type SpecialFileKind,
} from './namedFiles/readNamedFile';
// The test runner interface (the `run_tests` tool takes one; `tdd-agent/tdd` has the runners)
export { RUNNER_KINDS } from './testRunners';
export type {
  RunnerKind,
  TestCaseOutcome,
  TestCaseResult,
  TestErrorKind,
  TestRunner,
  TestRunOptions,
  TestRunResult,
  TestRunScope,
  TestRunStatus,
  TestSubset,
} from './testRunners';

// Errors, logging, redaction
export { AgentError, ERROR_CODES, isAgentError, toAgentError, type ErrorCode, type ErrorInfo } from './errors/agentError';
export { redactSecrets, redactValue, registerSecret } from './security/redact';
export { escapeTerminalText } from './security/terminalText';
export { getLogger, setLogLevel, setLogSink, type Logger, type LogLevel, type LogRecord, type LogSink } from './logging/logger';

// Batches, the audit trail, performance metrics
export { runBatch, type BatchItemResult, type BatchMetadata, type BatchOptions, type BatchResult } from './batch/runBatch';
export { AuditTrail, type AuditRecord } from './audit/auditTrail';
export {
  PerformanceMetrics,
  type ExecutionSample,
  type MetricsSnapshot,
  type PerformanceTargets,
  type TimingSummary,
} from './metrics/performanceMetrics';
