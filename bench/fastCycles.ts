/**
 * Fast cycles on a big suite (`npm run bench:fast`, i.e. `tsx bench/fastCycles.ts [runs]`): for each runner, a suite of
 * 400 tests in 40 test files (each file testing its own module) is generated in a temp folder, and the two runs a
 * cycle's phase now makes are timed through CommandTestRunner, as the supervisor makes them — the related run (one
 * changed test file and its module: `node --test <file>`, `pytest <file>`, `jest --findRelatedTests`, `vitest related`)
 * and the whole suite — alternated, `runs` times each (median). node:test and pytest always; jest and vitest when the
 * runner cache of test/integration/testRunners/runnerReports.test.ts holds them (`<tmp>/tdd-agent-runner-cache/`,
 * filled by that test's first run; nothing is installed here). Rewrites the `fast-cycles` section of
 * docs/benchmarks.md (`BENCH_NO_WRITE=1` only prints it).
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setLogLevel } from '../src/core/logging/logger';
import { percentile } from '../src/core/metrics/percentile';
import { detectTestRunner } from '../src/core/testRunners/detectTestRunner';
import type { TestRunResult, TestSubset } from '../src/core/testRunners/types';
import { machineLines, publishSection } from './benchDoc';

const RUNS = Number(process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 5);
const FILES = 40;
const TESTS_PER_FILE = 10;
const TOTAL = FILES * TESTS_PER_FILE;
const RUNNER_CACHE = join(tmpdir(), 'tdd-agent-runner-cache');

/** One runner's generated project: its files, and where its installed runner comes from (jest, vitest). */
interface SuiteKind {
  name: string;
  files: Record<string, string>;
  /** `node_modules` to link in (the runner cache), or undefined for runners that need none. */
  modules?: string;
  env?: NodeJS.ProcessEnv;
  /** The related run: one changed test file and the module it tests (for the runners that can relate it). */
  subset: TestSubset;
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/** A module with a little real work per test (a small FizzBuzz-and-strings library), and its ten tests. */
function jsModule(i: number, esm: boolean): string {
  const body = `(n) => {\n  let out = '';\n  for (let k = 1; k <= n; k++) out += k % 15 === 0 ? 'FizzBuzz' : k % 3 === 0 ? 'Fizz' : k % 5 === 0 ? 'Buzz' : String(k);\n  return out.length + ${i};\n}`;
  return esm ? `export const measure${i} = ${body};\n` : `exports.measure${i} = ${body};\n`;
}

function jsTests(i: number, header: string): string {
  const tests = range(TESTS_PER_FILE).map((t) => {
    const n = 50 + t * 10;
    let expected = 0;
    for (let k = 1; k <= n; k++)
      expected += (k % 15 === 0 ? 'FizzBuzz' : k % 3 === 0 ? 'Fizz' : k % 5 === 0 ? 'Buzz' : String(k)).length;
    return `test('measures ${n} for module ${i}', () => {\n  assertEqual(measure${i}(${n}), ${expected + i});\n});`;
  });
  return `${header}\n${tests.join('\n')}\n`;
}

function nodeSuite(): SuiteKind {
  const files: Record<string, string> = { 'package.json': JSON.stringify({ type: 'module', scripts: { test: 'node --test' } }) };
  for (const i of range(FILES)) {
    files[`src/mod${i}.js`] = jsModule(i, true);
    files[`test/mod${i}.test.js`] = jsTests(
      i,
      `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { measure${i} } from '../src/mod${i}.js';\nconst assertEqual = (a, b) => assert.equal(a, b);`,
    );
  }
  return { name: 'node:test (`node --test`)', files, subset: { testFiles: ['test/mod7.test.js'], sourceFiles: ['src/mod7.js'] } };
}

function jestSuite(modules: string): SuiteKind {
  const files: Record<string, string> = { 'package.json': JSON.stringify({ private: true, scripts: { test: 'jest' } }) };
  for (const i of range(FILES)) {
    files[`src/mod${i}.js`] = jsModule(i, false);
    files[`test/mod${i}.test.js`] = jsTests(
      i,
      `const { measure${i} } = require('../src/mod${i}.js');\nconst assertEqual = (a, b) => expect(a).toBe(b);`,
    );
  }
  return { name: 'jest 30 (`jest`)', files, modules, subset: { testFiles: ['test/mod7.test.js'], sourceFiles: ['src/mod7.js'] } };
}

function vitestSuite(modules: string): SuiteKind {
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ private: true, type: 'module', scripts: { test: 'vitest run' } }),
  };
  for (const i of range(FILES)) {
    files[`src/mod${i}.js`] = jsModule(i, true);
    files[`test/mod${i}.test.js`] = jsTests(
      i,
      `import { expect, test } from 'vitest';\nimport { measure${i} } from '../src/mod${i}.js';\nconst assertEqual = (a, b) => expect(a).toBe(b);`,
    );
  }
  return {
    name: 'vitest 4 (`vitest run`)',
    files,
    modules,
    subset: { testFiles: ['test/mod7.test.js'], sourceFiles: ['src/mod7.js'] },
  };
}

