import { minitestCommand, type RunnerKind } from '../runnerKinds';
import { NODE_VALUE_OPTIONS, plainWord, shellWord, simpleCommandWords } from './commandLine';

/** The runners whose machine-readable report is read (every kind but `custom`). */
export type ReportingKind = Exclude<RunnerKind, 'custom'>;

/** A command line that is one direct invocation of a test runner, and where flags for it go. */
export interface RunnerInvocation {
  kind: ReportingKind;
  /** The command's words as written. */
  words: string[];
  /** Where added flags go: right after node's `--test`, else at the end. */
  insertAt: number;
  /** True when flags added at the very end still reach the runner as options (what a package script needs). */
  appendable: boolean;
}

/** A package-manager call of a package.json script (`npm test`, `npm run test:unit`, `pnpm test`, `yarn run unit`). */
export interface PackageScriptCall {
  manager: 'npm' | 'pnpm' | 'yarn';
  /** The script's name in package.json. */
  script: string;
  /** The words before the manager (environment assignments), kept as written. */
  prefix: string[];
  /** Arguments the call already passes to the script (npm: the words after its `--`). */
  extra: string[];
}

const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** Options that mean the person already chose a reporter or an output for it, or a mode that never ends: nothing is added. */
const OWN_CHOICE: Record<ReportingKind, RegExp> = {
  'node-test': /^--test-reporter(?:-destination)?(?:=|$)|^--watch(?:=|$)/,
  jest: /^--(?:json|outputFile|watch|watchAll|listTests|showConfig)(?:=|$)/,
  vitest: /^--(?:reporter|outputFile|watch|ui|standalone)(?:[=.]|$)|^-w$/,
  mocha: /^--(?:reporter|reporter-options?|watch)(?:=|$)|^-[RwO]$/,
  pytest: /^--(?:junitxml|junit-xml|collect-only|co)(?:=|$)|^no:junitxml$/,
  'go-test': /^--?(?:json|list|c|o|exec)(?:=|$)/,
  // -q prints a dot per test in place of its name; --no-run and --list change what runs.
  'cargo-test': /^(?:-q|--quiet|--no-run|--list)$/,
  // -h and -v print and stop (-q only hides the console's summary: the reports are still written).
  maven: /^(?:-h|--help|-v|--version)$/,
  phpunit:
    /^--(?:log-junit|list-tests|list-tests-xml|list-suites|list-groups|teamcity|version|help|generate-configuration|migrate-configuration)(?:=|$)|^-h$/,
  rspec: /^--(?:format|out|dry-run|init|help|version|bisect)(?:=|$)|^-[fohv]$/,
  // rake's task list and help; --no-plugins (minitest) or MT_NO_PLUGINS turn the reporting plugin off.
  minitest: /^(?:-T|--tasks|-h|--help|-V|--version|--no-plugins|MT_NO_PLUGINS=.*)$/,
};
const VITEST_OTHER_COMMANDS = new Set(['watch', 'dev', 'bench', 'init', 'list', 'typecheck']);
/** The runners `pnpm <name>` and `yarn <name>` are recognised for (anything else there is a package script or a command of the manager). */
const LAUNCHED_RUNNERS = new Set(['jest', 'vitest', 'mocha']);

function basename(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}

/** Index of the first word that is not an environment assignment (`CI=1 jest`). */
function afterAssignments(words: readonly string[]): number {
  let i = 0;
  while (i < words.length && ENV_ASSIGNMENT.test(plainWord(words[i]!) ?? '')) i++;
  return i;
}

/**
 * A command line that is one direct invocation of a test runner, whatever its options say (see {@link runnerCall}):
 * where the runner's own arguments start, and whether the person already chose a reporter, an output or a watch mode.
 */
export interface RunnerCall extends RunnerInvocation {
  /** Index of the first word the runner reads as its own (after node's `--test`, after `python -m pytest`, after the binary). */
  argsAt: number;
  /** The command names a reporter or output of its own, or a mode that never ends (watch): no report flags go in. */
  ownChoice: boolean;
}

/**
 * Recognises a command line that directly runs one test runner: `node [options] --test …`, `tsx --test …`,
 * `[npx] jest …`, `[npx] vitest [run] …`, `[npx] mocha …`, `pytest …`, `python3 -m pytest …`, `go test …` (a path to the
 * binary counts too, e.g. `./node_modules/.bin/jest`), and the package's own jest, vitest or mocha through its
 * package manager (`pnpm vitest run`, `pnpm exec jest`, `yarn jest`, `yarn exec mocha`: both pass every later word on). Undefined for anything else: a chain of commands, a
 * redirection, a shell script, a vitest subcommand other than `run`, or a `--` after which added words would be
 * taken for file names. Unlike {@link runnerInvocation}, a command that chose its own reporter is recognised too
 * (`ownChoice`): the files of a subset can still be given to it.
 */
