/**
 * The agent core as a library: `import { QAAgent, createAgentRuntime } from 'tdd-agent/core'`.
 * Everything here runs on Node without VS Code (the extension and the CLI are built on the same exports).
 */
export * from './llm';
export * from './agent/baseAgent';
export * from './agent/runtime';
export * from './agent/signature';
export * from './agent/lifecycle';
export * from './agent/config';
export * from './agent/errors';
export * from './agent/events';
export * from './agent/agentRun';
export * from './agent/promptSource';
export * from './agent/configPromptSource';
export * from './agent/strategies/types';
export * from './agent/strategies/singleShot';
export * from './agent/strategies/multiCycle';
export * from './agent/strategies/conversationWindow';
export * from './agents/qaAgent';
export * from './agents/cotAgent';
export * from './agents/reactAgent';
export * from './agentConfig';
export * from './tools';
export * from './control';
export * from './mcp';
export * from './sandbox';
export * from './osSandbox';
export * from './replay';
export * from './testRunners';
export * from './errors/agentError';
export * from './security/redact';
export * from './logging/logger';
export * from './process/runProcess';
export * from './audit/auditTrail';
export * from './batch/runBatch';
export * from './metrics/performanceMetrics';
export * from './git/gitEnvironment';
export * from './tdd';
