import { COUNTED_JS_RUNNERS } from './parsers/countedJsRunners';
import { plainWord, shellWord, simpleCommandWords } from './reports/commandLine';
import { runnerCall, scriptFor } from './reports/reportCommand';

/** A test script split into the step that runs the tests and the checks around it (lint, format, type checks). */
export interface TestScriptSteps {
  /** The step that runs the test runner: what the session runs for its red and green. */
  tests: string;
  /** The other steps, in order: each one a linter, a formatter's check or a type check. */
  checks: string[];
}

/** Tools that only check: linters, formatters' checks, type tests. */
const CHECK_TOOLS = new Set([
  'eslint',
  'oxlint',
  'oxfmt',
  'xo',
  'standard',
  'prettier',
  'biome',
  'dprint',
  'tsd',
  'publint',
  'attw',
  'stylelint',
]);
/** Type checkers: a check only with `--noEmit` (without it they build). */
const TYPE_CHECKERS = new Set(['tsc', 'tsgo', 'vue-tsc']);
/** Script names of checks: `lint`, `lint:src`, `format:check`, `test:types`, `typecheck`, `check-types`. */
const CHECK_SCRIPT = /(?:^|[:_-])(?:lint|eslint|prettier|format|fmt|types|typecheck|tsc)(?:$|[:_-])|type-check|check-types/i;

function basename(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}

/** The package.json script a step calls (`pnpm lint`, `npm run lint`, `yarn run test:types`), when it names one. */
function calledScript(words: readonly string[], scripts: Readonly<Record<string, unknown>>): string | undefined {
  const [manager, verb, name] = words;
  if (manager !== 'npm' && manager !== 'pnpm' && manager !== 'yarn' && manager !== 'bun') return undefined;
  const script = verb === 'run' || verb === 'run-script' ? name : manager === 'pnpm' || manager === 'yarn' ? verb : undefined;
  if (words.length > (script === verb ? 2 : 3)) return undefined;
  return script !== undefined && typeof scripts[script] === 'string' ? script : undefined;
}

/** True when one step of a test script only checks the code: a lint, format or type-check tool or script. */
function isCheck(step: string, scripts: Readonly<Record<string, unknown>>): boolean {
  const raw = simpleCommandWords(step);
  const words = raw?.map((w) => plainWord(w));
  if (!words || words.some((w) => w === undefined)) return false;
  const plain = words as string[];
  const script = calledScript(plain, scripts);
  if (script) return CHECK_SCRIPT.test(script);
  const at = plain[0] === 'npx' ? 1 : 0;
  const tool = basename(plain[at] ?? '');
  if (CHECK_TOOLS.has(tool))
    return tool !== 'prettier' || ['--check', '-c', '--list-different', '-l'].some((flag) => plain.includes(flag));
  return TYPE_CHECKERS.has(tool) && plain.includes('--noEmit');
}

/**
 * True when a step starts one of the runners read by their counts (`COUNTED_JS_RUNNERS`) itself: `ava`,
 * `npx ava --serial`, `node_modules/.bin/uvu`.
 */
function countedRunnerStep(step: string): boolean {
  const words = simpleCommandWords(step)?.map((w) => plainWord(w));
  const at = words?.[0] === 'npx' ? 1 : 0;
  return COUNTED_JS_RUNNERS.has(basename(words?.[at] ?? ''));
}

/**
 * True when a step runs a test runner: directly (`vitest run`, `pnpm vitest run`, `ava`), or through a script that
 * does.
 */
function runsTests(step: string, scripts: Readonly<Record<string, unknown>>): boolean {
  if (runnerCall(step) || countedRunnerStep(step)) return true;
  const script = scriptFor(step, scripts);
  return script !== undefined && runnerCall(script) !== undefined;
}

/** The name pattern pnpm runs the scripts of (`^test:.*` between slashes): a literal prefix or name only, never slow. */
const SCRIPT_NAME_PATTERN = /^\/(\^?)([\w:.-]+)(\.\*|\.\+)?(\$?)\/$/;

/**
 * pnpm's `pnpm run` of a name pattern between slashes (zustand's `^test:.*`, also jotai's and valtio's): the scripts whose names match, each one a
 * `pnpm run <name>` step, in package.json's order. Undefined for any other command.
 */
