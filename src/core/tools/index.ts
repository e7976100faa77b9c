/** Tools: definitions, registry, specs for the model, approval policy and the executor. */
export * from './types';
export * from './errors';
export * from './registry';
export * from './toolSpecs';
export * from './approvalPolicy';
export * from './toolArguments';
export * from './toolCallWrapper';
export * from './resultMemory';
export * from './toolAudit';
export * from './executor';
export * from './builtin';
