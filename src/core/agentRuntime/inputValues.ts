import { AgentInputError } from './errors';

/** Deepest nesting of an input value that is accepted (a deeper one is refused, naming its path). */
export const MAX_INPUT_DEPTH = 64;

/** Objects that JSON turns into `{}` (or loses their content): refused rather than sent empty. */
const LOSSY_OBJECTS: ReadonlyArray<[new (...args: never[]) => object, string]> = [
  [Map, 'a Map'],
  [Set, 'a Set'],
  [WeakMap, 'a WeakMap'],
  [WeakSet, 'a WeakSet'],
  [Promise, 'a Promise (await it first)'],
  [RegExp, 'a RegExp'],
  [Error, 'an Error'],
];

/**
 * Checks that every input value can reach the model as JSON text, before any model call: strings, finite
 * numbers, booleans, null, arrays and objects of those (and objects with a `toJSON`, such as `Date`). A
 * function, symbol, BigInt, NaN or Infinity, a Map / Set / RegExp / Error / Promise (JSON would make it `{}`),
 * a circular reference or nesting deeper than {@link MAX_INPUT_DEPTH} is refused with {@link AgentInputError}
 * (VALIDATION) whose message starts with the input's path (`options.cb: ...`); `details.field` is that path
 * and `details.problems` lists every problem found. `undefined` values count as absent.
 */
export function checkInputValues(inputs: Record<string, unknown>): void {
  if (allPlainScalars(inputs)) return;
  const problems: InputProblem[] = [];
  const ancestors = new Set<object>();
  for (const key of Object.keys(inputs)) {
    const value = inputs[key];
    if (value !== undefined) visitInput(value, key, 1, ancestors, problems);
  }
  if (problems.length === 0) return;
  const lines = problems.map((p) => `${p.path}: ${p.problem}`);
  throw new AgentInputError(
    lines.length === 1 ? lines[0]! : `${lines[0]!} (and ${lines.length - 1} more: ${lines.slice(1).join('; ')})`,
    { field: problems[0]!.path, fields: problems.map((p) => p.path), problems: lines },
  );
}

/** True when every input is text, a boolean, a finite number or null (most inputs): nothing in them to refuse. */
function allPlainScalars(inputs: Record<string, unknown>): boolean {
  for (const key of Object.keys(inputs)) {
    const value = inputs[key];
    const kind = typeof value;
    if (kind === 'string' || kind === 'boolean' || kind === 'undefined' || value === null) continue;
    if (kind !== 'number' || !Number.isFinite(value)) return false;
  }
  return true;
}

interface InputProblem {
  path: string;
  problem: string;
}

/** Checks one value and what it holds (a module-level function: a closure per check costs more than the check). */
function visitInput(value: unknown, path: string, depth: number, ancestors: Set<object>, problems: InputProblem[]): void {
  if (problems.length >= 20) return;
  const problem = describeProblem(value, ancestors, depth);
  if (problem) {
    problems.push({ path, problem });
    return;
  }
  if (typeof value !== 'object' || value === null || typeof (value as { toJSON?: unknown }).toJSON === 'function') return;
  ancestors.add(value);
  if (Array.isArray(value)) value.forEach((item, i) => visitInput(item, `${path}[${i}]`, depth + 1, ancestors, problems));
  else
    for (const [key, item] of Object.entries(value))
      if (item !== undefined) visitInput(item, `${path}.${key}`, depth + 1, ancestors, problems);
  ancestors.delete(value);
}

function describeProblem(value: unknown, ancestors: ReadonlySet<object>, depth: number): string | undefined {
  switch (typeof value) {
    case 'function':
      return 'is a function, which cannot be sent to the model; pass its result instead';
    case 'symbol':
      return 'is a symbol, which cannot be sent to the model; pass a string';
    case 'bigint':
      return 'is a BigInt, which has no JSON form; pass it as a string or a number';
    case 'number':
      return Number.isFinite(value) ? undefined : `is ${String(value)}, which has no JSON form; pass a finite number`;
    case 'object': {
      if (value === null) return undefined;
      if (ancestors.has(value)) return 'refers back to itself (a circular reference); inputs must be plain JSON data';
      if (depth > MAX_INPUT_DEPTH) return `is nested more than ${MAX_INPUT_DEPTH} levels deep`;
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
      const lossy = LOSSY_OBJECTS.find(([kind]) => value instanceof kind);
      if (lossy) return `is ${lossy[1]}, which JSON would send as {}; pass a plain object, an array or a string`;
      return undefined;
    }
    default:
      return undefined;
  }
}
