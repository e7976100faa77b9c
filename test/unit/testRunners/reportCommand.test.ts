import { strict as assert } from 'node:assert';
import { plainWord, shellWord, simpleCommandWords } from '../../../src/core/testRunners/reports/commandLine';
import {
  packageScriptCall,
  reportingCommand,
  runnerInvocation,
  scriptFor,
} from '../../../src/core/testRunners/reports/reportCommand';
import { nodeTestConsoleReporter } from '../../../src/core/testRunners/reports/nodeTestReport';

/** Flags that name the kind, so each case shows where they went. */
const flagsFor = (kind: string): string[] => [`<${kind}>`];
const reporting = (command: string, scripts?: Record<string, unknown>): string | undefined =>
  reportingCommand(command, scripts, flagsFor)?.command;

describe('test report flags: the command line', () => {
  it('splits one simple command into its words, quotes and $(…) kept', () => {
    assert.deepEqual(simpleCommandWords(`  mocha --no-config 'test/**/*.test.cjs'  `), [
      'mocha',
      '--no-config',
      `'test/**/*.test.cjs'`,
    ]);
    assert.deepEqual(simpleCommandWords(`tsx --test $(find test -name '*.test.ts' -not -path '*/node_modules/*' 2>/dev/null)`), [
      'tsx',
      '--test',
      `$(find test -name '*.test.ts' -not -path '*/node_modules/*' 2>/dev/null)`,
    ]);
    assert.deepEqual(simpleCommandWords('jest "a b" c\\ d'), ['jest', '"a b"', 'c\\ d']);
  });

  it('refuses chains, pipes, redirections, backquotes, subshells, comments and unclosed quotes', () => {
    for (const command of [
      'tsc && vitest run',
      'jest || true',
      'jest; echo done',
      'jest | tee log',
      'jest > log.txt',
      'jest &',
      'jest `cat args`',
      '(jest)',
      'jest # comment',
      "jest 'open",
      'jest "open',
      'jest $(echo',
      'jest\nmocha',
      '',
    ]) {
      assert.equal(simpleCommandWords(command), undefined, command);
    }
  });

  it('reads plain words and quotes a value only when the shell needs it', () => {
    assert.equal(plainWord(`'a b'"c"d\\ e`), 'a bcd e');
    assert.equal(plainWord('$HOME'), undefined);
    assert.equal(shellWord('--outputFile=.tdd/reports/ab.json'), '--outputFile=.tdd/reports/ab.json');
    assert.equal(shellWord('data:text/javascript;base64,AB+/='), `'data:text/javascript;base64,AB+/='`);
    assert.equal(shellWord("it's"), `'it'\\''s'`);
  });
});

describe('test report flags: direct runner invocations', () => {
  it('puts node:test flags right after --test (node reads no option after a file name)', () => {
    assert.equal(reporting('node --test'), 'node --test <node-test>');
    assert.equal(reporting('node --test test/'), 'node --test <node-test> test/');
    assert.equal(reporting('node --import tsx --test test/a.test.ts'), 'node --import tsx --test <node-test> test/a.test.ts');
    assert.equal(
      reporting(`tsx --test $(find test -name '*.test.ts' 2>/dev/null)`),
      `tsx --test <node-test> $(find test -name '*.test.ts' 2>/dev/null)`,
    );
    assert.equal(reporting('node script.js --test'), undefined, 'a script, not the test runner');
  });

  it('appends the flags for jest, vitest, mocha and pytest, also through npx, a path or environment assignments', () => {
    assert.equal(reporting('jest --ci'), 'jest --ci <jest>');
    assert.equal(reporting('npx jest'), 'npx jest <jest>');
    assert.equal(reporting('CI=1 ./node_modules/.bin/jest'), 'CI=1 ./node_modules/.bin/jest <jest>');
    assert.equal(reporting('npx vitest run'), 'npx vitest run <vitest>');
    assert.equal(reporting('vitest'), 'vitest <vitest>');
    assert.equal(
      reporting(`/abs/node_modules/.bin/mocha --no-config 'test/**/*.test.cjs'`),
      `/abs/node_modules/.bin/mocha --no-config 'test/**/*.test.cjs' <mocha>`,
    );
    assert.equal(reporting('python3 -m pytest -q'), 'python3 -m pytest -q <pytest>');
    assert.equal(reporting('python -m pytest'), 'python -m pytest <pytest>');
    assert.equal(reporting('pytest tests/'), 'pytest tests/ <pytest>');
  });

  it('appends the flags for the package’s own runner launched by pnpm or yarn (`yarn jest`, `pnpm vitest run`)', () => {
    assert.equal(reporting('yarn jest'), 'yarn jest <jest>');
    assert.equal(reporting('yarn exec jest --ci'), 'yarn exec jest --ci <jest>');
    assert.equal(reporting('pnpm vitest run'), 'pnpm vitest run <vitest>');
    assert.equal(reporting('CI=1 pnpm exec mocha'), 'CI=1 pnpm exec mocha <mocha>');
    assert.equal(reporting('pnpm test', { test: 'yarn jest' }), 'pnpm run test <jest>', 'a script that launches the runner');
    assert.equal(reporting('npm test', { test: 'pnpm vitest run' }), 'npm test -- <vitest>');
    for (const command of [
      'pnpm lint',
      'yarn build',
      'pnpm -r vitest',
      'pnpm exec tsc',
      'yarn jest --json',
      'pnpm vitest watch',
    ]) {
      assert.equal(reporting(command), undefined, command);
    }
  });

  it('adds nothing when the person chose a reporter or output, a watch mode, or a -- after which flags are file names', () => {
    for (const command of [
      'node --test --test-reporter=dot',
      'node --test --watch',
      'jest --json',
      'jest --outputFile=x.json',
      'jest --watchAll',
      'vitest --reporter=verbose',
      'vitest watch',
      'vitest bench',
      'mocha -R dot',
      'mocha --reporter spec',
      'pytest --junitxml=out.xml',
      'pytest -p no:junitxml',
      'jest -- a.test.js',
      'python3 -m unittest',
      './run-tests.sh',
    ]) {
      assert.equal(reporting(command), undefined, command);
    }
  });

  it('knows which flags can go at the end (what a package script needs)', () => {
    assert.equal(runnerInvocation('node --test')?.appendable, true);
    assert.equal(runnerInvocation('node --test --test-concurrency=1')?.appendable, true);
    assert.equal(runnerInvocation('node --test test/')?.appendable, false);
    assert.equal(runnerInvocation('jest test/')?.appendable, true);
  });
});

