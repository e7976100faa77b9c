/**
 * The agent core as a library: `import { QAAgent, createAgentRuntime } from 'tdd-agent/core'`.
 * Everything here runs on Node without VS Code (the extension and the CLI are built on the same exports).
 */
export * from './llm';
export * from './agentRuntime/baseAgent';
export * from './agentRuntime/runtime';
export * from './agentRuntime/signature';
export * from './agentRuntime/lifecycle';
export * from './agentRuntime/config';
export * from './agentRuntime/errors';
export * from './agentRuntime/events';
export * from './agentRuntime/agentRun';
export * from './agentRuntime/promptSource';
export * from './agentRuntime/configPromptSource';
export * from './agentRuntime/strategies/types';
export * from './agentRuntime/strategies/singleShot';
export * from './agentRuntime/strategies/multiCycle';
export * from './agentRuntime/strategies/conversationWindow';
export * from './agentRuntime/strategies/toolLoop';
export * from './builtinAgents/qaAgent';
export * from './builtinAgents/cotAgent';
export * from './builtinAgents/reactAgent';
export * from './agentsAsData';
export * from './tools';
export * from './control';
export * from './mcp';
export * from './sandbox';
export * from './osSandbox';
export * from './replay';
export * from './testRunners';
export * from './project';
export * from './errors/agentError';
export * from './security/redact';
export * from './logging/logger';
export * from './process/runProcess';
export * from './audit/auditTrail';
export * from './batch/runBatch';
export * from './metrics/performanceMetrics';
export * from './git/gitEnvironment';
export * from './tdd';
