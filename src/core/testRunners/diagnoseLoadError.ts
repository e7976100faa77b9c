import type { RunnerKind } from './runnerKinds';
import { parsePhpunitOutput } from './parsers/phpunitOutput';
import { stripAnsi } from './parsers/testCounts';

/**
 * Why tests could not run. `missing_module` / `missing_export` usually mean the production code a new
 * test imports does not exist yet — the supervisor may count that as red in the Tester's phase.
 */
export type TestErrorKind =
  | 'runner_missing'
  | 'plugin_missing'
  | 'syntax'
  | 'missing_module'
  | 'missing_export'
  | 'import'
  | 'collection'
  | 'no_tests'
  | 'crash';

/** A load problem found in a runner's output: its kind, the line that shows it, and the module when known. */
export interface LoadProblem {
  kind: TestErrorKind;
  line: string;
  module?: string;
}

const RUNNER_PACKAGES = /[\\/](mocha|jest|vitest|tsx|pytest)[\\/]|^(mocha|jest|vitest|tsx|pytest)$/;

/** Line starts of top-level errors: plain, TAP comments (node:test), mocha's "Exception during run:". */
const JS_PREFIX = String.raw`^(?:#\s*|\s*Exception during run:\s*)?`;

const JS_PATTERNS: Array<{ re: RegExp; kind: TestErrorKind }> = [
  { re: new RegExp(`${JS_PREFIX}(SyntaxError: .*does not provide an export named '([^']+)'.*)$`, 'm'), kind: 'missing_export' },
  {
    re: new RegExp(`${JS_PREFIX}(Error \\[ERR_MODULE_NOT_FOUND\\]: Cannot find (?:module|package) '([^']+)'.*)$`, 'm'),
    kind: 'missing_module',
  },
  { re: new RegExp(`${JS_PREFIX}(Error: Cannot find module '([^']+)'.*)$`, 'm'), kind: 'missing_module' },
  { re: new RegExp(`${JS_PREFIX}((?:SyntaxError|TSError|TransformError)\\b.*)$`, 'm'), kind: 'syntax' },
  { re: /^(Cannot find module '([^']+)' from .*)$/m, kind: 'missing_module' }, // jest's, under its ● line
  { re: /^\s*(●\s+Test suite failed to run.*)$/m, kind: 'import' },
];

const PY_COLLECTION = /ERROR collecting|errors? during collection|ImportError while importing test module/;
const PY_PATTERNS: Array<{ re: RegExp; kind: TestErrorKind }> = [
  { re: /^E?\s*(ModuleNotFoundError: No module named '([^']+)'.*)$/m, kind: 'missing_module' },
  { re: /^E?\s*(ImportError: cannot import name '([^']+)'.*)$/m, kind: 'missing_export' },
  { re: /^E?\s*((?:SyntaxError|IndentationError|TabError)\b.*)$/m, kind: 'syntax' },
  { re: /^E\s+(\w*Error\b.*)$/m, kind: 'collection' },
];

/** A runner that is not installed: shell "command not found", `No module named pytest`, a missing runner package. */
export function diagnoseMissingRunner(output: string, exitCode: number | null): LoadProblem | undefined {
  const text = stripAnsi(output);
  const noPytest = /No module named '?pytest'?/.exec(text);
  if (noPytest) return { kind: 'runner_missing', line: noPytest[0], module: 'pytest' };
  const notFound = /^.*(?:command not found|: not found|is not recognized as an internal or external command).*$/m.exec(text);
  if (notFound || exitCode === 127) return { kind: 'runner_missing', line: (notFound?.[0] ?? 'command not found').trim() };
  const missingPackage = /Cannot find (?:module|package) '([^']+)'/.exec(text);
  if (missingPackage && RUNNER_PACKAGES.test(missingPackage[1]) && !/^\.\.?\//.test(missingPackage[1])) {
    return { kind: 'runner_missing', line: missingPackage[0], module: missingPackage[1] };
  }
  return undefined;
}

