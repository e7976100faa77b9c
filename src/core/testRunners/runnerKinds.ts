import { cargoTestCounts } from './parsers/cargoTestOutput';
import { parseGoTestOutput } from './parsers/goTestOutput';
import { parseJestOutput } from './parsers/jestOutput';
import { parseMochaOutput } from './parsers/mochaOutput';
import { parseNodeTestOutput } from './parsers/nodeTestOutput';
import { parsePhpunitOutput } from './parsers/phpunitOutput';
import { parsePytestOutput } from './parsers/pytestOutput';
import { parseRspecOutput } from './parsers/rspecOutput';
import { parseSurefireOutput } from './parsers/surefireOutput';
import type { TestOutputParser } from './parsers/testCounts';
import { parseMinitestOutput } from './parsers/minitestOutput';
import { parseUnittestOutput } from './parsers/unittestOutput';
import { parseVitestOutput } from './parsers/vitestOutput';
import { COUNTED_JS_PARSERS } from './parsers/countedJsRunners';

/** The test runners whose output we can read; `custom` is any other command (all parsers are tried). */
export const RUNNER_KINDS = [
  'node-test',
  'mocha',
  'jest',
  'vitest',
  'pytest',
  'go-test',
  'cargo-test',
  'maven',
  'phpunit',
  'rspec',
  'minitest',
  'custom',
] as const;
/** One of RUNNER_KINDS. */
export type RunnerKind = (typeof RUNNER_KINDS)[number];

const PARSERS: Record<Exclude<RunnerKind, 'custom'>, TestOutputParser> = {
  'node-test': parseNodeTestOutput,
  mocha: parseMochaOutput,
  jest: parseJestOutput,
  vitest: parseVitestOutput,
  pytest: parsePytestOutput,
  'go-test': parseGoTestOutput,
  'cargo-test': cargoTestCounts,
  maven: parseSurefireOutput,
  phpunit: parsePhpunitOutput,
  rspec: parseRspecOutput,
  minitest: parseMinitestOutput,
};

/**
 * The output parser of a runner; for `custom`, the first parser that finds a summary wins (the runners' own, then
 * `python -m unittest`'s, which is only ever a custom command, then those of the JavaScript runners read by their
 * counts only: AVA, uvu, Jasmine, node-tap).
 */
export function parserFor(kind: RunnerKind): TestOutputParser {
  if (kind !== 'custom') return PARSERS[kind];
  return (output) => {
    for (const parse of [...Object.values(PARSERS), parseUnittestOutput, ...COUNTED_JS_PARSERS]) {
      const counts = parse(output);
      if (counts) return counts;
    }
    return undefined;
  };
}

/**
 * Names the runner behind a test command line (a package.json script or a kata's test_command).
 * When the command hides the runner (e.g. `npm run unit`), the devDependencies decide.
 */
export function identifyRunner(command: string, devDependencies: Record<string, unknown> = {}): RunnerKind {
  if (/\b(node|tsx)\b[^&|;]*\s--test\b/.test(command)) return 'node-test';
  if (/\bvitest\b/.test(command)) return 'vitest';
  if (/\bjest\b/.test(command)) return 'jest';
  if (/\bmocha\b/.test(command)) return 'mocha';
  if (/\bpytest\b/.test(command)) return 'pytest';
  if (/(?:^|[\s;&|/])go\s+test\b/.test(command)) return 'go-test';
  if (/(?:^|[\s;&|/])cargo\s+(?:\+\S+\s+)?test\b/.test(command)) return 'cargo-test';
  if (/(?:^|[\s;&|/])(?:mvn|mvnw)\b/.test(command)) return 'maven';
  if (/(?:^|[\s;&|/])rspec\b/.test(command)) return 'rspec';
  if (/(?:^|[\s;&|/])phpunit\b/.test(command)) return 'phpunit';
  if (minitestCommand(command)) return 'minitest';
  for (const kind of ['vitest', 'jest', 'mocha'] as const) if (kind in devDependencies) return kind;
  return 'custom';
}

/**
 * A minitest run: `rake test` (`bundle exec rake test`, `rake test:units`), `rails test`, or ruby with the tests'
 * folder on its load path (`ruby -Ilib -Itest …`, what a project without a Rakefile runs).
 */
export function minitestCommand(command: string): boolean {
  return (
    /(?:^|[\s;&|/])(?:rake|rails)\s+test(?::\S+)?(?:\s|$)/.test(command) ||
    /(?:^|[\s;&|/])ruby(?:\d[\d.]*)?\s(?:[^;&|]*\s)?-I\s?(?:\S*[:/])?test\b/.test(command)
  );
}
