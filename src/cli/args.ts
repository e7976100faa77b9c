import { parseArgs, type ParseArgsConfig } from 'node:util';
import { DANGER_LEVELS, type DangerLevel } from '../core';
import { UsageError } from './cliIo';

/** Flags every command that talks to a model accepts. */
export const PROVIDER_OPTIONS = {
  provider: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'ollama-host': { type: 'string' },
  cassette: { type: 'string' },
  record: { type: 'string' },
  timeout: { type: 'string' },
  json: { type: 'boolean', default: false },
  verbose: { type: 'boolean', short: 'v', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsConfig['options'];

/**
 * Parses a command's flags; unknown flags and bad values are usage errors (exit 2), never crashes. A negative
 * number after a flag that takes a value is that value (`--timeout -5` is `--timeout=-5`), so the flag's own
 * check says what is wrong with it.
 */
export function parseCommandArgs<O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O) {
  try {
    return parseArgs({ args: joinNegativeValues(argv, options), options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]!);
  }
}

/** `-5`, `-0.5`, `-.5`, `-1e3`: what parseArgs would otherwise read as a group of short options. */
const NEGATIVE_NUMBER = /^-\.?\d/;

/** `--flag -5` (or its short form `-f -5`) → `--flag=-5` for a flag that takes a value; everything else unchanged. */
function joinNegativeValues(argv: readonly string[], options: NonNullable<ParseArgsConfig['options']>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return [...out, ...argv.slice(i)];
    const name =
      /^--([^=]+)$/.exec(arg)?.[1] ??
      Object.keys(options).find((key) => options[key]!.short !== undefined && arg === `-${options[key]!.short}`);
    const next = argv[i + 1];
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      out.push(`--${name}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** A positive integer flag, or undefined when absent. */
export function intFlag(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--${name} must be a positive whole number, got '${value}'.`);
  return n;
}

/** `--lines A-B` → [A, B] (1-based, inclusive). */
export function lineRange(value: string | undefined): [number, number] | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+)(?:-(\d+))?$/.exec(value.trim());
  if (!m) throw new UsageError(`--lines takes A-B (e.g. 10-25), got '${value}'.`);
  const a = Number(m[1]);
  const b = m[2] === undefined ? a : Number(m[2]);
  if (a < 1 || b < a) throw new UsageError(`--lines ${value}: the range must start at 1 or later and not run backwards.`);
  return [a, b];
}

/** `--yes` approves up to MEDIUM; `--yes=HIGH` up to HIGH. Absent: ask. */
export function approveUpTo(value: string | boolean | undefined): DangerLevel | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true || value === '') return 'MEDIUM';
  const level = String(value).toUpperCase();
  if (!(DANGER_LEVELS as readonly string[]).includes(level))
    throw new UsageError(`--yes takes one of ${DANGER_LEVELS.join(', ')}, got '${value}'.`);
  return level as DangerLevel;
}

/** Pulls `--yes` / `--yes=LEVEL` out of argv (parseArgs cannot have an optional value). */
export function extractYes(argv: string[]): { argv: string[]; yes: string | boolean | undefined } {
  let yes: string | boolean | undefined;
  const rest = argv.filter((arg) => {
    if (arg === '--yes' || arg === '-y') {
      yes = true;
      return false;
    }
    if (arg.startsWith('--yes=')) {
      yes = arg.slice('--yes='.length);
      return false;
    }
    return true;
  });
  return { argv: rest, yes };
}