describe('test report flags: package scripts', () => {
  const scripts = {
    test: 'vitest run',
    'test:unit': 'jest --ci',
    'test:node': 'node --test',
    'test:files': 'node --test test/',
    'test:chained': 'tsc && vitest run',
    'test:nested': 'npm run test:unit',
    'test:custom': './run-tests.sh',
  };

  it('recognises the calls of npm, pnpm and yarn', () => {
    assert.deepEqual(packageScriptCall('npm test'), { manager: 'npm', script: 'test', prefix: [], extra: [] });
    assert.deepEqual(packageScriptCall('npm t'), { manager: 'npm', script: 'test', prefix: [], extra: [] });
    assert.deepEqual(packageScriptCall('npm run test:unit -- --runInBand'), {
      manager: 'npm',
      script: 'test:unit',
      prefix: [],
      extra: ['--runInBand'],
    });
    assert.deepEqual(packageScriptCall('CI=1 pnpm test')?.prefix, ['CI=1']);
    assert.equal(packageScriptCall('yarn run unit')?.script, 'unit');
    assert.equal(packageScriptCall('npm test --silent'), undefined, 'npm options: not analysed');
    assert.equal(packageScriptCall('pnpm test -- --x'), undefined, 'pnpm versions disagree on --');
    assert.equal(packageScriptCall('npm install'), undefined);
    assert.equal(scriptFor('npm run test:unit', scripts), 'jest --ci');
    assert.equal(scriptFor('npm run missing', scripts), undefined);
    assert.equal(scriptFor('jest', scripts), undefined);
  });

  it('passes the flags after -- for npm, and as `run <script> <flags>` for pnpm and yarn', () => {
    assert.equal(reporting('npm test', scripts), 'npm test -- <vitest>');
    assert.equal(reporting('npm run test:unit', scripts), 'npm run test:unit -- <jest>');
    assert.equal(reporting('npm run test:unit -- --runInBand', scripts), 'npm run test:unit -- --runInBand <jest>');
    assert.equal(reporting('npm run test:node', scripts), 'npm run test:node -- <node-test>');
    assert.equal(reporting('pnpm test', scripts), 'pnpm run test <vitest>');
    assert.equal(reporting('yarn run test:unit', scripts), 'yarn run test:unit <jest>');
  });

  it('runs the command as written when its script cannot take the flags', () => {
    assert.equal(reporting('npm run test:files', scripts), undefined, 'node would read flags after a file name as file names');
    assert.equal(reporting('npm run test:chained', scripts), undefined, 'a chain of commands');
    assert.equal(reporting('npm run test:nested', scripts), undefined, 'a script calling another script');
    assert.equal(reporting('npm run test:custom', scripts), undefined, 'a custom script');
    assert.equal(reporting('npm test'), undefined, 'no package.json scripts known');
  });

  it('names the console reporter node would use on a pipe: tap before Node 23, spec after', () => {
    assert.equal(nodeTestConsoleReporter('20.19.0'), 'tap');
    assert.equal(nodeTestConsoleReporter('22.12.0'), 'tap');
    assert.equal(nodeTestConsoleReporter('23.0.0'), 'spec');
    assert.equal(nodeTestConsoleReporter('24.1.0'), 'spec');
  });
});