function pytestSuite(): SuiteKind {
  const files: Record<string, string> = {
    'pyproject.toml': '[tool.pytest.ini_options]\npythonpath = ["src"]\ntestpaths = ["tests"]\n',
  };
  for (const i of range(FILES)) {
    files[`src/mod${i}.py`] = [
      `def measure${i}(n):`,
      "    out = ''",
      '    for k in range(1, n + 1):',
      "        out += 'FizzBuzz' if k % 15 == 0 else 'Fizz' if k % 3 == 0 else 'Buzz' if k % 5 == 0 else str(k)",
      `    return len(out) + ${i}`,
      '',
    ].join('\n');
    const tests = range(TESTS_PER_FILE).map((t) => {
      const n = 50 + t * 10;
      return `def test_measures_${n}():\n    assert measure${i}(${n}) == len(''.join('FizzBuzz' if k % 15 == 0 else 'Fizz' if k % 3 == 0 else 'Buzz' if k % 5 == 0 else str(k) for k in range(1, ${n + 1}))) + ${i}\n`;
    });
    files[`tests/test_mod${i}.py`] = `from mod${i} import measure${i}\n\n\n${tests.join('\n\n')}`;
  }
  return {
    name: 'pytest (`python3 -m pytest`)',
    files,
    env: { PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' },
    subset: { testFiles: ['tests/test_mod7.py'], sourceFiles: ['src/mod7.py'] },
  };
}

/** The runner cache's `node_modules` for `name`, when an earlier test run filled it. */
function cachedRunner(name: 'jest' | 'vitest', major: number): string | undefined {
  const modules = join(RUNNER_CACHE, `${name}-${major}`, 'node_modules');
  return existsSync(join(modules, '.bin', name)) ? modules : undefined;
}

interface Figure {
  kind: SuiteKind;
  related: number;
  full: number;
  relatedCommand: string;
  relatedTests: number;
}

function check(run: TestRunResult, scope: 'related' | 'full', total: number, kind: SuiteKind): void {
  if (run.status !== 'passed' || (run.scope ?? 'full') !== scope || run.total !== total) {
    throw new Error(
      `${kind.name}: the ${scope} run gave ${run.status}, scope ${run.scope}, ${run.total} tests (expected ${total})${run.fullRunReason ? `: ${run.fullRunReason}` : ''}\n${run.output.slice(-2000)}`,
    );
  }
}

/** Generates the suite, then times its related and full runs alternately (one warm-up pair not counted). */
async function measure(kind: SuiteKind): Promise<Figure> {
  const dir = await mkdtemp(join(tmpdir(), 'tdd-fast-cycles-'));
  try {
    for (const [path, content] of Object.entries(kind.files)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), content);
    }
    if (kind.modules) await symlink(kind.modules, join(dir, 'node_modules'));
    const runner = await detectTestRunner(dir, { env: kind.env, timeoutMs: 300_000 });
    const related: number[] = [];
    const full: number[] = [];
    let relatedCommand = '';
    let relatedTests = 0;
    for (let i = 0; i <= RUNS; i++) {
      for (const scope of i % 2 === 0 ? (['related', 'full'] as const) : (['full', 'related'] as const)) {
        const run = await runner.run(scope === 'related' ? { only: kind.subset } : {});
        check(run, scope, scope === 'related' ? TESTS_PER_FILE : TOTAL, kind);
        if (scope === 'related') {
          relatedCommand = run.command.split(dir).join('.');
          relatedTests = run.total;
        }
        if (i > 0) (scope === 'related' ? related : full).push(run.durationMs);
      }
    }
    return { kind, related: percentile(related, 50), full: percentile(full, 50), relatedCommand, relatedTests };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

function row(f: Figure): string {
  const before = 2 * f.full; // the Tester's and the Implementer's whole-suite runs
  const after = 2 * f.related + f.full; // two related runs, one whole-suite run before the commit
  return `| ${f.kind.name} | \`${f.relatedCommand}\` (${f.relatedTests} tests): ${seconds(f.related)} | ${seconds(f.full)} | ${(f.full / f.related).toFixed(1)}× | ${seconds(before)} → ${seconds(after)} (${Math.round((1 - after / before) * 100)} % less) |`;
}

async function main(): Promise<void> {
  setLogLevel('error');
  // As the tests do: every Node start would otherwise parse the certificate bundle these machines name (≈ 130 ms).
  delete process.env.NODE_EXTRA_CA_CERTS;
  const kinds: SuiteKind[] = [nodeSuite(), pytestSuite()];
  const skipped: string[] = [];
  const jest = cachedRunner('jest', 30);
  const vitest = cachedRunner('vitest', 4);
  if (jest) kinds.push(jestSuite(jest));
  else skipped.push('jest (not in the runner cache: run test/integration/testRunners/runnerReports.test.ts once)');
  if (vitest) kinds.push(vitestSuite(vitest));
  else skipped.push('vitest (not in the runner cache: run test/integration/testRunners/runnerReports.test.ts once)');

  const load = loadavg()[0]!;
  const figures: Figure[] = [];
  for (const kind of kinds) {
    process.stderr.write(`measuring ${kind.name}…\n`);
    figures.push(await measure(kind));
  }
  const section = [
    '## Fast cycles on a big suite',
    '',
    `Reproduce: \`npm run bench:fast\` (runs \`tsx bench/fastCycles.ts ${RUNS}\`): per runner, a generated suite of ${TOTAL} tests in`,
    `${FILES} test files (each file tests its own module, ${TESTS_PER_FILE} tests, a little real work per test) in a temp folder; the related`,
    "run a phase makes first (one changed test file and its module, the command built from the project's test command) and the",
    `whole suite, each run ${RUNS} times through CommandTestRunner with its report, alternated after a warm-up pair; medians of`,
    'the runs’ wall time. Outside the OS sandbox, which adds ~6 ms per run (see its section). pytest without plugin autoload',
    '(as the test suite runs it). jest and vitest come from the runner cache the report tests fill, when it is there;',
    'vitest is given absolute paths (shown here from the suite’s folder, `./`).',
    '',
    ...machineLines(),
    `- Load average when it started: ${load.toFixed(1)} (other work shares the cores: compare ratios, not seconds)`,
    '',
    '| Runner | Related run (median) | Whole suite (median) | Whole / related | Test time of a cycle: before → after |',
    '|---|---|---|---|---|',
    ...figures.map(row),
    '',
    '"Before" is a cycle’s two whole-suite runs (after the Tester, after the Implementer); "after" is the Tester’s file alone,',
    'the Implementer’s related run, and one whole-suite run before the commit. A refactoring that changes code costs one',
    'related run more than before (its related run, then the whole suite); an Implementer attempt whose related run fails',
    'costs that run only (the whole suite is not run for it). node:test runs each test file in a process of its own, one at',
    'a time on 2 cores, and vitest starts a worker per file: their whole suites grow with the number of files, which a',
    'related run does not; a small pytest or jest run is mostly their start-up.',
    ...(skipped.length > 0 ? ['', `Not measured in this run: ${skipped.join('; ')}.`] : []),
  ].join('\n');
  await publishSection('fast-cycles', section);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
