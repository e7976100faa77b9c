import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SupervisorEvent } from '../../../src/core/tdd/events';
import { runKataSession } from '../../../src/core/tdd/supervisor/kataSession';
import { treeDigest } from '../../support/projectFixtures';
import type { CyclePlan } from '../../support/scriptedKataModel';
import { contextOf, initPersonRepo, SessionHarness, type SessionRun } from '../tdd/supervisor/sessionHarness';

/** FizzBuzz with its tests beside the code: `src/fizzbuzz.test.js` next to `src/fizzbuzz.js`. */
function besideTheCode(cycles: number): CyclePlan[] {
  const tests = [
    `test('returns the number itself for 1', () => {\n  assert.equal(fizzbuzz(1), '1');\n});\n`,
    `test('returns Fizz for multiples of three', () => {\n  assert.equal(fizzbuzz(3), 'Fizz');\n});\n`,
  ];
  const impl = [
    `export function fizzbuzz(n) {\n  return String(n);\n}\n`,
    `export function fizzbuzz(n) {\n  if (n % 3 === 0) return 'Fizz';\n  return String(n);\n}\n`,
  ];
  const head = `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { fizzbuzz } from './fizzbuzz.js';\n\n`;
  return Array.from({ length: cycles }, (_, i) => ({
    tester: {
      writes: [{ path: 'src/fizzbuzz.test.js', content: head + tests.slice(0, i + 1).join('\n') }],
      report: `behaviour ${i + 1}`,
    },
    implementer: { writes: [{ path: 'src/fizzbuzz.js', content: impl[i]! }], report: `make behaviour ${i + 1} pass` },
  }));
}

const violations = (events: SupervisorEvent[]): string[] => events.flatMap((e) => (e.type === 'violation' ? e.reasons : []));

/** Asserts that a session made `commits` commits with no role breaking a rule; returns its project profile. */
function cleanCommits(
  run: SessionRun,
  commits: number,
  why = 'no role broke a rule',
): Extract<SupervisorEvent, { type: 'project_profile' }> {
  assert.deepEqual(violations(run.events), [], why);
  assert.equal(run.summary.status, 'max_cycles', JSON.stringify(run.summary.error));
  assert.equal(run.summary.totals.commits, commits);
  const profile = run.events.find((e) => e.type === 'project_profile');
  assert.ok(profile?.type === 'project_profile');
  return profile;
}