export function runnerCall(command: string): RunnerCall | undefined {
  const words = simpleCommandWords(command);
  if (!words) return undefined;
  let i = afterAssignments(words);
  const launcher = plainWord(words[i] ?? '');
  if (launcher === 'npx') {
    i++;
    while (i < words.length && /^(?:-y|--yes|--no-install|--no)$/.test(plainWord(words[i]!) ?? '')) i++;
  } else if (launcher === 'pnpm' || launcher === 'yarn') {
    // `pnpm vitest run`, `pnpm exec jest`, `yarn jest`: the package's own binary, every later word passed on to it.
    i++;
    if (plainWord(words[i] ?? '') === 'exec') i++;
    if (!LAUNCHED_RUNNERS.has(plainWord(words[i] ?? '') ?? '')) return undefined;
  }
  const program = plainWord(words[i] ?? '');
  if (program === undefined) return undefined;
  const name = basename(program);
  const plain = words.map((w) => plainWord(w) ?? '');
  const call = (kind: ReportingKind, argsAt: number, insertAt: number, appendable: boolean): RunnerCall => ({
    kind,
    words,
    argsAt,
    insertAt,
    appendable,
    ownChoice: plain.slice(i + 1).some((w) => OWN_CHOICE[kind].test(w)),
  });

  if (name === 'node' || name === 'tsx') {
    let j = i + 1;
    while (j < words.length && plain[j] !== '--test') {
      if (!plain[j]!.startsWith('-') || plain[j] === '--') return undefined; // a script, not the test runner
      if (NODE_VALUE_OPTIONS.has(plain[j]!)) j++;
      j++;
    }
    if (j >= words.length) return undefined;
    const after = plain.slice(j + 1);
    return call(
      'node-test',
      j + 1,
      j + 1,
      after.every((w) => w.startsWith('-') && w !== '--'),
    );
  }
  const rest = plain.slice(i + 1);
  if (rest.includes('--')) return undefined;
  if (name === 'jest') return call('jest', i + 1, words.length, true);
  if (name === 'mocha' || name === '_mocha') return call('mocha', i + 1, words.length, true);
  if (name === 'vitest') {
    const sub = rest[0];
    if (sub !== undefined && VITEST_OTHER_COMMANDS.has(sub)) return undefined;
    return call('vitest', i + 1, words.length, true);
  }
  if (name === 'pytest' || name === 'py.test') return call('pytest', i + 1, words.length, true);
  if (/^python(?:\d+(?:\.\d+)?)?$/.test(name) && rest[0] === '-m' && rest[1] === 'pytest') {
    return call('pytest', i + 3, words.length, true);
  }
  // `go test [flags] [packages]`: flags go right after `test` (after the packages, `-args` would pass them on).
  if (name === 'go' && rest[0] === 'test') return call('go-test', i + 2, i + 2, true);
  // `cargo test [options] [testname]`: options right after `test` (after a `--` they would go to the test binaries).
  if (name === 'cargo' && rest[0] === 'test') return call('cargo-test', i + 2, i + 2, true);
  // `mvn [options] [goals]`, `./mvnw …`: options right after the program.
  if (name === 'mvn' || name === 'mvnw') return call('maven', i + 1, i + 1, true);
  // `phpunit [options] [file|folder]`, `vendor/bin/phpunit …`, `php vendor/bin/phpunit …`: options right after the binary.
  if (name === 'phpunit') return call('phpunit', i + 1, i + 1, true);
  if (name === 'php' && rest[0] !== undefined && basename(rest[0]) === 'phpunit') return call('phpunit', i + 2, i + 2, true);
  // `rspec [options] [files]`, `bin/rspec …`, `bundle exec rspec …`: options right after the binary.
  if (name === 'rspec') return call('rspec', i + 1, i + 1, true);
  if (name === 'bundle' && rest[0] === 'exec' && rest[1] !== undefined && basename(rest[1]) === 'rspec')
    return call('rspec', i + 3, i + 3, true);
  // minitest (`rake test`, `bundle exec rake test`, `rails test`, `ruby -Ilib -Itest …`): its report comes from a
  // plugin on the load path, so nothing is added to the command line.
  if (minitestCommand(words.map((w) => plainWord(w) ?? w).join(' '))) return call('minitest', words.length, words.length, true);
  return undefined;
}