/** Options of well-known pytest plugins, and the package that brings each. */
const PYTEST_PLUGIN_OPTIONS: Array<{ re: RegExp; pkg: string }> = [
  { re: /^--(?:no-)?cov(?:[-=]|$)/, pkg: 'pytest-cov' },
  {
    re: /^(?:-n|--numprocesses(?:=|$)|--maxprocesses(?:=|$)|--dist(?:=|$)|--tx(?:=|$)|--max-worker-restart(?:=|$))/,
    pkg: 'pytest-xdist',
  },
  { re: /^--timeout(?:[-_=]|$)/, pkg: 'pytest-timeout' },
  { re: /^--randomly-/, pkg: 'pytest-randomly' },
];
/** Plugins named with `-p NAME`, and the package that brings each. */
const PYTEST_PLUGIN_NAMES: Record<string, string> = {
  randomly: 'pytest-randomly',
  pytest_randomly: 'pytest-randomly',
  xdist: 'pytest-xdist',
  'xdist.plugin': 'pytest-xdist',
  pytest_cov: 'pytest-cov',
  timeout: 'pytest-timeout',
  pytest_timeout: 'pytest-timeout',
};

/** pytest options of plugins that are not installed, read from pytest's usage error or its failed `-p NAME`. */
export interface MissingPytestPlugins {
  /** pytest's own line (`error: unrecognized arguments: --cov=pkg`, `ImportError: Error importing plugin "randomly"…`). */
  line: string;
  /** The options pytest did not know (`--cov=pkg`, `-n`), or `-p NAME` for a plugin it could not import. */
  options: string[];
  /** The packages that bring them, for the well-known plugins (pytest-cov, pytest-xdist, pytest-timeout, pytest-randomly). */
  packages: string[];
}

/**
 * pytest stopped before collecting because an option it was given (usually by the config's `addopts`) belongs to a
 * plugin that is not installed: `--cov=pkg` without pytest-cov, `-n auto` without pytest-xdist, `-p randomly` without
 * pytest-randomly.
 */
export function missingPytestPlugins(output: string): MissingPytestPlugins | undefined {
  const text = stripAnsi(output);
  const unrecognized = /\[file_or_dir\][^]*?^.*?(error: unrecognized arguments: (.+))$/m.exec(text);
  if (unrecognized) {
    const options = unrecognized[2]
      .trim()
      .split(/\s+/)
      .filter((o) => o.startsWith('-'));
    const packages = options.map((o) => PYTEST_PLUGIN_OPTIONS.find((p) => p.re.test(o))?.pkg);
    return { line: unrecognized[1].trim(), options, packages: unique(packages) };
  }
  const plugin = /^(ImportError: Error importing plugin "([^"]+)".*)$/m.exec(text);
  if (plugin) return { line: plugin[1].trim(), options: [`-p ${plugin[2]}`], packages: unique([PYTEST_PLUGIN_NAMES[plugin[2]]]) };
  return undefined;
}

function unique(names: Array<string | undefined>): string[] {
  return [...new Set(names.filter((n): n is string => n !== undefined))];
}

/**
 * Finds the reason a test run could not load its tests (syntax error, missing module, missing export,
 * collection error). Only top-level messages count: an assertion that mentions "SyntaxError" inside a
 * test's failure report is a failing test, not a load error.
 */
export function diagnoseLoadError(output: string, kind: RunnerKind): LoadProblem | undefined {
  const text = stripAnsi(output);
  if (kind === 'go-test') return goBuildError(text);
  if (kind === 'cargo-test') return cargoBuildError(text);
  if (kind === 'maven') return javacError(text);
  if (kind === 'phpunit') return phpFatalError(text);
  if (kind === 'rspec') return rspecLoadError(text);
  if (kind === 'minitest') return minitestLoadError(text);
  if (kind === 'custom') {
    const unittest = unittestImportError(text);
    if (unittest) return unittest;
  }
  const python = kind === 'pytest' || (kind === 'custom' && PY_COLLECTION.test(text));
  if (python) {
    if (!PY_COLLECTION.test(text)) return undefined;
    for (const { re, kind: problem } of PY_PATTERNS) {
      const match = re.exec(text);
      if (match) return { kind: problem, line: match[1].trim(), module: match[2] };
    }
    return {
      kind: 'collection',
      line: (/^.*ERROR collecting.*$/m.exec(text)?.[0] ?? 'collection error').replace(/^[_ =]+|[_ =]+$/g, ''),
    };
  }
  // jest indents the error of a suite that failed to run under its `●` line (`    SyntaxError: …/a.test.js: Unexpected
  // token`): that error is the diagnosis, not the heading (a test that does not parse goes back to the Tester).
  const suiteError = JEST_SUITE_ERROR.exec(text)?.[1];
  for (const { re, kind: problem } of JS_PATTERNS) {
    const match = (suiteError !== undefined ? re.exec(suiteError) : null) ?? re.exec(text);
    if (match) return { kind: problem, line: match[1].trim(), module: match[2] };
  }
  return undefined;
}

