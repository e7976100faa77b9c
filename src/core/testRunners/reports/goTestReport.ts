import { readTreeFolder, readTreeText } from '../../workspaceSandbox/untrustedTree';
import { TestReportError } from '../errors';
import type { TestCounts } from '../parsers/testCounts';
import type { TestCaseOutcome, TestCaseResult } from '../types';
import { failureMessage, json, onePerId, testCase, type ParsedReport, type ReportContext } from './reportedTest';

/** One event of `go test -json` (`go tool test2json`): only the fields read here. */
interface GoTestEvent {
  Action: string;
  Package?: string;
  Test?: string;
  Output?: string;
  Elapsed?: number;
}

/** Largest go.mod or `_test.go` file read to place a test in its file. */
const MAX_GO_SOURCE_BYTES = 1024 * 1024;

/**
 * The lines of a `go test -json` run: each JSON line is an event; every other line is what the go command printed
 * itself on stderr (a package that did not build: `# pkg`, `file.go:3:9: undefined: Foo`, `FAIL pkg [build failed]`).
 */
export function goTestLines(text: string): Array<{ event: GoTestEvent } | { line: string }> {
  const out: Array<{ event: GoTestEvent } | { line: string }> = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('{')) {
      try {
        const value = json.object(JSON.parse(line));
        const action = json.string(value?.Action);
        if (value && action) {
          out.push({
            event: {
              Action: action,
              Package: json.string(value.Package),
              Test: json.string(value.Test),
              Output: json.string(value.Output),
              Elapsed: json.number(value.Elapsed),
            },
          });
          continue;
        }
      } catch {
        /* a line of a test's own output that starts with a brace, printed outside test2json: plain text */
      }
    }
    out.push({ line });
  }
  return out;
}

/**
 * What a person running `go test -v ./...` would read: the `Output` of each event in order, and the lines the go
 * command printed itself (a build failure). This is the run's console output for the model and the person.
 */
export function goTestConsoleText(text: string): string {
  if (!/^\{.*"Action"/m.test(text)) return text;
  const parts: string[] = [];
  for (const item of goTestLines(text)) {
    if ('event' in item) {
      // `build-output`: Go 1.24 and later report a package's compile errors as events too.
      if ((item.event.Action === 'output' || item.event.Action === 'build-output') && item.event.Output !== undefined)
        parts.push(item.event.Output);
    } else if (item.line !== '') parts.push(`${item.line}\n`);
  }
  return parts.join('');
}

/** The module path go.mod declares (`module example.com/shop`), or undefined. */
export function goModulePath(goMod: string): string | undefined {
  return /^\s*module\s+"?([^\s"]+)"?\s*$/m.exec(goMod)?.[1];
}

/** The folder of a package (workspace-relative, `.` for the module's root) from its import path. */
function packageFolder(importPath: string, modulePath: string | undefined): string | undefined {
  if (modulePath === undefined) return undefined;
  if (importPath === modulePath) return '.';
  return importPath.startsWith(`${modulePath}/`) ? importPath.slice(modulePath.length + 1) : undefined;
}

/**
 * A top-level function `go test` runs as a test, at the start of a line of a `_test.go` file: `func TestXxx(t
 * *testing.T)`, a fuzz test `func FuzzXxx(f *testing.F)` (its seed corpus runs as subtests) and an example `func
 * ExampleXxx()` (run when it states its output). Benchmarks run only with `-bench`.
 */
