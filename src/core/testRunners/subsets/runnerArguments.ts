import { NODE_VALUE_OPTIONS, plainWord } from '../reports/commandLine';
import type { ReportingKind } from '../reports/reportCommand';

/**
 * Which of a runner's arguments name the tests to run (files, folders, globs, patterns), told apart from its options
 * and their values, so that a subset of the suite can take their place.
 */

/** Options whose value is the next word, per runner (the `--name=value` form is one word and needs no entry). */
const VALUE_OPTIONS: Readonly<Record<ReportingKind, ReadonlySet<string>>> = {
  'node-test': NODE_VALUE_OPTIONS,
  mocha: new Set([
    ...['--require', '-r', '--ui', '-u', '--timeout', '-t', '--slow', '-s', '--grep', '-g', '--fgrep', '-f'],
    ...['--extension', '--file', '--ignore', '--exclude', '--config', '--package', '--reporter', '-R'],
    ...['--reporter-option', '--reporter-options', '-O', '--jobs', '-j', '--retries', '--node-option', '-n'],
    ...['--watch-files', '--watch-ignore'],
  ]),
  jest: new Set([
    ...['--config', '-c', '--testPathPattern', '--testPathPatterns', '--testNamePattern', '-t', '--selectProjects'],
    ...['--ignoreProjects', '--maxWorkers', '-w', '--coverageDirectory', '--coverageProvider', '--rootDir'],
    ...['--testTimeout', '--shard', '--env', '--testEnvironment', '--outputFile', '--seed', '--testRunner'],
    ...['--testSequencer', '--maxConcurrency', '--changedSince', '--globalSetup', '--globalTeardown'],
    ...['--testPathIgnorePatterns', '--testRegex', '--preset', '--resolver', '--cacheDirectory', '--workerIdleMemoryLimit'],
  ]),
  vitest: new Set([
    ...['--config', '-c', '--root', '-r', '--dir', '--project', '--environment', '--pool', '--reporter'],
    ...['--outputFile', '--testNamePattern', '-t', '--shard', '--maxWorkers', '--minWorkers', '--mode'],
    ...['--exclude', '--testTimeout', '--hookTimeout', '--retry', '--maxConcurrency', '--bail'],
  ]),
  pytest: new Set([
    ...['-k', '-m', '-p', '-o', '--override-ini', '-c', '--config-file', '--rootdir', '--junitxml', '--junit-xml'],
    ...['--maxfail', '-W', '--pythonwarnings', '--tb', '--basetemp', '--deselect', '--ignore', '--ignore-glob'],
    ...['--confcutdir', '--durations', '--durations-min', '--log-level', '--log-file', '--log-format'],
    ...['--log-cli-level', '--import-mode', '--capture', '--color', '--cov-report', '--cov-config'],
    ...['--cov-fail-under', '-n', '--numprocesses', '--dist', '--timeout', '--reruns', '--randomly-seed'],
    ...['--doctest-glob', '--assert', '--strict-config', '--show-capture', '-r'],
  ]),
  'go-test': new Set([
    ...['-run', '-skip', '-count', '-timeout', '-tags', '-p', '-parallel', '-cpu', '-bench', '-benchtime'],
    ...['-coverprofile', '-covermode', '-coverpkg', '-exec', '-ldflags', '-gcflags', '-mod', '-modfile', '-o', '-C'],
  ]),
  phpunit: new Set([
    ...['-c', '--configuration', '--bootstrap', '--filter', '--group', '--exclude-group', '--testsuite', '-d', '--log-junit'],
    ...['--include-path', '--printer', '--test-suffix', '--cache-result-file', '--coverage-clover', '--coverage-html'],
    ...['--coverage-text', '--coverage-xml', '--whitelist', '--covers', '--uses', '--order-by', '--random-order-seed'],
    ...['--columns', '--colors', '--repeat', '--default-time-limit', '--extensions', '--testdox-html', '--testdox-text'],
  ]),
  rspec: new Set([
    ...['-I', '-r', '--require', '-O', '--options', '--order', '--seed', '-f', '--format', '-o', '--out', '-e', '--example'],
    ...['-E', '--example-matches', '-t', '--tag', '--default-path', '-P', '--pattern', '--exclude-pattern', '--fail-fast'],
  ]),
  maven: new Set([
    ...['-f', '--file', '-s', '--settings', '-gs', '--global-settings', '-pl', '--projects', '-rf', '--resume-from'],
    ...['-P', '--activate-profiles', '-T', '--threads', '-l', '--log-file', '-t', '--toolchains', '-b', '--builder'],
  ]),
  'cargo-test': new Set([
    ...['-p', '--package', '--exclude', '--test', '--bin', '--example', '--bench', '-F', '--features', '--target'],
    ...['--target-dir', '--manifest-path', '-j', '--jobs', '--profile', '--color', '--message-format', '--config', '-Z'],
  ]),
  minitest: new Set(['-I', '-r', '-e', '-C', '-f', '--rakefile']),
};