describe('sessions in the person’s own project', function () {
  this.timeout(180_000); // a ceiling, not a target: a whole session with real runners and bwrap, on shared cores
  let h: SessionHarness;
  beforeEach(async () => {
    h = new SessionHarness();
    await h.setUp();
  });
  afterEach(() => h.cleanup());

  it('tests beside the code (src/*.test.js): the Implementer may change src/, the Tester writes tests there', async () => {
    await initPersonRepo(h.workspace, {
      'package.json': JSON.stringify({ name: 'strings', type: 'module', scripts: { test: 'node --test' } }, null, 2),
      'src/slug.js': "export const slug = (s) => s.toLowerCase().replace(/\\s+/g, '-');\n",
      'src/slug.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { slug } from './slug.js';\n\ntest('slug', () => assert.equal(slug('A b'), 'a-b'));\n",
    });
    const run = await h.run({ cycles: besideTheCode(2) }, { maxCycles: 2 });
    const profile = cleanCommits(run, 2);
    assert.equal(profile.scaffolded, false);
    assert.equal(profile.profile.testDir, 'src');
    assert.equal(profile.profile.testsBesideSource, true);
    assert.deepEqual(profile.profile.sourceRoots, ['src']);
    const files = (await h.git().raw(['ls-tree', '-r', '--name-only', run.summary.branch])).trim().split('\n').sort();
    assert.deepEqual(
      files,
      ['package.json', 'src/fizzbuzz.js', 'src/fizzbuzz.test.js', 'src/slug.js', 'src/slug.test.js'],
      'nothing scaffolded',
    );
  });

  it('a kata that says test_dir: src on an empty folder works the same way', async () => {
    const kataFile = join(h.workspace, 'beside.kata.md'); // a folder with only a kata file has no manifest: it gets a scaffold
    await writeFile(
      kataFile,
      '---\ntitle: FizzBuzz beside\nsource_dir: src\ntest_dir: src\n---\n# FizzBuzz\n\nWrite fizzbuzz(n).\n',
    );
    const run = await h.run({ cycles: besideTheCode(1) }, { kataPath: kataFile, maxCycles: 1 });
    assert.deepEqual(violations(run.events), []);
    assert.equal(run.summary.status, 'max_cycles', JSON.stringify(run.summary.error));
    assert.equal(run.summary.totals.commits, 1);
    const profile = run.events.find((e) => e.type === 'project_profile');
    assert.ok(profile?.type === 'project_profile' && profile.scaffolded);
  });

  it('the role boundaries follow tdd-agent.json’s test patterns', async () => {
    await initPersonRepo(h.workspace, {
      'package.json': JSON.stringify({ name: 'strings', type: 'module', scripts: { test: 'node --test' } }, null, 2),
      'tdd-agent.json': JSON.stringify({ testPatterns: ['src/**/*.test.js'], sourceDir: 'src', testDir: 'src' }),
      'src/slug.js': 'export const slug = (s) => s;\n',
    });
    const plans = besideTheCode(1);
    // The Tester first writes its test where the patterns do not look: that is production code, and refused.
    const run = await h.run(
      {
        cycles: plans,
        overrides: { 'tester:1:1': { writes: [{ path: 'spec/fizzbuzz.spec.js', content: 'x' }], report: 'a test' } },
      },
      { maxCycles: 1 },
    );
    assert.deepEqual(violations(run.events), [], 'the refused write changed nothing');
    const retry = contextOf(run.server, 'tester', 1, 2);
    assert.match(
      retry,
      /- write_file spec\/fizzbuzz\.spec\.js: refused by the role rules, it changed nothing: .*spec\/fizzbuzz\.spec\.js \(production code\) was added\. Test files are those matching src\/\*\*\/\*\.test\.js\./,
    );
    assert.equal(run.summary.totals.commits, 1, 'the second attempt, beside the code, went green');
    const profile = run.events.find((e) => e.type === 'project_profile');
    assert.ok(profile?.type === 'project_profile');
    assert.equal(profile.profile.fields.testFilePatterns, 'tdd-agent.json');
  });

  it('a Python package with its tests in a subpackage (wire/tests/): the Tester may add to its helpers, the Implementer writes wire/', async () => {
    await initPersonRepo(h.workspace, {
      'pyproject.toml': '[project]\nname = "wire"\nversion = "0.1.0"\n',
      'wire/__init__.py': '',
      'wire/_util.py': 'def bytesify(s):\n    return s.encode() if isinstance(s, str) else bytes(s)\n',
      'wire/tests/__init__.py': '',
      'wire/tests/helpers.py': 'def ascii(s):\n    return s.encode("ascii")\n',
      'wire/tests/test_util.py':
        'from .._util import bytesify\nfrom .helpers import ascii\n\n\ndef test_bytesify():\n    assert bytesify("a") == ascii("a")\n',
    });
    const run = await h.run(
      {
        cycles: [
          {
            tester: {
              edits: [
                {
                  path: 'wire/tests/helpers.py',
                  edits: [
                    {
                      search: 'return s.encode("ascii")\n',
                      replace: 'return s.encode("ascii")\n\n\ndef lower(s):\n    return ascii(s.lower())\n',
                    },
                  ],
                },
                {
                  path: 'wire/tests/test_util.py',
                  edits: [
                    {
                      search: 'from .._util import bytesify\nfrom .helpers import ascii\n',
                      replace: 'from .._util import bytesify, lowerify\nfrom .helpers import ascii, lower\n',
                    },
                    {
                      search: '== ascii("a")\n',
                      replace: '== ascii("a")\n\n\ndef test_lowerify():\n    assert lowerify("AbC") == lower("AbC")\n',
                    },
                  ],
                },
              ],
              report: 'lowerify lowers',
            },
            implementer: {
              edits: [
                {
                  path: 'wire/_util.py',
                  edits: [{ search: 'bytes(s)\n', replace: 'bytes(s)\n\n\ndef lowerify(s):\n    return bytesify(s).lower()\n' }],
                },
              ],
              report: 'lowerify',
            },
          },
        ],
      },
      { kataPath: undefined, task: 'Add lowerify(s)', maxCycles: 1 },
    );
    const profile = cleanCommits(run, 1, 'wire/tests/helpers.py is test support code, the Tester’s');
    assert.equal(profile.profile.testDir, 'wire/tests');
    assert.ok(profile.profile.testFilePatterns.includes('wire/tests/**'), profile.profile.testFilePatterns.join(', '));
  });

  it('pytest testpaths naming the package for its doctests (tox.ini): the Implementer may change the package', async () => {
    // sortedcontainers' shape: `testpaths = docs src/sortedcontainers tests` with --doctest-modules and .rst doctests.
    await initPersonRepo(h.workspace, {
      'pyproject.toml': '[project]\nname = "sl"\nversion = "0.1.0"\n',
      'tox.ini': '[pytest]\naddopts = --doctest-modules --doctest-glob=*.rst\ntestpaths = docs sl tests\n',
      'docs/index.rst': 'Usage\n=====\n\n    >>> from sl.core import first\n    >>> first([3, 1])\n    3\n',
      'sl/__init__.py': '',
      'sl/core.py': 'def first(xs):\n    """The first value.\n\n    >>> first([1, 2])\n    1\n    """\n    return xs[0]\n',
      'tests/test_core.py': 'from sl.core import first\n\n\ndef test_first():\n    assert first([2]) == 2\n',
    });
    const run = await h.run(
      {
        cycles: [
          {
            tester: {
              edits: [
                {
                  path: 'tests/test_core.py',
                  edits: [
                    {
                      search: 'from sl.core import first\n',
                      replace: 'from sl.core import first, last\n',
                    },
                    { search: '== 2\n', replace: '== 2\n\n\ndef test_last():\n    assert last([1, 2]) == 2\n' },
                  ],
                },
              ],
              report: 'last',
            },
            implementer: {
              edits: [
                {
                  path: 'sl/core.py',
                  edits: [
                    {
                      search: '    return xs[0]\n',
                      replace:
                        '    return xs[0]\n\n\ndef last(xs):\n    """The last value.\n\n    >>> last([1, 2])\n    2\n    """\n    return xs[-1]\n',
                    },
                  ],
                },
              ],
              report: 'last',
            },
          },
        ],
      },
      { kataPath: undefined, task: 'Add last(xs)', maxCycles: 1 },
    );
    const profile = cleanCommits(run, 1, 'sl/core.py is the code, the Implementer’s');
    assert.equal(profile.profile.testDir, 'tests');
    assert.deepEqual(profile.profile.sourceRoots, ['sl']);
  });

  it('a Tester turn that breaks a doctest page is sent back with what went wrong, not the page’s first line', async () => {
    await initPersonRepo(h.workspace, {
      'pyproject.toml': '[project]\nname = "sl"\nversion = "0.1.0"\n',
      'tox.ini': '[pytest]\naddopts = --doctest-glob=*.rst\ntestpaths = docs tests\n',
      'docs/index.rst':
        'Usage\n=====\n\nIf you need to check the first value, call first:\n\n    >>> from sl.core import first\n    >>> first([3, 1])\n    3\n',
      'sl/__init__.py': '',
      'sl/core.py': 'def first(xs):\n    return xs[0]\n',
      'tests/test_core.py': 'from sl.core import first\n\n\ndef test_first():\n    assert first([2]) == 2\n',
    });
    // The new test imports `last` in its body: a failing test, not a collection error that would hide the doctest's.
    const newTest = {
      path: 'tests/test_core.py',
      edits: [
        {
          search: '== 2\n',
          replace: '== 2\n\n\ndef test_last():\n    from sl.core import last\n\n    assert last([1, 2]) == 2\n',
        },
      ],
    };
    const run = await h.run(
      {
        cycles: [
          {
            tester: { edits: [newTest], report: 'last' },
            implementer: {
              edits: [
                { path: 'sl/core.py', edits: [{ search: 'xs[0]\n', replace: 'xs[0]\n\n\ndef last(xs):\n    return xs[-1]\n' }] },
              ],
              report: 'last',
            },
          },
        ],
        overrides: {
          'tester:1:1': {
            edits: [newTest, { path: 'docs/index.rst', edits: [{ search: '    3\n', replace: '    1\n' }] }],
            report: 'last',
            runTests: false,
          },
        },
      },
      { kataPath: undefined, task: 'Add last(xs)', maxCycles: 1 },
    );
    assert.equal(run.summary.status, 'max_cycles', JSON.stringify(run.summary.error));
    const retry = contextOf(h.server, 'tester', 1, 2);
    assert.match(
      retry,
      /made tests fail that passed before[^]*\n- docs\/index\.rst › index\.rst: Expected: 1, Got: 3 \(>>> first\(\[3, 1\]\)\)$/m,
    );
    assert.doesNotMatch(retry, /index\.rst: 00\d/, 'not the page’s numbered first line');
  });

  it('python -m unittest: a new test whose module cannot import the new name yet is red, not "the number of tests went down"', async () => {
    await initPersonRepo(h.workspace, {
      'pyproject.toml': '[project]\nname = "sl"\nversion = "0.1.0"\n',
      'sl/__init__.py': '',
      'sl/core.py': 'def first(xs):\n    return xs[0]\n',
      'tests/__init__.py': '',
      'tests/test_core.py':
        'import unittest\n\nfrom sl.core import first\n\n\nclass TestCore(unittest.TestCase):\n    def test_first(self):\n        self.assertEqual(first([2]), 2)\n\n    def test_first_of_two(self):\n        self.assertEqual(first([1, 2]), 1)\n\n    def test_first_str(self):\n        self.assertEqual(first("ab"), "a")\n',
      'tests/test_other.py':
        'import unittest\n\n\nclass TestOther(unittest.TestCase):\n    def test_a(self):\n        pass\n\n    def test_b(self):\n        pass\n',
    });
    const run = await h.run(
      {
        cycles: [
          {
            tester: {
              edits: [
                {
                  path: 'tests/test_core.py',
                  edits: [
                    { search: 'import first\n', replace: 'import first, last\n' },
                    {
                      search: '"a")\n',
                      replace: '"a")\n\n    def test_last(self):\n        self.assertEqual(last([1, 2]), 2)\n',
                    },
                  ],
                },
              ],
              report: 'last',
            },
            implementer: {
              edits: [
                { path: 'sl/core.py', edits: [{ search: 'xs[0]\n', replace: 'xs[0]\n\n\ndef last(xs):\n    return xs[-1]\n' }] },
              ],
              report: 'last',
            },
          },
        ],
      },
      { kataPath: undefined, task: 'Add last(xs)', maxCycles: 1, project: { testCommand: 'python3 -m unittest' } },
    );
    // unittest ran the module that failed to import as one failed test: 3 of the 5 tests, which read as removed tests.
    cleanCommits(run, 1, 'the Tester removed no test');
    assert.equal(run.summary.totals.tests_passed, 6);
    const red = run.events.find((e) => e.type === 'test_run_finished' && e.role === 'tester');
    assert.ok(red?.type === 'test_run_finished');
    assert.equal(red.tests.status, 'error');
    assert.match(red.reason ?? '', /'last' is imported but not exported/);
  });

  it('a test script that chains a lint with the runner: the runs are the runner’s alone, a lint error is never a red', async () => {
    await initPersonRepo(h.workspace, {
      'package.json': JSON.stringify(
        { name: 'strings', type: 'module', scripts: { test: 'npm run lint && node --test', lint: 'node lint.js' } },
        null,
        2,
      ),
      // The project's linter: no `var` in src/.
      'lint.js':
        "import { readdirSync, readFileSync } from 'node:fs';\nconst bad = readdirSync('src').filter((f) => /\\bvar\\b/.test(readFileSync(`src/${f}`, 'utf8')));\nif (bad.length) {\n  console.error(`error: var in ${bad.join(', ')}`);\n  process.exit(1);\n}\n",
      'src/slug.js': "export const slug = (s) => s.toLowerCase().replace(/\\s+/g, '-');\n",
      'src/slug.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { slug } from './slug.js';\n\ntest('slug', () => assert.equal(slug('A b'), 'a-b'));\n",
    });
    // The Tester's first test passes already and breaks the lint: an overshoot (the chain's lint failure was taken for a red).
    const lintFailing = `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\n\ntest('one is one', () => {\n  var one = 1;\n  assert.equal(one, 1);\n});\n`;
    const run = await h.run(
      {
        cycles: besideTheCode(1),
        overrides: { 'tester:1:1': { writes: [{ path: 'src/fizzbuzz.test.js', content: lintFailing }], report: 'one is one' } },
      },
      { maxCycles: 1 },
    );
    assert.equal(run.summary.status, 'max_cycles', JSON.stringify(run.summary.error));
    const profile = run.events.find((e) => e.type === 'project_profile');
    assert.ok(profile?.type === 'project_profile');
    assert.equal(profile.profile.testCommand, 'node --test');
    assert.equal(profile.profile.testRunner, 'node-test');
    assert.match(profile.profile.notes.join('\n'), /also runs `npm run lint`.*--quality-gate 'npm run lint'/);
    assert.deepEqual(
      run.events.flatMap((e) => (e.type === 'overshoot' ? [e.attempt] : [])),
      [1],
      'the lint-breaking test that passes is an overshoot',
    );
    const runs = run.events.flatMap((e) => (e.type === 'test_run_finished' ? [e] : []));
    assert.ok(
      runs.every((r) => r.command?.startsWith('node --test') && r.testCases),
      'every run is the runner’s, judged test by test',
    );
    assert.equal(run.summary.totals.commits, 1, 'the second test went red, then green');
  });

  it('a pnpm workspace opened at its root: each package’s node_modules is seen, and its code is the Implementer’s', async () => {
    const appTest = (extra = ''): string =>
      `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { greet${extra ? ', shout' : ''} } from '../src/index.js';\n\ntest('greet', () => assert.equal(greet('Ann'), 'Hello, Ann'));\n${extra}`;
    await initPersonRepo(h.workspace, {
      '.gitignore': 'node_modules\n',
      'package.json': JSON.stringify({ name: 'mono', private: true, type: 'module', scripts: { test: 'node --test' } }),
      'pnpm-workspace.yaml': 'packages:\n  - packages/*\n',
      'packages/words/package.json': JSON.stringify({ name: 'words', type: 'module', exports: './index.js' }),
      'packages/words/index.js': 'export const hello = (name) => `Hello, ${name}`;\n',
      'packages/app/package.json': JSON.stringify({ name: 'app', type: 'module', dependencies: { words: 'workspace:*' } }),
      'packages/app/src/index.js': "import { hello } from 'words';\n\nexport const greet = (name) => hello(name);\n",
      'packages/app/test/app.test.js': appTest(),
      'packages/app/test/names.js': "export const names = ['Ann'];\n",
    });
    // pnpm's install: the root's node_modules, and each package's own, where its workspace dependencies are links.
    await mkdir(join(h.workspace, 'node_modules', '.pnpm'), { recursive: true });
    await mkdir(join(h.workspace, 'packages', 'app', 'node_modules'));
    await symlink('../../words', join(h.workspace, 'packages', 'app', 'node_modules', 'words'));
    const shout = `\ntest('shout', () => assert.equal(shout('Ann'), 'HELLO, ANN'));\n`;
    const run = await h.run(
      {
        cycles: [
          {
            tester: { writes: [{ path: 'packages/app/test/app.test.js', content: appTest(shout) }], report: 'shout' },
            implementer: {
              edits: [
                {
                  path: 'packages/app/src/index.js',
                  edits: [
                    {
                      search: '(name) => hello(name);\n',
                      replace: '(name) => hello(name);\nexport const shout = (name) => greet(name).toUpperCase();\n',
                    },
                  ],
                },
              ],
              report: 'shout',
            },
          },
        ],
      },
      { maxCycles: 1 },
    );
    const profile = cleanCommits(run, 1);
    assert.equal(run.summary.cycles[0]!.tests.passed, 2);
    assert.equal(profile.profile.testDir, 'packages/app/test');
    assert.ok(profile.profile.testFilePatterns.includes('packages/app/test/**'), profile.profile.testFilePatterns.join(', '));
    assert.ok(!profile.profile.testFilePatterns.includes('packages/**'), 'the packages’ code is not tests');
  });

  it('a root test.js (node --test, ava): the Tester adds to it, the Implementer writes index.js', async () => {
    await initPersonRepo(h.workspace, {
      'package.json': JSON.stringify({ name: 'slug', type: 'module', scripts: { test: 'node --test' } }, null, 2),
      'index.js': "export const slug = (s) => s.toLowerCase().replace(/\\s+/g, '-');\n",
      'test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { slug } from './index.js';\n\ntest('slug', () => assert.equal(slug('A b'), 'a-b'));\n",
    });
    const run = await h.run(
      {
        cycles: [
          {
            tester: {
              edits: [
                {
                  path: 'test.js',
                  edits: [
                    { search: "import { slug } from './index.js';", replace: "import { slug, trim } from './index.js';" },
                    {
                      search: "'a-b'));\n",
                      replace: "'a-b'));\n\ntest('trim', () => assert.equal(trim('-a-'), 'a'));\n",
                    },
                  ],
                },
              ],
              report: 'trim takes the dashes off both ends',
            },
            implementer: {
              edits: [
                {
                  path: 'index.js',
                  edits: [{ search: "'-');\n", replace: "'-');\nexport const trim = (s) => s.replace(/^-+|-+$/g, '');\n" }],
                },
              ],
              report: 'trim',
            },
          },
        ],
      },
      { kataPath: undefined, task: 'Add trim(s)', maxCycles: 1 },
    );
    const profile = cleanCommits(run, 1, 'test.js is a test file (node --test and ava run it)');
    assert.equal(profile.profile.testDir, '.', 'new tests go where the tests are');
  });

  it('a new test file the test command does not run is not an overshoot: the Tester is told which files run', async () => {
    await initPersonRepo(h.workspace, {
      // The script names its one test file (mime-types' `mocha --reporter spec test/test.js`).
      'package.json': JSON.stringify({ name: 'slug', type: 'module', scripts: { test: 'node --test test/test.js' } }, null, 2),
      'index.js': "export const slug = (s) => s.toLowerCase().replace(/\\s+/g, '-');\n",
      'test/test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { slug } from '../index.js';\n\ntest('slug', () => assert.equal(slug('A b'), 'a-b'));\n",
    });
    const trimTest =
      "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport * as m from '../index.js';\n\ntest('trim', () => assert.equal(m.trim?.('-a-'), 'a'));\n";
    const run = await h.run(
      {
        cycles: [
          {
            tester: {
              edits: [
                {
                  path: 'test/test.js',
                  edits: [
                    { search: "'a-b'));\n", replace: "'a-b'));\n\ntest('trim', () => assert.equal(m.trim?.('-a-'), 'a'));\n" },
                    {
                      search: "import { slug } from '../index.js';",
                      replace: "import * as m from '../index.js';\nconst { slug } = m;",
                    },
                  ],
                },
              ],
              report: 'trim',
            },
            implementer: {
              edits: [
                {
                  path: 'index.js',
                  edits: [{ search: "'-');\n", replace: "'-');\nexport const trim = (s) => s.replace(/^-+|-+$/g, '');\n" }],
                },
              ],
              report: 'trim',
            },
          },
        ],
        overrides: { 'tester:1:1': { writes: [{ path: 'test/trim.js', content: trimTest }], report: 'trim' } },
      },
      { kataPath: undefined, task: 'Add trim(s)', maxCycles: 1 },
    );
    assert.deepEqual(
      run.events.filter((e) => e.type === 'overshoot'),
      [],
      'a test that never ran did not pass',
    );
    const hint = contextOf(run.server, 'tester', 1, 2);
    assert.match(hint, /test\/trim\.js did not run: `node --test test\/test\.js` runs test\/test\.js/);
    assert.equal(run.summary.totals.commits, 1, 'the test added to test/test.js went red, then green');
  });

  describe('a virtual environment the person keeps outside the repository', () => {
    let elsewhere: string;
    const saved = process.env.VIRTUAL_ENV;
    beforeEach(async () => {
      elsewhere = await mkdtemp(join(tmpdir(), 'tdd-person-env-'));
      await initPersonRepo(h.workspace, {
        '.gitignore': '.venv\n',
        'pyproject.toml': '[project]\nname = "sl"\nversion = "0.1.0"\ndependencies = []\n',
        'sl/__init__.py': '',
        'sl/core.py': 'def first(xs):\n    return xs[0]\n',
        'tests/test_core.py': 'from sl.core import first\n\n\ndef test_first():\n    assert first([2]) == 2\n',
      });
    });
    afterEach(async () => {
      if (saved === undefined) delete process.env.VIRTUAL_ENV;
      else process.env.VIRTUAL_ENV = saved;
      await rm(elsewhere, { recursive: true, force: true });
    });
    // pytest comes from this machine's Python (--system-site-packages); the environment is a real one.
    const venv = (path: string): void => void execFileSync('python3', ['-m', 'venv', '--system-site-packages', path]);

    async function lastCycle(): Promise<SessionRun> {
      return h.run(
        {
          cycles: [
            {
              tester: {
                edits: [
                  {
                    path: 'tests/test_core.py',
                    edits: [
                      {
                        search: 'import first\n',
                        replace: 'import first, last\n\n\ndef test_last():\n    assert last([1, 2]) == 2\n',
                      },
                    ],
                  },
                ],
                report: 'last',
              },
              implementer: {
                edits: [
                  {
                    path: 'sl/core.py',
                    edits: [{ search: 'xs[0]\n', replace: 'xs[0]\n\n\ndef last(xs):\n    return xs[-1]\n' }],
                  },
                ],
                report: 'last',
              },
            },
          ],
        },
        { kataPath: undefined, task: 'Add last(xs)', maxCycles: 1 },
      );
    }

    it('an activated VIRTUAL_ENV elsewhere, beside a .venv of the repository: its interpreter runs in the sandbox, unchanged', async () => {
      venv(join(elsewhere, 'env'));
      venv(join(h.workspace, '.venv'));
      process.env.VIRTUAL_ENV = join(elsewhere, 'env');
      const before = await treeDigest(join(elsewhere, 'env'));
      // The profile took the activated environment, the sandbox showed the repository's: "…/env/bin/python: not found".
      const profile = cleanCommits(await lastCycle(), 1);
      assert.equal(profile.profile.python?.venv, join(elsewhere, 'env'));
      assert.equal(await treeDigest(join(elsewhere, 'env')), before, 'nothing was written to the environment');
    });

    it('a .venv that links to a folder elsewhere: the tests run with it, unchanged', async () => {
      delete process.env.VIRTUAL_ENV;
      venv(join(elsewhere, 'env'));
      await symlink(join(elsewhere, 'env'), join(h.workspace, '.venv'));
      const before = await treeDigest(join(elsewhere, 'env'));
      // The test command named <repo>/.venv/bin/python, a path the sandbox does not show: "…/.venv/bin/python: not found".
      const profile = cleanCommits(await lastCycle(), 1);
      assert.equal(profile.profile.python?.venv, join(elsewhere, 'env'));
      assert.equal(await treeDigest(join(elsewhere, 'env')), before, 'nothing was written to the environment');
    });
  });

  it('pnpm’s run of a name pattern (zustand’s pnpm run "/^test:.*/"): the runner’s script runs, without pnpm or the checks', async () => {
    const scripts = {
      test: 'pnpm run "/^test:.*/"',
      'test:lint': 'eslint .',
      'test:types': 'tsc --noEmit',
      'test:spec': 'node --test',
    };
    await initPersonRepo(h.workspace, {
      'package.json': JSON.stringify({ name: 'store', type: 'module', scripts }, null, 2),
      'src/slug.js': "export const slug = (s) => s.toLowerCase().replace(/\\s+/g, '-');\n",
      'src/slug.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { slug } from './slug.js';\n\ntest('slug', () => assert.equal(slug('A b'), 'a-b'));\n",
    });
    const run = await h.run({ cycles: besideTheCode(1) }, { maxCycles: 1 });
    const profile = cleanCommits(run, 1, 'the baseline ran: no pnpm started in the sandbox');
    assert.equal(profile.profile.testCommand, 'node --test');
    assert.ok(
      profile.profile.notes.some((n) => n.includes('`pnpm run test:lint`, `pnpm run test:types`')),
      profile.profile.notes.join('\n'),
    );
  });

  it("a project's virtual environment without pytest is refused before anything is created, naming its interpreter", async () => {
    await writeFile(join(h.workspace, 'pyproject.toml'), '[project]\nname = "p"\n');
    const python = join(h.workspace, '.venv', 'bin', 'python');
    await mkdir(join(h.workspace, '.venv', 'bin'), { recursive: true });
    // A Python whose `import pytest` fails (exit 1), whatever this machine has installed.
    await writeFile(python, '#!/bin/sh\nif [ "$1" = "-c" ]; then exit 1; fi\nexec python3 "$@"\n');
    await chmod(python, 0o755);
    await assert.rejects(
      runKataSession({ workspace: h.workspace, task: 'Add a helper', llm: h.llm(), model: 'test-model', provider: 'openai' }),
      (err: { error_code?: string; message?: string }) => {
        assert.equal(err.error_code, 'CONFIG');
        assert.match(err.message!, new RegExp(`pytest is not installed for ${python.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
        return true;
      },
    );
    await assert.rejects(readFile(join(h.workspace, '.git', 'HEAD')), 'no repository was created');
  });
});
