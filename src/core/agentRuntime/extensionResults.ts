import { AgentError } from '../errors/agentError';
import { describeValue } from './errors';

/** The extension points whose return value becomes the output fields. */
export type OutputExtensionPoint = 'parseResult' | 'postExecute';

/**
 * What `parseResult` / `postExecute` returned, as output fields (000 SS-2: "if dict, return as-is; else wrap in
 * `{'result': str(result)}`"): an object as it is; a string as `{ result: text }`; a number, boolean, BigInt,
 * `null` or array as `{ result: <its JSON text> }`. Nothing (`undefined`, a forgotten `return`), a function or
 * a symbol is a CONFIG AgentError naming the extension point.
 */
export function outputFields(point: OutputExtensionPoint, value: unknown): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  if (typeof value === 'string') return { result: value };
  if (typeof value === 'bigint') return { result: String(value) };
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return { result: JSON.stringify(value) };
  if (Array.isArray(value)) {
    let text: string | undefined;
    try {
      text = JSON.stringify(value);
    } catch {
      text = undefined;
    }
    if (text !== undefined) return { result: text };
  }
  const what = value === undefined ? 'returned nothing (undefined)' : `returned ${describeValue(value)}, which has no JSON form`;
  throw new AgentError('CONFIG', `${point}: ${what}; return an object of output fields, or a value to keep as { result }.`, {
    extensionPoint: point,
  });
}

/** What `preExecute` returned, when it is an object of inputs; anything else is a CONFIG AgentError naming it. */
export function preparedInputs(value: unknown): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new AgentError('CONFIG', `preExecute: must return an object of inputs, got ${describeValue(value)}.`, {
    extensionPoint: 'preExecute',
  });
}