/** `FAIL<tab>example.com/shop [build failed]` (`[setup failed]`: go list could not read a file): a package that did not build. */
const GO_BUILD_FAILED = /^FAIL\s+(\S+) \[(build|setup) failed\]\s*$/m;
/** A compiler line: `shop/cart_test.go:12:9: <message>`. */
const GO_COMPILE_LINE = /^(?:\.\/)?(\S+\.go):\d+(?::\d+)?: (.+)$/gm;

/**
 * A Go package that did not build (the go command's own lines, printed whatever `-json` says): a name the code does
 * not declare (`undefined: Buzz`, `x.Total undefined (type Cart has no field or method Total)`) is `missing_export`
 * with that name, so that a new test calling a function that does not exist yet is a red; a syntax error
 * (`syntax error: …`, go list's `expected …` of a `[setup failed]` package) is `syntax` (a test that does not parse goes
 * back to the Tester); any other compile error is `import` (a test file that does not load).
 */
function goBuildError(text: string): LoadProblem | undefined {
  const failed = GO_BUILD_FAILED.exec(text);
  if (!failed) return undefined;
  const lines = [...text.matchAll(GO_COMPILE_LINE)].map((m) => ({ line: m[0].trim(), message: m[2]! }));
  for (const { line, message } of lines) {
    const name =
      /^undefined: (?:[\w.]+\.)?(\w+)$/.exec(message)?.[1] ??
      /\bundefined \(type .+ has no (?:field or )?method (\w+)/.exec(message)?.[1];
    if (name) return { kind: 'missing_export', line, module: name };
  }
  const syntax = lines.find((l) => /^syntax error\b|^expected\b|^illegal\b|^missing\b.*\bexpected\b/.test(l.message));
  if (syntax) return { kind: 'syntax', line: syntax.line };
  if (failed[2] === 'setup') return { kind: 'syntax', line: lines[0]?.line ?? failed[0].trim() };
  return { kind: 'import', line: lines[0]?.line ?? failed[0].trim() };
}

/** RSpec's heading of a spec file that raised while it was loaded (then no example runs at all). */
const RSPEC_LOAD = /^An error occurred while loading (\S+?)\.?(?: - Did you mean\?)?\s*$/m;
/** The exception under it: its class on a line of its own, its message indented on the next. */
const RSPEC_EXCEPTION = /^(\w+(?:::\w+)*):\n {2}(.+)$/m;

/**
 * A spec file that RSpec could not load (`An error occurred while loading ./spec/leap_spec.rb.`, the exception under
 * it): a constant or method the code does not define yet (`NameError: uninitialized constant LeapYear`,
 * `NoMethodError: undefined method `leap?'`) is `missing_export` with that name, so that a new spec whose `describe`
 * names a class not written yet is a red; a required file that does not exist (`LoadError: cannot load such file --
 * leap_year`) is `missing_module`; a `SyntaxError` is `syntax` (back to the Tester); any other exception is `import`.
 */
function rspecLoadError(text: string): LoadProblem | undefined {
  const load = RSPEC_LOAD.exec(text);
  if (!load) return undefined;
  const file = load[1]!.replace(/^\.\//, '');
  const exception = RSPEC_EXCEPTION.exec(text.slice(load.index));
  if (!exception) return { kind: 'import', line: load[0].trim() };
  const [, className, message] = exception as unknown as [string, string, string];
  return rubyProblem(file, className, message);
}

/**
 * A Ruby exception that stopped the tests from loading, by its class and message: a constant or method not defined
 * yet is `missing_export` with its name, a required file that does not exist `missing_module`, a `SyntaxError`
 * `syntax` (back to the Tester), anything else `import`.
 */
function rubyProblem(file: string, className: string, message: string): LoadProblem {
  const line = `${file}: ${className}: ${message.trim()}`;
  const constant = /^uninitialized constant (?:[\w:]+::)?(\w+)/.exec(message)?.[1];
  const method = /^undefined (?:local variable or )?method [`'](\w+[?!=]?)'/.exec(message)?.[1];
  if (className === 'SyntaxError') return { kind: 'syntax', line };
  if (className === 'NameError' || className === 'NoMethodError') {
    const name = constant ?? method;
    if (name) return { kind: 'missing_export', line, module: name };
  }
  const required = /^cannot load such file -- (\S+)/.exec(message)?.[1];
  if (className === 'LoadError' && required) return { kind: 'missing_module', line, module: required };
  return { kind: 'import', line };
}

/** Ruby's last words on an exception nobody rescued: `<where>:<line>:in `<method>': <message> (<Class>)`. */
const RUBY_UNCAUGHT = /^\S+?:\d+:in [`'][^'\n]*': (.+) \(([A-Z]\w*(?:::\w+)*)\)$/m;
/** minitest's summary (or test-unit's): once it is printed, the tests loaded (an exception inside a test is a failing test). */
const MINITEST_RAN = /^\d+ (?:runs|tests), \d+ assertions, /m;

/**
 * A minitest run whose test files did not load: ruby stops at the exception with its own last line
 * (`/w/test/leap_test.rb:3:in `<class:LeapTest>': uninitialized constant LeapTest::Leap (NameError)`, `…:in `require':
 * cannot load such file -- leap (LoadError)`, `…: /w/test/leap_test.rb:5: syntax error, unexpected `end' (SyntaxError)`),
 * before minitest prints anything. The file is the first test file the lines name (from `test/` on).
 */
function minitestLoadError(text: string): LoadProblem | undefined {
  if (MINITEST_RAN.test(text)) return undefined;
  const uncaught = RUBY_UNCAUGHT.exec(text);
  if (!uncaught) return undefined;
  const [, message, className] = uncaught as unknown as [string, string, string];
  const file = /(?:^|[\s/])((?:test|spec)\/[^\s:]+\.rb)\b/.exec(text.slice(uncaught.index))?.[1] ?? 'a test file';
  return rubyProblem(file, className, message.replace(/^\S+\.rb:\d+: /, ''));
}

/** PHP's own fatal line (`PHP Fatal error:  Uncaught ParseError: …`, or `Parse error: …` when errors are displayed). */
const PHP_FATAL = /^(?:PHP )?(Fatal|Parse) error:\s+(.+?)(?: in (\S+\.php)(?::| on line )(\d+))?$/m;

/**
 * PHP stopped before PHPUnit could print its summary: a test file that does not parse (`ParseError`, a `Parse error`)
 * is `syntax`, so that it goes back to the Tester; a class or function a test file needs at load time that does not
 * exist (`Class "Kata\Base" not found`, `Call to undefined function helper()`) is `missing_export` with its short name;
 * any other fatal error is `import` (a test file that does not load). Inside a test, PHPUnit catches all of these and
 * reports the test as errored, with a summary: that is a failing test (a new test's red), not a load error.
 */
function phpFatalError(text: string): LoadProblem | undefined {
  if (parsePhpunitOutput(text)) return undefined;
  const fatal = PHP_FATAL.exec(text);
  if (!fatal) return undefined;
  const message = fatal[2]!.replace(/^Uncaught /, '');
  const where = fatal[3] ? ` in ${fatal[3]}${fatal[4] ? `:${fatal[4]}` : ''}` : '';
  const line = `${message}${where}`;
  if (fatal[1] === 'Parse' || /^ParseError\b/.test(message)) return { kind: 'syntax', line };
  const name =
    /^Error: Class "(?:[\w\\]*\\)?(\w+)" not found/.exec(message)?.[1] ??
    /^Error: Call to undefined function (?:[\w\\]*\\)?(\w+)\(\)/.exec(message)?.[1];
  if (name) return { kind: 'missing_export', line, module: name };
  return { kind: 'import', line };
}

/** `error: could not compile `words` (lib test) due to 1 previous error`: a test binary that did not build. */
const CARGO_NOT_COMPILED = /^error: could not compile `[^`]+`.*$/m;
/** A compiler error and the `--> file:line:col` under it: `error[E0425]: cannot find function `whisper` in this scope`. */
const RUSTC_ERROR = /^error(?:\[(E\d{4})\])?: (.+)\n\s*--> (\S+?):\d+(?::\d+)?\s*$/gm;
/** The missing name of a rustc error that says a name does not exist, by its code. */
const RUSTC_MISSING: ReadonlyArray<{ code: string; re: RegExp }> = [
  { code: 'E0425', re: /^cannot find (?:function|value|tuple struct or tuple variant)[^`]*`(\w+)`/ },
  { code: 'E0412', re: /^cannot find type `(\w+)`/ },
  { code: 'E0422', re: /^cannot find struct, variant or union type `(\w+)`/ },
  { code: 'E0433', re: /^failed to resolve: use of (?:undeclared|unresolved) (?:type|crate|module|type or module)[^`]*`(\w+)`/ },
  { code: 'E0432', re: /^unresolved imports? `(?:[\w:]+::)?(\w+)`/ },
  {
    code: 'E0599',
    re: /^no (?:method|associated item|function or associated item|variant|variant or associated item) named `(\w+)`/,
  },
  { code: 'E0609', re: /^no field `(\w+)`/ },
  { code: 'E0560', re: /has no field named `(\w+)`/ },
];

/**
 * A Rust crate or test file that did not compile (`error: could not compile …`; rustc's errors above it, each with
 * its `--> file:line`): an error that says a name does not exist (`E0425` cannot find function, `E0412`/`E0422` a
 * type, `E0433` failed to resolve, `E0432` unresolved import, `E0599` no method, `E0609`/`E0560` no field) is
 * `missing_export` with that name, so that a new test using a function not written yet is a red; an error without a
 * code is the parser's (`expected one of …`, `mismatched closing delimiter`, `this file contains an unclosed
 * delimiter`): `syntax`, back to the Tester; any other compile error is `import` (a test that does not build).
 */
function cargoBuildError(text: string): LoadProblem | undefined {
  const failed = CARGO_NOT_COMPILED.exec(text);
  if (!failed) return undefined;
  const errors = [...text.matchAll(RUSTC_ERROR)].map((m) => ({
    code: m[1],
    message: m[2]!.trim(),
    line: `${m[3]}: error${m[1] ? `[${m[1]}]` : ''}: ${m[2]!.trim()}`,
  }));
  for (const error of errors) {
    const name = RUSTC_MISSING.find((r) => r.code === error.code)?.re.exec(error.message)?.[1];
    if (name) return { kind: 'missing_export', line: error.line, module: name };
  }
  const syntax = errors.find((e) => e.code === undefined);
  if (syntax) return { kind: 'syntax', line: syntax.line };
  return { kind: 'import', line: errors[0]?.line ?? failed[0].trim() };
}

/** maven-compiler-plugin's line for one javac error: `[ERROR] /abs/src/test/java/kata/LeapTest.java:[10,16] cannot find symbol`. */
const JAVAC_ERROR = /^\[ERROR\] (\S+\.java):\[(\d+),(\d+)\] (.+)$/gm;
/** Maven stopped at a compile error (then Surefire never ran and wrote no report). */
const MAVEN_COMPILE_FAILED = /^\[ERROR\] Failed to execute goal \S+:maven-compiler-plugin:\S+:(?:test)?[cC]ompile\b.*$/m;
/** javac's messages for code that does not parse (its parser's, not its type checker's). */
const JAVAC_SYNTAX =
  /^(?:'.+' expected|<identifier> expected|class, interface, enum, or record expected|illegal start of \w+|reached end of file while parsing|unclosed \w+ literal|not a statement|illegal character: .*|orphaned \w+|else without if|'.+' or '.+' expected)$/;

/**
 * A Maven build that stopped at javac (`[ERROR] Failed to execute goal …maven-compiler-plugin…:testCompile`), read from
 * its `COMPILATION ERROR` lines: `cannot find symbol` with its `symbol:   method of(int)` (or `class Leap`, `variable
 * Leap`) is `missing_export` with that name, so that a new test using a class or method not written yet is a red; a
 * `package kata.util does not exist` is `missing_module`; a parser's message (`';' expected`, `class, interface, enum,
 * or record expected`) is `syntax`: back to the Tester when it is in the Tester's file; any other compile error is
 * `import` (a test that does not build). The line names the file workspace-relative when it is below the run's folder.
 */
function javacError(text: string): LoadProblem | undefined {
  if (!MAVEN_COMPILE_FAILED.test(text)) return undefined;
  const cwd = /^\[INFO\] skip non existing resourceDirectory (\/\S+?)\/src\//m.exec(text)?.[1];
  const errors = [...text.matchAll(JAVAC_ERROR)].map((m) => {
    const file = cwd && m[1]!.startsWith(`${cwd}/`) ? m[1]!.slice(cwd.length + 1) : m[1]!;
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 400);
    const symbol = /^\n(?:\[ERROR\])?\s+symbol:\s+(?:class|variable|method|interface|enum|record) (\w+)/.exec(after)?.[1];
    return { message: m[4]!.trim(), line: `${file}:${m[2]}:${m[3]}: ${m[4]!.trim()}`, symbol };
  });
  const seen = errors.filter((e, i) => errors.findIndex((o) => o.line === e.line) === i);
  for (const error of seen)
    if (error.message === 'cannot find symbol' && error.symbol)
      return { kind: 'missing_export', line: error.line, module: error.symbol };
  for (const error of seen) {
    const pkg = /^package ([\w.]+) does not exist$/.exec(error.message)?.[1];
    if (pkg) return { kind: 'missing_module', line: error.line, module: pkg };
  }
  const syntax = seen.find((e) => JAVAC_SYNTAX.test(e.message));
  if (syntax) return { kind: 'syntax', line: syntax.line };
  return { kind: 'import', line: seen[0]?.line ?? MAVEN_COMPILE_FAILED.exec(text)![0].trim() };
}

/** The first line of the error under jest's `● Test suite failed to run`, without its indentation. */
const JEST_SUITE_ERROR = /^\s*●\s+Test suite failed to run[ \t]*\r?\n(?:[ \t]*\r?\n)*[ \t]+(\S[^\n]*)$/m;

/**
 * `python -m unittest` runs a test module that cannot be imported as one failing test (`unittest.loader._FailedTest`,
 * "ImportError: Failed to import test module: tests.test_core"), and the module's own tests vanish from the count:
 * what pytest calls a collection error, and judged as one (a missing name is the red of a new test, a syntax error goes
 * back to the Tester). Read from the failed import's own section of the output, up to the next separator.
 */
function unittestImportError(text: string): LoadProblem | undefined {
  const start = /^ImportError: Failed to import test module: (\S+)\s*$/m.exec(text);
  if (!start) return undefined;
  const after = text.slice(start.index);
  const end = /^(?:={20,}|-{20,})\s*$/m.exec(after);
  const section = end ? after.slice(0, end.index) : after;
  for (const { re, kind: problem } of PY_PATTERNS) {
    const match = re.exec(section);
    if (match) return { kind: problem, line: match[1].trim(), module: match[2] };
  }
  const last = section
    .trim()
    .split('\n')
    .filter((l) => /^\w+(?:\.\w+)*(?:Error|Exception)\b/.test(l))
    .at(-1);
  return { kind: 'import', line: (last ?? start[0]).trim() };
}

/** One line for a person or the model: what went wrong and what to look at. */
export function describeProblem(problem: LoadProblem): string {
  const what: Record<TestErrorKind, string> = {
    runner_missing: 'the test runner is not installed or not on PATH',
    plugin_missing: problem.module
      ? `the pytest ${problem.module.includes(',') ? `plugins ${problem.module} are` : `plugin ${problem.module} is`} not installed`
      : 'pytest was given an option of a plugin that is not installed',
    syntax: 'a file has a syntax error',
    missing_module: problem.module ? `module '${problem.module}' cannot be found` : 'a module cannot be found',
    missing_export: problem.module
      ? /\bundefined\b|\buninitialized constant\b|^Error: Class "/.test(problem.line)
        ? `'${problem.module}' is not defined` // Go: the package does not declare it; PHP: no such class or function
        : /\berror\[E\d{4}\]|: cannot find symbol$/.test(problem.line)
          ? `'${problem.module}' does not exist yet` // Rust: rustc cannot find it; Java: javac cannot
          : `'${problem.module}' is imported but not exported`
      : 'an imported name does not exist',
    import: 'a test file failed to load',
    collection: 'pytest could not collect the tests',
    no_tests: 'no tests ran',
    crash: 'the test command failed without printing a test summary',
  };
  return `${what[problem.kind]} — ${problem.line}`.slice(0, 400);
}
