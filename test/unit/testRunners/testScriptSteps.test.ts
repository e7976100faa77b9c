import { strict as assert } from 'node:assert';
import { launchedRunner, splitTestScript } from '../../../src/core/testRunners/testScriptSteps';

describe('test scripts that chain checks with the runner', () => {
  const scripts = {
    lint: 'oxlint src && oxfmt --check src test',
    'test:types': 'tsgo --noEmit',
    'test:unit': 'vitest run',
    typecheck: 'tsc --noEmit',
    build: 'unbuild',
    'format:check': 'prettier --check .',
  };

  it('splits the runner’s step from lint, format and type checks, before or after it', () => {
    assert.deepEqual(splitTestScript('pnpm lint && pnpm test:types && pnpm vitest run --coverage', scripts), {
      tests: 'pnpm vitest run --coverage',
      checks: ['pnpm lint', 'pnpm test:types'],
    });
    assert.deepEqual(splitTestScript('tsc --noEmit && jest --ci'), { tests: 'jest --ci', checks: ['tsc --noEmit'] });
    assert.deepEqual(splitTestScript('npm run lint && npm run test:unit', scripts), {
      tests: 'npm run test:unit',
      checks: ['npm run lint'],
    });
    assert.deepEqual(splitTestScript('yarn run typecheck && yarn jest && npx tsd', scripts), {
      tests: 'yarn jest',
      checks: ['yarn run typecheck', 'npx tsd'],
    });
    assert.deepEqual(splitTestScript('eslint . && prettier --check . && node --test'), {
      tests: 'node --test',
      checks: ['eslint .', 'prettier --check .'],
    });
  });

  it('keeps the script whole when a step may be needed by the tests, or is not a check', () => {
    for (const script of [
      'vitest run',
      'npm run build && vitest run',
      'tsc && node --test dist/',
      'prettier --write . && jest',
      'pnpm lint && pnpm test:unit && vitest run',
      'eslint . || true && jest',
      'jest -t "a && b"',
      'pnpm missing-lint && vitest run',
    ]) {
      assert.equal(splitTestScript(script, scripts), undefined, script);
    }
  });

  it('runs the package’s own runner that pnpm or yarn launches as the runner itself', () => {
    assert.equal(launchedRunner('yarn jest'), 'jest');
    assert.equal(launchedRunner('pnpm vitest run --coverage'), 'vitest run --coverage');
    assert.equal(launchedRunner('CI=1 pnpm exec mocha --exit'), 'CI=1 mocha --exit');
    for (const command of ['jest', 'npx jest', 'pnpm test', 'yarn lint', 'pnpm exec tsc'])
      assert.equal(launchedRunner(command), undefined, command);
    assert.equal(launchedRunner('yarn jest', { jest: 'jest --config x.js' }), 'jest --config x.js', 'the script named jest');
  });

  it('runs the runner a pnpm or yarn script call reaches (pnpm run test:spec), never pnpm or yarn themselves', () => {
    const own = { 'test:spec': 'vitest run', 'test:unit': 'pnpm vitest run --dir test', lint: 'eslint .' };
    assert.equal(launchedRunner('pnpm run test:spec', own), 'vitest run');
    assert.equal(launchedRunner('yarn test:unit', own), 'vitest run --dir test');
    assert.equal(launchedRunner('pnpm run lint', own), undefined, 'not a runner');
    assert.equal(launchedRunner('npm run test:spec', own), undefined, 'npm comes with node');
    assert.equal(launchedRunner('pnpm vitest', { vitest: 'pnpm vitest' }), undefined, 'a script that calls itself');
  });

  it('reads pnpm’s run of a name pattern (zustand’s pnpm run "/^test:.*/") as the steps of the scripts it matches', () => {
    const zustand = {
      test: 'pnpm run "/^test:.*/"',
      'test:format': 'prettier . --list-different',
      'test:types': 'tsc --noEmit',
      'test:lint': 'eslint .',
      'test:spec': 'vitest run',
      'build:base': 'rollup -c',
    };
    assert.deepEqual(splitTestScript(zustand.test, zustand), {
      tests: 'pnpm run test:spec',
      checks: ['pnpm run test:format', 'pnpm run test:types', 'pnpm run test:lint'],
    });
    assert.equal(launchedRunner('pnpm run test:spec', zustand), 'vitest run');
    assert.deepEqual(splitTestScript("pnpm run '/^check/'", { 'check:lint': 'eslint .', checks: 'jest' }), {
      tests: 'pnpm run checks',
      checks: ['pnpm run check:lint'],
    });
    for (const script of ['pnpm run "/^build:.*/"', 'pnpm run "/^(a+)+$/"', 'pnpm run "/^nothing/"', 'npm run "/^test:.*/"'])
      assert.equal(splitTestScript(script, { ...zustand, 'build:x': 'vitest run' }), undefined, script);
  });
});
