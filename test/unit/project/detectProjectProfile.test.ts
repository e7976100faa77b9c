import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import {
  describeProjectProfile,
  detectProjectProfile,
  matchesTestPattern,
  resolveProjectProfile,
} from '../../../src/core/project';
import { json, ProjectFixtures } from './projectFixtures';

/** No activated virtual environment, whatever the machine running the tests has. */
const ENV = { PATH: process.env.PATH };

describe('project profile: detection from the repository', () => {
  const fx = new ProjectFixtures();
  after(() => fx.cleanup());

  it('a pnpm + vitest TypeScript library with tests beside the source', async () => {
    const root = await fx.make({
      'package.json': json({
        name: 'slugs',
        type: 'module',
        scripts: { test: 'vitest run', build: 'tsc' },
        devDependencies: { vitest: '^2.1.0', typescript: '^5.6.0' },
      }),
      'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
      'tsconfig.json': json({ compilerOptions: { strict: true } }),
      'vitest.config.ts':
        "import { defineConfig } from 'vitest/config';\nexport default defineConfig({\n  test: {\n    coverage: { include: ['src/**'] },\n    include: ['src/**/*.test.ts'],\n  },\n});\n",
      'src/index.ts': 'export const slug = (s: string) => s;\n',
      'src/index.test.ts': "import { test } from 'vitest';\ntest('x', () => {});\n",
      'src/nested/deep.test.ts': '',
    });
    const p = await detectProjectProfile(root, { env: ENV });
    assert.equal(p.root, root);
    assert.equal(p.language, 'typescript');
    assert.deepEqual(p.languages, ['typescript']);
    assert.equal(p.packageManager, 'pnpm');
    assert.equal(p.testRunner, 'vitest');
    assert.equal(p.testCommand, 'vitest run');
    assert.deepEqual(p.testFilePatterns, ['src/**/*.test.ts'], "vitest's test.include, not coverage.include");
    assert.deepEqual(p.sourceRoots, ['src']);
    assert.equal(p.testDir, 'src');
    assert.equal(p.testsBesideSource, true);
    assert.deepEqual(p.manifests, ['package.json']);
    assert.deepEqual(p.readFrom, ['package.json', 'vitest.config.ts', 'tsconfig.json', 'pnpm-lock.yaml']);
    assert.deepEqual(p.fields, {
      language: 'detected',
      packageManager: 'detected',
      testRunner: 'detected',
      testCommand: 'detected',
      testFilePatterns: 'detected',
      sourceRoots: 'detected',
      testDir: 'detected',
    });
    assert.equal(p.python, undefined);
    const text = describeProjectProfile(p);
    assert.equal(
      text.summary,
      'TypeScript, pnpm, vitest (`vitest run`), tests: src/**/*.test.ts beside the code in src/, source: src/',
    );
    assert.equal(text.origin, 'from package.json, vitest.config.ts, tsconfig.json, pnpm-lock.yaml');
  });

  it('a jest + ts-jest library with its own test script and testMatch in jest.config.js', async () => {
    const root = await fx.make({
      'package.json': json({
        name: 'dates',
        scripts: { test: 'jest --coverage' },
        devDependencies: { jest: '^29.7.0', 'ts-jest': '^29.2.0', typescript: '^5.6.0' },
      }),
      'package-lock.json': json({ lockfileVersion: 3 }),
      'jest.config.js': "module.exports = {\n  preset: 'ts-jest',\n  testMatch: ['<rootDir>/test/**/*.spec.ts'],\n};\n",
      'lib/dates.ts': '',
      'test/dates.spec.ts': '',
      'test/helpers.ts': '',
    });
    const p = await detectProjectProfile(root, { env: ENV });
    assert.equal(p.language, 'typescript');
    assert.equal(p.packageManager, 'npm');
    assert.equal(p.fields.packageManager, 'detected');
    assert.equal(p.testRunner, 'jest');
    assert.equal(p.testCommand, 'jest --coverage');
    assert.deepEqual(p.sourceRoots, ['lib']);
    assert.equal(p.testDir, 'test');
    assert.equal(p.testsBesideSource, false);
    assert.deepEqual(p.testFilePatterns, ['test/**/*.spec.ts', 'test/**'], 'the test folder holds test support code too');
    assert.ok(p.readFrom.includes('jest.config.js'));
  });

  it('a test script that chains lint and type checks with vitest (unjs): the runner’s step, and a note naming the checks', async () => {
    const root = await fx.make({
      'package.json': json({
        name: 'defu',
        scripts: {
          lint: 'oxlint src && oxfmt --check src test',
          'test:types': 'tsgo --noEmit',
          test: 'pnpm lint && pnpm test:types && pnpm vitest run',
        },
        devDependencies: { vitest: '^4.1.2', typescript: '^6.0.2' },
        packageManager: 'pnpm@10.33.0',
      }),
      'src/defu.ts': '',
      'test/defu.test.ts': '',
      'test/fixtures/index.ts': '',
    });
    const p = await detectProjectProfile(root, { env: ENV });
    assert.equal(p.testRunner, 'vitest');
    assert.equal(p.testCommand, 'vitest run', 'the package’s own vitest, without pnpm');
    assert.equal(p.fields.testCommand, 'detected');
    assert.equal(p.testDir, 'test');
    assert.match(
      p.notes.join('\n'),
      /also runs `pnpm lint`, `pnpm test:types`: the session's test runs are `vitest run` alone.*--quality-gate 'pnpm lint' --quality-gate 'pnpm test:types'/,
    );
  });

  it('a monorepo’s root (packages/*): each package’s test folder is tests, the packages’ code is not', async () => {
    const root = await fx.make({
      'package.json': json({ private: true, scripts: { test: 'pnpm -r test' }, devDependencies: { vitest: '^3.2.0' } }),
      'pnpm-workspace.yaml': 'packages:\n  - packages/*\n',
      'packages/core/package.json': json({ name: 'core', scripts: { test: 'vitest run' } }),
      'packages/core/src/index.ts': '',
      'packages/core/test/a.test.ts': '',
      'packages/core/test/b.test.ts': '',
      'packages/core/test/fixtures/input.json': '{}',
      'packages/cli/package.json': json({ name: 'cli', scripts: { test: 'vitest run' } }),
      'packages/cli/src/index.ts': '',
      'packages/cli/test/cli.test.ts': '',
    });
    const p = await detectProjectProfile(root, { env: ENV });
    assert.equal(p.testDir, 'packages/core/test');
    assert.equal(p.testsBesideSource, false);
    assert.deepEqual(p.testFilePatterns, ['**/*.{test,spec}.?(c|m)[jt]s?(x)', 'packages/core/test/**', 'packages/cli/test/**']);
    assert.ok(!matchesTestPattern('packages/cli/src/index.ts', p.testFilePatterns), 'a package’s code is not a test');
    assert.ok(matchesTestPattern('packages/core/test/fixtures/input.json', p.testFilePatterns));

    // Tests beside each package's code: the folder of the packages is not a test folder.
    const beside = await fx.make({
      'package.json': json({
        private: true,
        workspaces: ['packages/*'],
        scripts: { test: 'vitest run' },
        devDependencies: { vitest: '^3.2.0' },
      }),
      'packages/core/package.json': json({ name: 'core' }),
      'packages/core/src/index.ts': '',
      'packages/core/src/index.test.ts': '',
    });
    const q = await detectProjectProfile(beside, { env: ENV });
    assert.equal(q.testsBesideSource, true);
    assert.deepEqual(q.testFilePatterns, ['**/*.{test,spec}.?(c|m)[jt]s?(x)']);
    assert.ok(!matchesTestPattern('packages/core/src/index.ts', q.testFilePatterns));
  });

  it('jest configured in package.json, without a test script: the runner from the configuration', async () => {
    const root = await fx.make({
      'package.json': json({
        name: 'x',
        scripts: { test: 'echo "Error: no test specified" && exit 1' },
        jest: { testMatch: ['**/*.check.js'] },
      }),
      'index.js': '',
    });
    const p = await detectProjectProfile(root, { env: ENV });
    assert.equal(p.language, 'javascript');
    assert.equal(p.testRunner, 'jest');
    assert.equal(p.testCommand, 'jest');
    assert.deepEqual(p.testFilePatterns, ['**/*.check.js']);
    assert.deepEqual(p.sourceRoots, ['.'], 'no src/ or lib/: the code sits at the root');
    assert.match(p.notes.join('\n'), /no test script \(only npm's placeholder\): the tests run with 'jest'/);
  });

  it('a pure-Python src-layout library with pytest configured in pyproject.toml', async () => {
    const root = await fx.make({
      'pyproject.toml':
        '[project]\nname = "sqlhelpers"\nversion = "0.1.0"\n\n[project.optional-dependencies]\ntest = ["pytest>=8"]\n\n' +
        '[tool.pytest.ini_options]\ntestpaths = [\n  \'tests\',  # the suite\n]\naddopts = "-q"\n',
      'src/sqlhelpers/__init__.py': '',
      'src/sqlhelpers/keys.py': '',
      'tests/test_keys.py': '',
      'tests/conftest.py': '',
    });
    const p = await detectProjectProfile(root, { env: ENV });
    assert.equal(p.language, 'python');
    assert.deepEqual(p.languages, ['python']);
    assert.equal(p.packageManager, undefined);
    assert.deepEqual(p.python, { interpreter: 'python3' });
    assert.equal(p.testRunner, 'pytest');
    assert.equal(p.testCommand, 'python3 -m pytest');
    assert.deepEqual(p.testFilePatterns, ['tests/**']);
    assert.deepEqual(p.sourceRoots, ['src/sqlhelpers']);
    assert.equal(p.testDir, 'tests');
    assert.equal(p.testsBesideSource, false);
    assert.deepEqual(p.manifests, ['pyproject.toml']);
    assert.equal(p.fields.testCommand, 'detected');
    assert.equal(
      describeProjectProfile(p).summary,
      'Python, pytest (`python3 -m pytest`), tests: tests/** in tests/, source: src/sqlhelpers/',
    );
  });

  it('a flat Python library: the package at the root, pytest settings in setup.cfg, tests at the root', async () => {
    const root = await fx.make({
      'setup.py': 'from setuptools import setup\nsetup(name="flat")\n',
      'setup.cfg': '[metadata]\nname = flat\n\n[tool:pytest]\npython_files =\n    check_*.py\n    *_check.py\n',
      'flat/__init__.py': '',
      'docs/__init__.py': '',
      'check_flat.py': '',
    });
    const p = await detectProjectProfile(root, { env: ENV });
    assert.equal(p.language, 'python');
    assert.deepEqual(p.manifests, ['setup.cfg', 'setup.py']);
    assert.deepEqual(p.testFilePatterns, ['check_*.py', '*_check.py']);
    assert.deepEqual(p.sourceRoots, ['flat'], 'docs/ is no package of the library');
    assert.equal(p.testDir, '.');
    assert.equal(p.testsBesideSource, true);
  });

  it('a flat package with its tests in a subpackage of its own (h11/tests/): that folder is the tests’, helpers included', async () => {
    const root = await fx.make({
      'setup.py': 'from setuptools import setup\nsetup(name="wire")\n',
      'wire/__init__.py': '',
      'wire/_util.py': '',
      'wire/tests/__init__.py': '',
      'wire/tests/helpers.py': '',
      'wire/tests/data/request.txt': '',
      'wire/tests/test_util.py': '',
      'wire/tests/test_io.py': '',
    });
    const p = await detectProjectProfile(root, { env: ENV });
    assert.deepEqual(p.sourceRoots, ['wire']);
    assert.equal(p.testDir, 'wire/tests');
    assert.equal(p.testsBesideSource, false);
    assert.deepEqual(p.testFilePatterns, ['test_*.py', '*_test.py', 'wire/tests/**']);
    for (const support of ['wire/tests/helpers.py', 'wire/tests/__init__.py', 'wire/tests/data/request.txt'])
      assert.ok(matchesTestPattern(support, p.testFilePatterns), support);
    assert.ok(!matchesTestPattern('wire/_util.py', p.testFilePatterns));
  });

  it('a flat library of modules only: the root is the source', async () => {
    const root = await fx.make({ 'pyproject.toml': '[project]\nname = "one"\n', 'one.py': '', 'test_one.py': '' });
    const p = await detectProjectProfile(root, { env: ENV });
    assert.deepEqual(p.sourceRoots, ['.']);
    assert.deepEqual(p.testFilePatterns, ['test_*.py', '*_test.py']);
    assert.equal(p.testDir, '.');
  });

  it('an empty folder: the defaults of a new project, from nothing', async () => {
    const root = await fx.make();
    const p = await detectProjectProfile(root, { env: ENV });
    assert.equal(p.language, 'javascript');
    assert.deepEqual(p.languages, []);
    assert.deepEqual(p.manifests, []);
    assert.equal(p.packageManager, 'npm');
    assert.equal(p.testCommand, 'node --test');
    assert.equal(p.testRunner, 'node-test');
    assert.deepEqual(p.sourceRoots, ['src']);
    assert.equal(p.testDir, 'test');
    assert.ok(p.testFilePatterns.includes('test/**'));
    assert.ok(
      Object.values(p.fields).every((source) => source === 'default'),
      JSON.stringify(p.fields),
    );
    assert.equal(
      describeProjectProfile(p, { scaffolded: true }).origin,
      'a new project (the session wrote a minimal JavaScript project)',
    );
  });

  it('a folder that does not exist yet reads as an empty one', async () => {
    const p = await detectProjectProfile(join(await fx.make(), 'not-yet'), { env: ENV });
    assert.deepEqual(p.manifests, []);
  });

  it('a folder with only requirements.txt is a Python project: pytest, the root as the source', async () => {
    const root = await fx.make({ 'requirements-dev.txt': 'pytest==8.3.3\n' });
    const p = await detectProjectProfile(root, { env: ENV });
    assert.equal(p.language, 'python');
    assert.deepEqual(p.manifests, ['requirements-dev.txt']);
    assert.equal(p.testCommand, 'python3 -m pytest');
    assert.deepEqual(p.sourceRoots, ['.']);
    assert.equal(p.testDir, 'tests', 'nothing says: pytest’s habit');
    assert.equal(p.fields.testDir, 'default');
  });

  it('yarn, bun and the packageManager field name the package manager; the field wins over a lockfile', async () => {
    const base = { 'package.json': json({ name: 'x', scripts: { test: 'node --test' } }) };
    assert.equal((await detectProjectProfile(await fx.make({ ...base, 'yarn.lock': '' }), { env: ENV })).packageManager, 'yarn');
    assert.equal((await detectProjectProfile(await fx.make({ ...base, 'bun.lockb': '' }), { env: ENV })).packageManager, 'bun');
    const field = await detectProjectProfile(
      await fx.make({
        'package.json': json({ name: 'x', packageManager: 'pnpm@9.12.0+sha512.abc', scripts: { test: 'node --test' } }),
        'package-lock.json': '{}',
      }),
      { env: ENV },
    );
    assert.equal(field.packageManager, 'pnpm');
    assert.equal(field.testRunner, 'node-test');
    const none = await detectProjectProfile(await fx.make(base), { env: ENV });
    assert.equal(none.packageManager, 'npm');
    assert.equal(none.fields.packageManager, 'default', 'no lockfile: npm by default');
    assert.equal(
      describeProjectProfile(none).summary.startsWith('JavaScript, node:test'),
      true,
      'a default package manager is not shown',
    );
  });

  it('a package.json that is not JSON is a CONFIG error naming it', async () => {
    const root = await fx.make({ 'package.json': '{ "name": ' });
    await assert.rejects(detectProjectProfile(root, { env: ENV }), (err: { error_code?: string; message?: string }) => {
      assert.equal(err.error_code, 'CONFIG');
      assert.match(err.message!, /package\.json in .* is not a valid JSON object/);
      return true;
    });
  });

  it('testpaths with a docs folder first: new tests go where the test modules are, not among the docs', async () => {
    // python-semver's .pytest.ini (`testpaths = tests docs`, doctests in the .rst pages) and sortedcontainers' tox.ini.
    const root = await fx.make({
      'pyproject.toml': '[project]\nname = "semver"\nversion = "3.0.0"\n',
      '.pytest.ini': '[pytest]\ntestpaths = docs tests\naddopts = --doctest-glob=*.rst --doctest-modules\n',
      'src/semver/__init__.py': '',
      'src/semver/version.py': '',
      'tests/conftest.py': '',
      'tests/test_bump.py': '',
      'tests/test_parsing.py': '',
      'docs/conf.py': '',
      'docs/index.rst': '',
      'docs/usage/parse.rst': '',
      'docs/usage/bump.rst': '',
      'docs/usage/compare.rst': '',
      'docs/_static/logo.png': '',
    });
    const p = await detectProjectProfile(root, { env: ENV });
    assert.deepEqual(p.testFilePatterns, ['docs/**', 'tests/**']);
    assert.equal(p.testDir, 'tests');
  });

  it('testpaths naming the package (for --doctest-modules) leave its code to the Implementer', async () => {
    // sortedcontainers' tox.ini: `testpaths = docs src/sortedcontainers tests` with `--doctest-modules`.
    const root = await fx.make({
      'pyproject.toml': '[project]\nname = "sortedcontainers"\n',
      'tox.ini': '[pytest]\naddopts = --doctest-modules\ntestpaths=docs src/sortedcontainers tests\n',
      'src/sortedcontainers/__init__.py': '',
      'src/sortedcontainers/sortedlist.py': '',
      'tests/test_sortedlist.py': '',
      'docs/index.rst': '',
    });
    const p = await detectProjectProfile(root, { env: ENV });
    assert.deepEqual(p.sourceRoots, ['src/sortedcontainers']);
    assert.equal(p.testDir, 'tests');
    assert.equal(p.testsBesideSource, false);
    assert.ok(!matchesTestPattern('src/sortedcontainers/sortedlist.py', p.testFilePatterns), p.testFilePatterns.join(' '));
    assert.ok(matchesTestPattern('src/sortedcontainers/test_inline.py', p.testFilePatterns), 'a test module there is a test');
    assert.ok(matchesTestPattern('tests/helpers.py', p.testFilePatterns));
    assert.ok(matchesTestPattern('docs/index.rst', p.testFilePatterns));
  });

  it('testpaths = . (or src) make test modules tests, not every file', async () => {
    for (const [config, code] of [
      ['[tool.pytest.ini_options]\ntestpaths = ["."]\n', 'pkg/core.py'],
      ['[tool.pytest.ini_options]\ntestpaths = ["src"]\n', 'src/pkg/core.py'],
    ] as const) {
      const root = await fx.make({
        'pyproject.toml': `[project]\nname = "pkg"\n\n${config}`,
        [code]: '',
        [code.replace('core.py', '__init__.py')]: '',
        [code.replace('core.py', 'tests/__init__.py')]: '',
        [code.replace('core.py', 'tests/test_core.py')]: '',
        [code.replace('core.py', 'tests/helpers.py')]: '',
      });
      const p = await detectProjectProfile(root, { env: ENV });
      assert.ok(!matchesTestPattern(code, p.testFilePatterns), `${config}: ${p.testFilePatterns.join(' ')}`);
      assert.ok(matchesTestPattern(code.replace('core.py', 'tests/helpers.py'), p.testFilePatterns), config);
      assert.equal(p.testDir, code.replace('/core.py', '/tests'));
    }
  });

  it('testpaths naming only folders without test modules: the first of them', async () => {
    const root = await fx.make({
      'setup.cfg': '[tool:pytest]\ntestpaths = docs\naddopts = --doctest-glob=*.rst\n',
      'docs/index.rst': '',
      'docs/api.rst': '',
      'lib/a.py': '',
    });
    const p = await detectProjectProfile(root, { env: ENV });
    assert.equal(p.testDir, 'docs');
  });

  it('a pyproject.toml that is not TOML is a note, and pytest decides', async () => {
    const root = await fx.make({ 'pyproject.toml': '[tool.pytest.ini_options\ntestpaths = ["t"]\n', 'tests/test_a.py': '' });
    const p = await detectProjectProfile(root, { env: ENV });
    assert.equal(p.language, 'python');
    assert.match(p.notes.join('\n'), /pyproject\.toml is not valid TOML \(line 1\)/);
    assert.deepEqual(p.testFilePatterns, ['test_*.py', '*_test.py', 'tests/**']);
  });

  it('a repository with Python and a package.json for tooling only is a Python project', async () => {
    const root = await fx.make({
      'package.json': json({ name: 'tooling', devDependencies: { prettier: '^3' } }),
      'pyproject.toml': '[tool.pytest.ini_options]\ntestpaths = "tests"\n',
    });
    const p = await detectProjectProfile(root, { env: ENV });
    assert.equal(p.language, 'python');
    assert.deepEqual(p.languages, ['javascript', 'python']);
    assert.deepEqual(p.testFilePatterns, ['tests/**'], 'testpaths as one string, split like pytest does');
  });

  it('a JavaScript project without any runner gets node --test and a note saying how to change it', async () => {
    const root = await fx.make({ 'package.json': json({ name: 'bare' }), 'lib/a.js': '' });
    const p = await detectProjectProfile(root, { env: ENV });
    assert.equal(p.testCommand, 'node --test');
    assert.equal(p.fields.testCommand, 'default');
    assert.match(
      p.notes.join('\n'),
      /names no test runner: the tests run with 'node --test'\. Add a test script, or pass --test-command/,
    );
  });

  it('a mocha project reads spec from .mocharc.yml', async () => {
    const root = await fx.make({
      'package.json': json({ name: 'm', scripts: { test: 'mocha' }, devDependencies: { mocha: '^10' } }),
      '.mocharc.yml': "spec: 'spec/**/*.spec.js'\n",
      'src/a.js': '',
    });
    const p = await detectProjectProfile(root, { env: ENV });
    assert.equal(p.testRunner, 'mocha');
    assert.deepEqual(p.testFilePatterns, ['spec/**/*.spec.js', 'spec/**']);
    assert.equal(p.testDir, 'spec');
  });

  it('a vitest include that is computed is not guessed at: the defaults, and a note', async () => {
    const root = await fx.make({
      'package.json': json({ name: 'v', scripts: { test: 'vitest' }, devDependencies: { vitest: '^2' } }),
      'vitest.config.mts': 'const files = ["a"];\nexport default { test: { include: files } };\n',
    });
    const p = await detectProjectProfile(root, { env: ENV });
    assert.deepEqual(p.testFilePatterns.slice(0, 1), ['**/*.{test,spec}.?(c|m)[jt]s?(x)']);
    assert.match(p.notes.join('\n'), /vitest\.config\.mts sets the test files in a way that is not read here/);
  });

  it('the patterns found recognise the project’s own test files and not its code', async () => {
    const root = await fx.make({
      'package.json': json({ name: 'j', scripts: { test: 'jest' }, devDependencies: { jest: '^29' } }),
    });
    const p = await detectProjectProfile(root, { env: ENV });
    for (const test of ['src/__tests__/a.ts', 'src/a.test.tsx', 'a.spec.js', 'deep/x/y.test.mjs'])
      assert.ok(matchesTestPattern(test, p.testFilePatterns), test);
    for (const code of ['src/a.ts', 'src/testing.ts', 'index.js']) assert.ok(!matchesTestPattern(code, p.testFilePatterns), code);
  });
});

describe('project profile: overrides (flag > tdd-agent.json > kata > detected)', () => {
  const fx = new ProjectFixtures();
  after(() => fx.cleanup());
  const vitestLibrary = {
    'package.json': json({ name: 'v', scripts: { test: 'vitest run' }, devDependencies: { vitest: '^2', typescript: '^5' } }),
    'src/a.ts': '',
    'src/a.test.ts': '',
  };

  it('each field takes the strongest source and remembers it', async () => {
    const root = await fx.make({
      ...vitestLibrary,
      'tdd-agent.json':
        '{\n  // the integration tests are slow\n  "testCommand": "vitest run --project unit",\n  "testDir": "src",\n  /* where code goes */ "sourceDir": "src/core"\n}\n',
    });
    const p = await resolveProjectProfile(root, {
      env: ENV,
      kata: { sourceDir: 'lib', testCommand: 'npx vitest' },
      overrides: { testFilePatterns: ['src/**/*.unit.test.ts'], source: 'flag' },
    });
    assert.equal(p.testCommand, 'vitest run --project unit');
    assert.equal(p.testRunner, 'vitest');
    assert.deepEqual(p.sourceRoots, ['src/core'], 'tdd-agent.json beats the kata');
    assert.deepEqual(p.testFilePatterns, ['src/**/*.unit.test.ts']);
    assert.equal(p.testDir, 'src');
    assert.deepEqual(p.fields, {
      language: 'detected',
      packageManager: 'default',
      testRunner: 'tdd-agent.json',
      testCommand: 'tdd-agent.json',
      testFilePatterns: 'flag',
      sourceRoots: 'tdd-agent.json',
      testDir: 'tdd-agent.json',
    });
    assert.ok(p.readFrom.includes('tdd-agent.json'));
    assert.equal(
      describeProjectProfile(p).origin,
      'from package.json; test command, source folder, test folder from tdd-agent.json; test patterns from flags',
    );
  });

  it('a flag beats tdd-agent.json, a setting sits between them', async () => {
    const root = await fx.make({ ...vitestLibrary, 'tdd-agent.json': json({ testCommand: 'from-json', sourceDir: 'json' }) });
    const p = await resolveProjectProfile(root, {
      env: ENV,
      overrides: [
        { testCommand: 'from-setting', sourceDir: 'setting', source: 'setting' },
        { testCommand: 'from-flag', source: 'flag' },
      ],
    });
    assert.equal(p.testCommand, 'from-flag');
    assert.equal(p.fields.testCommand, 'flag');
    assert.deepEqual(p.sourceRoots, ['setting']);
    assert.equal(p.fields.sourceRoots, 'setting');
  });

  it('the kata’s own folders and command win over detection, only while it is in the chosen language', async () => {
    const root = await fx.make(vitestLibrary);
    const kata = await resolveProjectProfile(root, { env: ENV, kata: { testDir: 'spec', testCommand: 'npm run spec' } });
    assert.equal(kata.testCommand, 'npm run spec');
    assert.equal(kata.fields.testCommand, 'kata');
    assert.equal(kata.testDir, 'spec');
    assert.ok(kata.testFilePatterns.includes('spec/**'), "the kata's test folder counts as tests");

    const python = await resolveProjectProfile(root, { env: ENV, kata: { language: 'python', sourceDir: 'py' } });
    assert.equal(python.language, 'python');
    assert.equal(python.fields.language, 'kata');
    assert.equal(python.testCommand, 'python3 -m pytest');
    assert.deepEqual(python.sourceRoots, ['py']);
    assert.match(python.notes.join('\n'), /works in python, but the repository's manifests \(package\.json\) are for typescript/);

    const flagged = await resolveProjectProfile(root, {
      env: ENV,
      kata: { language: 'python', sourceDir: 'py', testCommand: 'pytest -q' },
      overrides: { language: 'typescript' },
    });
    assert.equal(flagged.language, 'typescript');
    assert.equal(flagged.testCommand, 'vitest run', "the kata's Python command does not apply to TypeScript");
    assert.deepEqual(flagged.sourceRoots, ['src']);
  });

  it('tdd-agent.json: unknown keys, bad values and broken JSON are CONFIG errors naming the file and field', async () => {
    const cases: Array<[string, RegExp]> = [
      [
        json({ testComand: 'x' }),
        /tdd-agent\.json: unknown field 'testComand' \(known: \$schema, language, testCommand, testPatterns, sourceDir, testDir\)/,
      ],
      [json({ language: 'cobol' }), /tdd-agent\.json: field 'language': /],
      [json({ sourceDir: '../elsewhere' }), /field 'sourceDir': must not contain '\.\.'/],
      [json({ testDir: '/abs' }), /field 'testDir': must be relative to the repository root/],
      [json({ testPatterns: [] }), /field 'testPatterns': must list at least one pattern/],
      [json({ testPatterns: ['ok/**', '.git/**'] }), /field 'testPatterns\.1': must not point into \.git or \.tdd/],
      [json({ testCommand: '  ' }), /field 'testCommand': must not be empty/],
      ['{\n  "testCommand": "x"\n  "testDir": "t"\n}\n', /tdd-agent\.json is not valid JSON \(line 3, column \d+\)/],
      [json(['x']), /tdd-agent\.json: /],
    ];
    for (const [content, message] of cases) {
      const root = await fx.make({ 'tdd-agent.json': content });
      await assert.rejects(
        resolveProjectProfile(root, { env: ENV }),
        (err: { error_code?: string; message?: string; details?: { file?: string } }) => {
          assert.equal(err.error_code, 'CONFIG', content);
          assert.match(err.message!, message);
          assert.equal(err.details?.file, join(root, 'tdd-agent.json'));
          return true;
        },
      );
    }
  });

  it('tdd-agent.json is only read by resolveProjectProfile, not by detection alone', async () => {
    const root = await fx.make({ ...vitestLibrary, 'tdd-agent.json': json({ language: 'python' }) });
    assert.equal((await detectProjectProfile(root, { env: ENV })).language, 'typescript');
    assert.equal((await resolveProjectProfile(root, { env: ENV })).language, 'python');
  });
});