/** Options whose value is optional: the next word is theirs unless it is an option (pytest-cov's `--cov [SOURCE]`). */
const OPTIONAL_VALUE_OPTIONS: Readonly<Partial<Record<ReportingKind, ReadonlySet<string>>>> = { pytest: new Set(['--cov']) };

/** Options that take several words, or change what the arguments mean: with them the arguments are not analysed. */
const UNCLEAR_OPTIONS: Readonly<Record<ReportingKind, RegExp>> = {
  'node-test': /^--$/,
  mocha: /^--spec(?:=|$)/,
  jest: /^--(?:projects|roots|reporters|testMatch|setupFiles|setupFilesAfterEnv|collectCoverageFrom|coverageReporters|moduleDirectories|modulePaths|findRelatedTests|listTests|onlyChanged)$|^-o$/,
  vitest: /^--(?:related|changed)(?:=|$)/,
  pytest: /^--(?:pyargs|lf|last-failed|ff|failed-first|sw|stepwise|nf|new-first)$/,
  'go-test': /^-args$/,
  'cargo-test': /^--$/,
  maven: /^--$/,
  phpunit: /^--$/,
  rspec: /^--$/,
  minitest: /^--$/,
};

/** The runner's arguments from `from` on, as options (kept) and the words that name tests (positional). */
export interface RunnerArguments {
  /** Indexes of the option words and their values, in order. */
  options: number[];
  /** Indexes of the words that name tests to run. */
  positional: number[];
}

/**
 * Splits a runner's arguments (`words` from index `from`) into options and positional words, or undefined when that
 * cannot be told: an option that takes several words or changes what the arguments mean (jest's `--projects`,
 * mocha's `--spec`, pytest's `--pyargs` or `--lf`), or an option after a positional word for node (node reads words
 * after a file name as more file names). An option not listed is taken to have no value of its own.
 */
export function runnerArguments(kind: ReportingKind, words: readonly string[], from: number): RunnerArguments | undefined {
  const values = VALUE_OPTIONS[kind];
  const options: number[] = [];
  const positional: number[] = [];
  for (let i = from; i < words.length; i++) {
    const word = plainWord(words[i]!) ?? words[i]!;
    if (UNCLEAR_OPTIONS[kind].test(word)) return undefined;
    if (word.startsWith('-') && word !== '-') {
      if (kind === 'node-test' && positional.length > 0) return undefined;
      options.push(i);
      const next = words[i + 1];
      if (OPTIONAL_VALUE_OPTIONS[kind]?.has(word)) {
        if (next !== undefined && !next.startsWith('-')) options.push(++i);
      } else if (values.has(word)) {
        if (next === undefined) return undefined;
        options.push(++i);
      }
      continue;
    }
    positional.push(i);
  }
  return { options, positional };
}
