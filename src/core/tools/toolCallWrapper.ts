import type { ToolCallResult, ToolCallWrapper } from './types';

/**
 * Composes `wrapToolCall` functions into one, the first outermost (the lifecycle rule:
 * registration order, first registered wraps the rest). Undefined entries are skipped.
 */
export function composeToolCallWrappers(...wrappers: Array<ToolCallWrapper | undefined>): ToolCallWrapper | undefined {
  const chain = wrappers.filter((w): w is ToolCallWrapper => typeof w === 'function');
  if (chain.length === 0) return undefined;
  return (toolName, next, params) => {
    const call = (index: number): Promise<ToolCallResult> =>
      index === chain.length ? next() : chain[index]!(toolName, () => call(index + 1), params);
    return call(0);
  };
}