/**
 * Recognises a command line that directly runs one test runner and can be asked for a report: a {@link runnerCall}
 * whose command line does not already name a reporter or an output file, nor a watch mode. Undefined for anything
 * else.
 */
export function runnerInvocation(command: string): RunnerInvocation | undefined {
  const found = runnerCall(command);
  if (!found || found.ownChoice) return undefined;
  const { kind, words, insertAt, appendable } = found;
  return { kind, words, insertAt, appendable };
}

/**
 * Recognises `npm test`, `npm t`, `npm run <name>`, `npm run-script <name>` (optionally followed by `-- <args>`),
 * and plain `pnpm test`, `pnpm run <name>`, `yarn test`, `yarn run <name>`. Undefined for other commands or
 * other arguments (their meaning depends on the package manager's version).
 */
export function packageScriptCall(command: string): PackageScriptCall | undefined {
  const words = simpleCommandWords(command);
  if (!words) return undefined;
  const start = afterAssignments(words);
  const plain = words.slice(start).map((w) => plainWord(w));
  const manager = plain[0];
  if (manager !== 'npm' && manager !== 'pnpm' && manager !== 'yarn') return undefined;
  const verb = plain[1];
  let script: string | undefined;
  let restAt: number;
  if (verb === 'test' || (verb === 't' && manager !== 'yarn') || (verb === 'tst' && manager === 'npm')) {
    script = 'test';
    restAt = 2;
  } else if (verb === 'run' || (verb === 'run-script' && manager === 'npm')) {
    script = plain[2];
    restAt = 3;
  } else return undefined;
  if (!script || script.startsWith('-')) return undefined;
  const rest = words.slice(start + restAt);
  if (rest.length > 0 && (manager !== 'npm' || plainWord(rest[0]!) !== '--')) return undefined;
  return { manager, script, prefix: words.slice(0, start), extra: rest.slice(1) };
}

/** The text of the package.json script a command calls (`npm test` → `scripts.test`), when it is one such call. */
export function scriptFor(command: string, scripts: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const call = packageScriptCall(command);
  const text = call && scripts ? scripts[call.script] : undefined;
  return typeof text === 'string' && text.trim() ? text.trim() : undefined;
}

/**
 * A command line built by someone else (a subset of the suite, see `subsetCommand`) that knows where its runner reads
 * added flags: `withFlags([])` is the command itself.
 */
export interface FlagSlot {
  kind: ReportingKind;
  /** The command with `flags` (each one shell word) where the runner reads them. */
  withFlags(flags: readonly string[]): string;
}

/** A command with flags that ask its runner for a machine-readable report, and which runner that is. */
export interface ReportingCommand {
  kind: ReportingKind;
  command: string;
}

/**
 * The person's test command with `flags` added where the runner reads them, or undefined when that cannot be known
 * (then the command runs as written and only its console output is read):
 * - a direct runner invocation: the flags go after node's `--test`, or at the end for the other runners;
 * - a package-manager call of a script (`npm test`, `npm run test:unit`, `pnpm test`, `yarn test`) whose script is one
 *   direct invocation that takes flags at its end: npm gets them after `--` (`npm test -- --json …`); pnpm and yarn
 *   get `<manager> run <script> <flags>` (pnpm 9's `pnpm test` refuses unknown options, and pnpm 10 passes a `--` on
 *   to the script; `run` passes them on in both, and in yarn 1 and 4).
 * `flagsFor` gives the flags for the runner found (each already a shell word).
 */
export function reportingCommand(
  command: string,
  scripts: Readonly<Record<string, unknown>> | undefined,
  flagsFor: (kind: ReportingKind) => string[],
): ReportingCommand | undefined {
  const direct = runnerInvocation(command);
  if (direct) {
    const words = [...direct.words];
    words.splice(direct.insertAt, 0, ...flagsFor(direct.kind));
    return { kind: direct.kind, command: words.join(' ') };
  }
  const call = packageScriptCall(command);
  const script = scriptFor(command, scripts);
  if (!call || !script) return undefined;
  const target = runnerInvocation([script, ...call.extra].join(' '));
  if (!target?.appendable) return undefined;
  const flags = flagsFor(target.kind);
  const words =
    call.manager === 'npm'
      ? [...(simpleCommandWords(command) ?? []), ...(call.extra.length > 0 ? [] : ['--']), ...flags]
      : [...call.prefix, call.manager, 'run', shellWord(call.script), ...flags];
  return { kind: target.kind, command: words.join(' ') };
}
