import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runnerCall, runnerInvocation } from '../../../src/core/testRunners/reports/reportCommand';
import { runnerArguments } from '../../../src/core/testRunners/subsets/runnerArguments';
import { subsetCommand, type SubsetFiles } from '../../../src/core/testRunners/subsets/subsetCommand';
import { existingSubsetFiles, mochaConfigNamesSpec } from '../../../src/core/testRunners/subsets/subsetFiles';
import { hasTestFileName } from '../../../src/core/testRunners/testFiles';

const FILES: SubsetFiles = { testFiles: ['test/a.test.js', 'test/b c.test.js'], sourceFiles: ['src/x.js'] };
const ROOT = '/real/ws';
const SCRIPTS = {
  test: 'vitest run',
  'test:v': 'vitest',
  'test:vrun': 'vitest --run',
  'test:unit': 'jest --ci',
  'test:node': 'node --test',
  'test:files': 'node --test test/',
  'test:mocha': "mocha 'test/**/*.test.js'",
  'test:mocha2': 'mocha --exit',
  'test:py': 'python3 -m pytest -q',
  'test:chained': 'tsc && vitest run',
  'test:own': 'node --test --test-reporter=dot',
};

/** The subset's command line (and with `<F>` where report flags go), or the reason it cannot be built. */
function subset(command: string, files: SubsetFiles = FILES): string {
  const plan = subsetCommand(command, SCRIPTS, files, ROOT);
  return plan.ok ? `${plan.subset.command} | ${plan.subset.withFlags(['<F>'])}` : `no: ${plan.reason}`;
}