function matchedScripts(script: string, scripts: Readonly<Record<string, unknown>>): string[] | undefined {
  const words = simpleCommandWords(script)?.map((w) => plainWord(w));
  if (words?.length !== 3 || words[0] !== 'pnpm' || words[1] !== 'run') return undefined;
  const m = SCRIPT_NAME_PATTERN.exec(words[2] ?? '');
  if (!m) return undefined;
  const [, start, name, rest, end] = m;
  const literal = name!.replace(/\./g, '\\.');
  const pattern = new RegExp(`${start}${literal}${rest === '.+' ? '.+' : ''}${end}`);
  const names = Object.keys(scripts).filter((n) => typeof scripts[n] === 'string' && pattern.test(n));
  return names.length > 0 ? names.map((n) => `pnpm run ${shellWord(n)}`) : undefined;
}

/**
 * A test script that chains checks and one test runner with `&&` (unjs' `pnpm lint && pnpm test:types && pnpm vitest
 * run`, `tsc --noEmit && jest`, `jest && tsd`), split into the runner's step and the checks. Undefined for anything
 * else: one command, a chain with a step that is neither (a build the tests may need), or more than one runner.
 */
export function splitTestScript(script: string, scripts: Readonly<Record<string, unknown>> = {}): TestScriptSteps | undefined {
  const matched = matchedScripts(script, scripts);
  if (!matched && !script.includes('&&')) return undefined;
  const steps = matched ?? script.split('&&').map((s) => s.trim());
  if (steps.some((s) => !simpleCommandWords(s))) return undefined;
  const runners = steps.filter((s) => runsTests(s, scripts));
  if (runners.length !== 1) return undefined;
  const checks = steps.filter((s) => s !== runners[0]);
  if (checks.length === 0 || !checks.every((s) => isCheck(s, scripts))) return undefined;
  return { tests: runners[0]!, checks };
}

/**
 * The runner a pnpm or yarn step reaches through a package script of its own (`pnpm run test:spec`, `yarn test:unit`,
 * whose script is `vitest run`): that script's command, with the runner launched as `launchedRunner` does.
 */
function scriptRunner(command: string, scripts: Readonly<Record<string, unknown>>, depth: number): string | undefined {
  if (depth > 3) return undefined; // `"vitest": "pnpm vitest"` calls itself
  const words = simpleCommandWords(command)?.map((w) => plainWord(w));
  if (!words || words.some((w) => w === undefined) || (words[0] !== 'pnpm' && words[0] !== 'yarn')) return undefined;
  const name = calledScript(words as string[], scripts);
  const text = name === undefined ? undefined : (scripts[name] as string).trim();
  if (!text || !runnerCall(text)) return undefined;
  const resolved = launchedRunner(text, scripts, depth + 1) ?? text;
  const first = plainWord(simpleCommandWords(resolved)?.[0] ?? '');
  return first === 'pnpm' || first === 'yarn' ? undefined : resolved;
}

/**
 * The package's own jest, vitest or mocha that a script launches through pnpm or yarn (`yarn jest`, `pnpm vitest run`,
 * `pnpm exec mocha`), as the runner's own command line (`jest`, `vitest run`, `mocha`): with the project's
 * `node_modules/.bin` on PATH it runs the same binary, and no package manager has to start inside the sandbox (one
 * that corepack provides would try to download itself there, with no network and HOME hidden). Undefined for any
 * other command, or when package.json has a script of the runner's name (then the manager runs that script).
 */
export function launchedRunner(command: string, scripts: Readonly<Record<string, unknown>> = {}, depth = 0): string | undefined {
  const viaScript = scriptRunner(command, scripts, depth);
  if (viaScript) return viaScript;
  const call = runnerCall(command);
  const words = simpleCommandWords(command);
  if (!call || !words) return undefined;
  const at = call.argsAt - 1; // the runner's own word
  const launcher = words.slice(0, at).findIndex((w) => ['pnpm', 'yarn'].includes(plainWord(w) ?? ''));
  if (launcher < 0) return undefined;
  const runner = plainWord(words[at]!)!;
  if (typeof scripts[runner] === 'string') return undefined;
  return [...words.slice(0, launcher), ...words.slice(at)].join(' ');
}

/**
 * What a session runs for a package.json test script: the runner's step of a script that chains checks with it (the
 * checks returned apart, see {@link splitTestScript}), launched as the runner itself where pnpm or yarn would start it
 * (see {@link launchedRunner}). `tests` is the step as the script writes it; `command` is what runs.
 */
export function testScriptCommand(
  script: string,
  scripts: Readonly<Record<string, unknown>> = {},
): { tests: string; command: string; checks: string[] } {
  const trimmed = script.trim();
  const steps = splitTestScript(trimmed, scripts);
  const tests = steps?.tests ?? trimmed;
  return { tests, command: launchedRunner(tests, scripts) ?? tests, checks: steps?.checks ?? [] };
}