export const GO_TEST_FUNC = /^func[ \t]+((?:Test|Fuzz|Example)\w*)[ \t]*\(/gm;

/** The `_test.go` files of a package's folder, each with the top-level tests it declares. */
async function testFunctionsOf(workspace: string, folder: string): Promise<Map<string, { file: string; line: number }>> {
  const found = new Map<string, { file: string; line: number }>();
  const names = (await readTreeFolder(workspace, folder === '.' ? '' : folder)).filter((n) => n.endsWith('_test.go')).sort();
  for (const name of names) {
    const file = folder === '.' ? name : `${folder}/${name}`;
    const text = await readTreeText(workspace, file, MAX_GO_SOURCE_BYTES);
    if (text === undefined) continue;
    for (const m of text.matchAll(GO_TEST_FUNC)) {
      const line = text.slice(0, m.index).split('\n').length;
      if (!found.has(m[1]!)) found.set(m[1]!, { file, line });
    }
  }
  return found;
}

/** The failure lines of a test: what it printed besides `=== RUN`, `--- FAIL` and the like. */
function failureText(output: readonly string[]): string | undefined {
  const lines = output
    .join('')
    .split('\n')
    .filter((l) => l.trim() !== '' && !/^\s*(?:=== (?:RUN|PAUSE|CONT|NAME)|--- (?:PASS|FAIL|SKIP):)\s/.test(l));
  return failureMessage(lines.map((l) => l.replace(/^ {4}/, '')).join('\n'));
}

/**
 * Reads `go test -json` (the events of `go tool test2json`, one JSON object a line, on stdout, with the go command's
 * own lines on stderr between them). Each test and subtest is one result: `pass`, `fail` or `skip` of an event that
 * names a `Test`; its name is the test's path (`TestParse/empty_input` → `TestParse > empty_input`) and its file the
 * `_test.go` file of its package's folder that declares the top-level function (read from the workspace: test2json
 * names no file), so the id is `shop/cart_test.go::TestTotal`. A test whose file cannot be found keeps its package in
 * its name (`example.com/shop > TestTotal`). A test's message is what it printed (`cart_test.go:12: got 3, want 4`).
 * A package that did not build has no events (the go command's lines say why, see `diagnoseLoadError`).
 *
 * Counts are every test and subtest, as the console text's `--- PASS`/`--- FAIL`/`--- SKIP` lines count them.
 * Throws {@link TestReportError} when the text holds no event at all and no line of the go command's.
 */
export async function parseGoTestReport(text: string, ctx: ReportContext): Promise<ParsedReport> {
  const items = goTestLines(text);
  const events = items.flatMap((i) => ('event' in i ? [i.event] : []));
  if (events.length === 0 && !/^(?:FAIL|ok|\?)\s|^# /m.test(text) && !/no packages to test|matched no packages/.test(text))
    throw new TestReportError('The go test output holds no test2json event.', { runner: 'go-test' });
  const goMod = await readTreeText(ctx.workspace, 'go.mod', MAX_GO_SOURCE_BYTES);
  const modulePath = goMod === undefined ? undefined : goModulePath(goMod);
  const folders = new Map<string, Map<string, { file: string; line: number }>>();
  const outputs = new Map<string, string[]>();
  const ended: Array<{ pkg: string; test: string; outcome: TestCaseOutcome; elapsed?: number }> = [];
  for (const e of events) {
    if (!e.Test || e.Package === undefined) continue;
    const key = `${e.Package}\0${e.Test}`;
    if (e.Action === 'output' && e.Output !== undefined) {
      const list = outputs.get(key) ?? [];
      if (list.length < 200) list.push(e.Output);
      outputs.set(key, list);
    } else if (e.Action === 'pass' || e.Action === 'fail' || e.Action === 'skip') {
      const outcome: TestCaseOutcome = e.Action === 'pass' ? 'passed' : e.Action === 'fail' ? 'failed' : 'skipped';
      ended.push({ pkg: e.Package, test: e.Test, outcome, elapsed: e.Elapsed });
    }
  }
  const tests: TestCaseResult[] = [];
  for (const { pkg, test, outcome, elapsed } of ended) {
    const folder = packageFolder(pkg, modulePath);
    if (folder !== undefined && !folders.has(folder)) folders.set(folder, await testFunctionsOf(ctx.workspace, folder));
    const parts = test.split('/');
    const declared = folder === undefined ? undefined : folders.get(folder)?.get(parts[0]!);
    const message = outcome === 'failed' ? (failureText(outputs.get(`${pkg}\0${test}`) ?? []) ?? 'failed') : undefined;
    tests.push(
      testCase({
        path: declared ? parts : [pkg, ...parts],
        file: declared?.file,
        outcome,
        message,
        line: declared && parts.length === 1 ? declared.line : undefined,
        durationMs: elapsed !== undefined ? elapsed * 1000 : undefined,
      }),
    );
  }
  const unique = onePerId(tests);
  const counts: TestCounts = {
    passed: ended.filter((t) => t.outcome === 'passed').length,
    failed: ended.filter((t) => t.outcome === 'failed').length,
    total: ended.length,
  };
  return { tests: unique, counts };
}