describe('related runs: the test command narrowed to the changed files', () => {
  it('replaces the files a direct node:test, mocha or pytest call names with the changed test files, options kept', () => {
    assert.equal(
      subset('node --test'),
      `node --test test/a.test.js 'test/b c.test.js' | node --test <F> test/a.test.js 'test/b c.test.js'`,
    );
    assert.equal(
      subset('node --test test/'),
      `node --test test/a.test.js 'test/b c.test.js' | node --test <F> test/a.test.js 'test/b c.test.js'`,
    );
    assert.equal(
      subset('node --import tsx --test --test-concurrency 1 test/'),
      `node --import tsx --test --test-concurrency 1 test/a.test.js 'test/b c.test.js' | node --import tsx --test <F> --test-concurrency 1 test/a.test.js 'test/b c.test.js'`,
    );
    assert.equal(
      subset(`tsx --test $(find test -name '*.test.ts')`),
      `tsx --test test/a.test.js 'test/b c.test.js' | tsx --test <F> test/a.test.js 'test/b c.test.js'`,
    );
    assert.equal(
      subset(`./node_modules/.bin/mocha --no-config -r tsx 'test/**/*.test.js' --exit`),
      `./node_modules/.bin/mocha --no-config -r tsx --exit test/a.test.js 'test/b c.test.js' | ./node_modules/.bin/mocha --no-config -r tsx --exit <F> test/a.test.js 'test/b c.test.js'`,
    );
    assert.equal(
      subset('python3 -m pytest -q -k "not slow" tests/'),
      `python3 -m pytest -q -k "not slow" test/a.test.js 'test/b c.test.js' | python3 -m pytest -q -k "not slow" <F> test/a.test.js 'test/b c.test.js'`,
    );
    assert.equal(
      subset('pytest --cov src tests', { testFiles: ['tests/test_a.py::test_one'], sourceFiles: [] }),
      'pytest --cov src tests/test_a.py::test_one | pytest --cov src <F> tests/test_a.py::test_one',
    );
    assert.equal(
      subset('pytest --cov --tb=short', { testFiles: ['tests/test_a.py'], sourceFiles: [] }),
      'pytest --cov --tb=short tests/test_a.py | pytest --cov --tb=short <F> tests/test_a.py',
    );
  });

  it('asks jest for --findRelatedTests and vitest for `related … --run` with the test and source files (vitest: absolute)', () => {
    assert.equal(
      subset('jest src/ --maxWorkers 2'),
      `jest --maxWorkers 2 --findRelatedTests test/a.test.js 'test/b c.test.js' src/x.js | jest --maxWorkers 2 <F> --findRelatedTests test/a.test.js 'test/b c.test.js' src/x.js`,
    );
    assert.equal(
      subset('npx vitest run --config v.config.ts test/', { testFiles: [], sourceFiles: ['src/x.ts'] }),
      'npx vitest related /real/ws/src/x.ts --run --config v.config.ts | npx vitest related /real/ws/src/x.ts --run --config v.config.ts <F>',
    );
    assert.equal(
      subset('vitest --run', { testFiles: ['a.test.ts'], sourceFiles: [] }),
      'vitest related /real/ws/a.test.ts --run | vitest related /real/ws/a.test.ts --run <F>',
    );
  });

  it('narrows the package’s own runner launched by pnpm or yarn as it narrows a direct call', () => {
    assert.equal(
      subset('yarn jest', { testFiles: ['test/a.spec.ts'], sourceFiles: [] }),
      'yarn jest --findRelatedTests test/a.spec.ts | yarn jest <F> --findRelatedTests test/a.spec.ts',
    );
    assert.equal(
      subset('pnpm vitest run', { testFiles: ['test/a.test.ts'], sourceFiles: [] }),
      'pnpm vitest related /real/ws/test/a.test.ts --run | pnpm vitest related /real/ws/test/a.test.ts --run <F>',
    );
    assert.equal(
      subset('pnpm exec mocha --exit'),
      `pnpm exec mocha --exit test/a.test.js 'test/b c.test.js' | pnpm exec mocha --exit <F> test/a.test.js 'test/b c.test.js'`,
    );
  });

  it('passes the words on to a package script that is one runner call naming no files of its own', () => {
    assert.equal(
      subset('npm run test:node'),
      `npm run test:node -- test/a.test.js 'test/b c.test.js' | npm run test:node -- <F> test/a.test.js 'test/b c.test.js'`,
    );
    assert.equal(
      subset('npm run test:unit'),
      `npm run test:unit -- --findRelatedTests test/a.test.js 'test/b c.test.js' src/x.js | npm run test:unit -- <F> --findRelatedTests test/a.test.js 'test/b c.test.js' src/x.js`,
    );
    assert.equal(
      subset('npm run test:v', { testFiles: [], sourceFiles: ['src/x.ts'] }),
      'npm run test:v -- related /real/ws/src/x.ts --run | npm run test:v -- <F> related /real/ws/src/x.ts --run',
    );
    assert.equal(
      subset('npm run test:vrun', { testFiles: [], sourceFiles: ['src/x.ts'] }),
      'npm run test:vrun -- related /real/ws/src/x.ts | npm run test:vrun -- <F> related /real/ws/src/x.ts',
    );
    assert.equal(
      subset('npm test', { testFiles: ['test/a.test.ts'], sourceFiles: ['src/x.ts'] }),
      'npm test -- test/a.test.ts | npm test -- <F> test/a.test.ts',
      '`vitest run` takes filters',
    );
    assert.equal(
      subset('pnpm run test:mocha2'),
      `pnpm run test:mocha2 test/a.test.js 'test/b c.test.js' | pnpm run test:mocha2 <F> test/a.test.js 'test/b c.test.js'`,
    );
    assert.equal(
      subset('yarn run test:py', { testFiles: ['tests/test_a.py'], sourceFiles: [] }),
      'yarn run test:py tests/test_a.py | yarn run test:py <F> tests/test_a.py',
    );
    assert.equal(
      subset('npm run test:unit -- --runInBand', { testFiles: ['a.test.js'], sourceFiles: [] }),
      'npm run test:unit -- --runInBand --findRelatedTests a.test.js | npm run test:unit -- --runInBand <F> --findRelatedTests a.test.js',
    );
  });

  it('says why when the command cannot be narrowed: the whole suite runs instead', () => {
    assert.match(subset('./run-tests.sh'), /^no: it is not one direct call of a test runner nor of a package script$/);
    assert.match(subset('tsc && vitest run'), /^no: it is not one direct call/);
    assert.match(
      subset('npm run test:chained'),
      /^no: its script \(`tsc && vitest run`\) is not one direct call of a test runner$/,
    );
    assert.match(subset('npm run test:files'), /^no: its script \(`node --test test\/`\) names the tests it runs/);
    assert.match(subset('npm run test:mocha'), /names the tests it runs/);
    assert.match(subset('npm run missing'), /^no: it is not one direct call/);
    assert.match(subset('jest --projects a b'), /^no: its options cannot be told apart from the files it runs$/);
    assert.match(subset('mocha --spec test/a.js'), /cannot be told apart/);
    assert.match(subset('pytest --pyargs mypkg'), /cannot be told apart/);
    assert.match(subset('pytest --lf'), /cannot be told apart/);
    assert.match(subset('node --test test/ --test-only'), /cannot be told apart/, 'node reads words after a file as files');
    assert.match(
      subset('node --test', { testFiles: [], sourceFiles: ['src/x.js'] }),
      /^no: node-test cannot find the tests of a production file/,
    );
    assert.match(subset('jest', { testFiles: [], sourceFiles: [] }), /^no: no file changed$/);
    assert.match(
      subset('npm test', { testFiles: [], sourceFiles: ['src/x.ts'] }),
      /`vitest run`, whose arguments are test file filters/,
    );
  });

  it('gives a command that chose its own reporter the files but no report flags', () => {
    const plan = subsetCommand('node --test --test-reporter=dot', undefined, FILES, ROOT);
    assert.ok(plan.ok);
    assert.equal(plan.subset.reportable, false);
    assert.equal(plan.subset.command, `node --test --test-reporter=dot test/a.test.js 'test/b c.test.js'`);
    const script = subsetCommand('npm run test:own', SCRIPTS, FILES, ROOT);
    assert.ok(script.ok && !script.subset.reportable);
  });

  it('keeps a file name that starts with a dash from being read as an option', () => {
    assert.equal(
      subset('pytest', { testFiles: ['-x_test.py'], sourceFiles: [] }),
      'pytest ./-x_test.py | pytest <F> ./-x_test.py',
    );
  });

  it('tells the runner’s own arguments from options and their values', () => {
    const words = ['pytest', '-q', '-k', 'slow', '--tb=short', 'tests/', '-p', 'no:cacheprovider', 'more/'];
    assert.deepEqual(runnerArguments('pytest', words, 1), { options: [1, 2, 3, 4, 6, 7], positional: [5, 8] });
    assert.equal(runnerArguments('pytest', ['pytest', '-k'], 1), undefined, 'a value option without its value');
    const call = runnerCall('python3 -X dev -m pytest -q');
    assert.deepEqual([call?.kind, call?.argsAt], [undefined, undefined], 'python options before -m: not recognised');
    assert.deepEqual([runnerCall('python3 -m pytest -q')?.argsAt, runnerCall('npx vitest run')?.argsAt], [3, 2]);
    assert.equal(runnerCall('jest --json')?.ownChoice, true);
    assert.equal(runnerInvocation('jest --json'), undefined, 'no report flags for a command with its own reporter');
  });

  it('tells a test file by its name from test support code in a test folder', () => {
    for (const path of ['test/a.test.js', 'src/b.spec.tsx', 'tests/test_c.py', 'tests/d_test.py', 'test/test-e.js']) {
      assert.equal(hasTestFileName(path), true, path);
    }
    for (const path of ['test/helpers.js', 'tests/conftest.py', 'test/fixtures/data.json', 'tests/__init__.py', 'src/app.js']) {
      assert.equal(hasTestFileName(path), false, path);
    }
  });
});

