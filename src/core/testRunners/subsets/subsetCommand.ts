import { join } from 'node:path';
import { plainWord, shellWord, simpleCommandWords } from '../reports/commandLine';
import {
  packageScriptCall,
  runnerCall,
  scriptFor,
  type FlagSlot,
  type ReportingKind,
  type RunnerCall,
} from '../reports/reportCommand';
import { runnerArguments } from './runnerArguments';

/** The files of a subset of the suite: what changed in a phase. */
export interface SubsetFiles {
  /** Test files to run, workspace-relative with forward slashes (pytest node ids `file::test` too). */
  testFiles: readonly string[];
  /** Production files that changed, for the runners that find the tests related to a file (jest, vitest). */
  sourceFiles: readonly string[];
}

/** The person's test command narrowed to a subset of the suite. */
export interface SubsetCommand extends FlagSlot {
  /** The command line that runs the subset, as a person would type it (no report flags). */
  command: string;
  /** The files given to the runner, workspace-relative. */
  files: string[];
  /** False when the person's command chose its own reporter or output: no report flags go in (`withFlags` unused). */
  reportable: boolean;
}

/** A subset command, or why the command cannot be narrowed (then the whole suite runs). */
export type SubsetPlan = { ok: true; subset: SubsetCommand } | { ok: false; reason: string };

/** Where the subset's words go in the runner's arguments, per runner. */
interface SubsetWords {
  /** Words right after the runner's own arguments start (vitest's `related <files> --run`). */
  lead: string[];
  /** Words at the very end (file names for node, mocha and pytest; jest's `--findRelatedTests <files>`). */
  tail: string[];
  files: string[];
}

/** A word for a file name that no runner takes for an option. */
function fileWord(path: string): string {
  return shellWord(path.startsWith('-') ? `./${path}` : path);
}

const unique = (paths: readonly string[]): string[] => [...new Set(paths)];

/**
 * The subset's words for `kind`: node:test, mocha and pytest get the test files (they cannot tell which tests a
 * production file concerns); jest gets `--findRelatedTests` with the test and source files; vitest gets
 * `related <files> --run` (absolute paths: vitest resolves them against its root, which a config may move), or — for
 * a script that says `vitest run`, whose arguments are filters — the test files as filters.
 */
function subsetWords(
  kind: ReportingKind,
  files: SubsetFiles,
  realWorkspace: string,
  vitestFilters: boolean,
): SubsetWords | string {
  const tests = unique(files.testFiles);
  const related = unique([...files.testFiles, ...files.sourceFiles]);
  switch (kind) {
    case 'node-test':
    case 'mocha':
    case 'pytest':
    case 'rspec':
      if (tests.length === 0) return `${kind} cannot find the tests of a production file, and no test file changed`;
      return { lead: [], tail: tests.map(fileWord), files: tests };
    case 'jest':
      if (related.length === 0) return 'no file changed';
      return { lead: [], tail: ['--findRelatedTests', ...related.map(fileWord)], files: related };
    case 'vitest':
      if (vitestFilters) {
        if (tests.length === 0)
          return 'the script runs `vitest run`, whose arguments are test file filters, and no test file changed';
        return { lead: [], tail: tests.map(fileWord), files: tests };
      }
      if (related.length === 0) return 'no file changed';
      return { lead: ['related', ...related.map((f) => shellWord(join(realWorkspace, f))), '--run'], tail: [], files: related };
    case 'go-test':
      return 'go test runs whole packages, and a subset of them is not made yet';
    case 'cargo-test':
      return 'cargo test builds the whole crate, and a subset of its tests is not made yet';
    case 'maven':
      return 'Maven compiles the whole module, and a subset of its tests is not made yet';
    case 'minitest':
      return 'rake test and ruby -Itest load the test files they name themselves, and a subset of them is not made yet';
    case 'phpunit':
      // PHPUnit runs one file or folder.
      if (tests.length !== 1) return tests.length === 0 ? 'no test file changed' : 'phpunit runs one test file at a time';
      return { lead: [], tail: tests.map(fileWord), files: tests };
  }
}

/** `vitest [run|related] …`: the index of the subcommand word when there is one. */
function vitestSubcommand(call: RunnerCall): number | undefined {
  const first = call.words[call.argsAt];
  const word = first === undefined ? undefined : plainWord(first);
  return word === 'run' || word === 'related' ? call.argsAt : undefined;
}

/**
 * A direct runner invocation narrowed to the subset: the words that name tests (files, folders, globs, `$(find …)`)
 * replaced by the subset's, every option kept.
 */