describe('related runs: the files that are there, and mocha configs that name spec files', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tdd-subset-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const write = async (path: string, content = ''): Promise<void> => {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  };

  it('keeps existing regular files inside the workspace, node ids by their file; drops the rest', async () => {
    await write('test/a.test.js');
    await write('tests/test_b.py');
    await write('src/x.js');
    await mkdir(join(dir, 'test/folder.test.js'), { recursive: true });
    await symlink(join(dir, 'src/x.js'), join(dir, 'test/link.test.js'));
    const files = await existingSubsetFiles(dir, {
      testFiles: [
        './test/a.test.js',
        'test\\a.test.js',
        'tests/test_b.py::test_one',
        'test/gone.test.js',
        'test/folder.test.js',
        'test/link.test.js',
        '../outside.test.js',
        '/etc/passwd',
      ],
      sourceFiles: ['src/x.js', 'src/removed.js'],
    });
    assert.deepEqual(files, { testFiles: ['test/a.test.js', 'tests/test_b.py::test_one'], sourceFiles: ['src/x.js'] });
  });

  it('finds `spec` in .mocharc files, the file --config names, or package.json’s mocha entry', async () => {
    assert.equal(await mochaConfigNamesSpec(dir, ['mocha']), false);
    await write('.mocharc.json', '{ "require": "tsx" }');
    assert.equal(await mochaConfigNamesSpec(dir, ['mocha']), false);
    await write('.mocharc.yml', 'spec: test/**/*.spec.js\n');
    assert.equal(await mochaConfigNamesSpec(dir, ['mocha']), true);
    assert.equal(await mochaConfigNamesSpec(dir, ['mocha', '--no-config']), false);
    await write('other.cjs', "module.exports = { spec: ['x'] };");
    assert.equal(await mochaConfigNamesSpec(dir, ['mocha', '--no-config', '--config', 'other.cjs']), true);
    await rm(join(dir, '.mocharc.yml'));
    await write('package.json', JSON.stringify({ mocha: { spec: 'test' } }));
    assert.equal(await mochaConfigNamesSpec(dir, ['mocha']), true);
    assert.equal(await mochaConfigNamesSpec(dir, ['mocha', '--no-package']), false);
  });
});