function directSubset(call: RunnerCall, files: SubsetFiles, realWorkspace: string): SubsetPlan {
  const sub = call.kind === 'vitest' ? vitestSubcommand(call) : undefined;
  const args = runnerArguments(call.kind, call.words, sub === undefined ? call.argsAt : sub + 1);
  if (!args) return { ok: false, reason: `its options cannot be told apart from the files it runs` };
  const words = subsetWords(call.kind, files, realWorkspace, false);
  if (typeof words === 'string') return { ok: false, reason: words };
  const head = call.words.slice(0, call.argsAt);
  const options = args.options.map((i) => call.words[i]!);
  if (call.kind === 'vitest' && words.lead.includes('--run') && options.some((o) => plainWord(o) === '--run')) {
    words.lead.splice(words.lead.indexOf('--run'), 1);
  }
  const build = (flags: readonly string[]): string => {
    const parts =
      call.kind === 'node-test'
        ? [...head, ...flags, ...options, ...words.tail] // node reads no option after a file name
        : [...head, ...words.lead, ...options, ...flags, ...words.tail];
    return parts.join(' ');
  };
  return {
    ok: true,
    subset: { kind: call.kind, command: build([]), withFlags: build, files: words.files, reportable: !call.ownChoice },
  };
}

/**
 * A package script call narrowed to the subset: the words go after the script's own, as npm (`npm test -- …`), pnpm
 * and yarn (`pnpm run test …`) pass them on; so only a script that is one direct runner invocation naming no test
 * files of its own can be narrowed (files added to a script's own would run with them, not instead).
 */
function scriptSubset(
  command: string,
  scripts: Readonly<Record<string, unknown>> | undefined,
  files: SubsetFiles,
  realWorkspace: string,
): SubsetPlan {
  const call = packageScriptCall(command);
  const script = scriptFor(command, scripts);
  if (!call || !script) return { ok: false, reason: 'it is not one direct call of a test runner nor of a package script' };
  const target = runnerCall([script, ...call.extra].join(' '));
  if (!target) return { ok: false, reason: `its script (\`${script}\`) is not one direct call of a test runner` };
  const sub = target.kind === 'vitest' ? vitestSubcommand(target) : undefined;
  const args = runnerArguments(target.kind, target.words, sub === undefined ? target.argsAt : sub + 1);
  if (!args)
    return { ok: false, reason: `the options of its script (\`${script}\`) cannot be told apart from the files it runs` };
  if (args.positional.length > 0 || (sub !== undefined && plainWord(target.words[sub]!) === 'related')) {
    return { ok: false, reason: `its script (\`${script}\`) names the tests it runs; files added to them would run with them` };
  }
  const words = subsetWords(target.kind, files, realWorkspace, sub !== undefined);
  if (typeof words === 'string') return { ok: false, reason: words };
  if (words.lead.includes('--run') && args.options.some((i) => plainWord(target.words[i]!) === '--run')) {
    words.lead.splice(words.lead.indexOf('--run'), 1);
  }
  const added = [...words.lead, ...words.tail];
  const build = (flags: readonly string[]): string =>
    (call.manager === 'npm'
      ? [...(simpleCommandWords(command) ?? []), ...(call.extra.length > 0 ? [] : ['--']), ...flags, ...added]
      : [...call.prefix, call.manager, 'run', shellWord(call.script), ...flags, ...added]
    ).join(' ');
  return {
    ok: true,
    subset: {
      kind: target.kind,
      command: build([]),
      withFlags: build,
      files: words.files,
      reportable: !target.ownChoice && target.appendable,
    },
  };
}

/**
 * The person's test command narrowed to a subset of the suite, built from the command's form (see `runnerCall` and
 * `packageScriptCall`):
 * - a direct invocation (`node --test`, `npx vitest run`, `jest --ci`, `mocha 'test/**'`, `python3 -m pytest tests/`):
 *   its test-naming words are replaced — node:test, mocha and pytest get the test files; jest
 *   `--findRelatedTests <test and source files>`; vitest `vitest related <files> --run`;
 * - a package script (`npm test`, `npm run test:unit`, `pnpm test`, `yarn test`) whose script is one direct invocation
 *   naming no test files of its own: the same words passed on to the script (a `vitest run` script gets the test files
 *   as filters).
 * `{ ok: false, reason }` for anything else — a custom command, a chain, a script that names its files, options that
 * cannot be told from file names, or nothing to run — and the whole suite runs instead. `realWorkspace` is the
 * workspace's real path (vitest's related files are given absolute). Pure: the caller checks the files exist.
 */
export function subsetCommand(
  command: string,
  scripts: Readonly<Record<string, unknown>> | undefined,
  files: SubsetFiles,
  realWorkspace: string,
): SubsetPlan {
  const direct = runnerCall(command);
  if (direct) return directSubset(direct, files, realWorkspace);
  return scriptSubset(command, scripts, files, realWorkspace);
}
