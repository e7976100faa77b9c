import { strict as assert } from 'node:assert';
import { parseJsoncText } from '../../../src/core/json/jsonText';
import { commonPatternFolder, iniWords, matchesTestPattern, readIniSections } from '../../../src/core/project';
import { readConfigStrings } from '../../../src/core/project/simpleConfigValues';

describe('test file patterns', () => {
  const cases: Array<[string, string[], string[]]> = [
    ['**/*.test.ts', ['a.test.ts', 'src/a.test.ts', 'src/deep/er/a.test.ts'], ['a.ts', 'src/a.test.tsx', 'src/a.test.ts/x']],
    ['src/**/*.spec.ts', ['src/a.spec.ts', 'src/x/a.spec.ts'], ['a.spec.ts', 'lib/a.spec.ts']],
    ['tests/**', ['tests/a.py', 'tests/x/conftest.py', 'tests/data/in.txt'], ['tests', 'src/tests.py', 'a/tests/b.py']],
    ['tests/', ['tests/a.py'], ['src/a.py']],
    ['test_*.py', ['test_a.py', 'tests/test_a.py', 'pkg/sub/test_b.py'], ['a_test.txt', 'testa.py', 'pkg/test_a.pyc']],
    ['**/__tests__/**', ['__tests__/a.js', 'src/__tests__/deep/a.js'], ['src/tests/a.js']],
    [
      '**/*.{test,spec}.?(c|m)[jt]s?(x)',
      ['a.test.js', 'a.spec.mts', 'b/a.test.tsx', 'a.test.cjs'],
      ['a.test.py', 'a.test.xjs', 'a.tests.js'],
    ],
    ['**/?(*.)+(spec|test).?([mc])[jt]s?(x)', ['a.test.js', 'test.js', 'x/a.b.spec.ts'], ['atest.js', 'a.js']],
    ['<rootDir>/test/**/*.ts', ['test/a.ts'], ['src/test/a.ts']],
    ['./spec/*.js', ['spec/a.js'], ['spec/x/a.js']],
    ['check_[a-c]*.py', ['check_alpha.py'], ['check_zeta.py']],
  ];
  for (const [pattern, yes, no] of cases) {
    it(pattern, () => {
      for (const p of yes) assert.ok(matchesTestPattern(p, [pattern]), `${p} should match ${pattern}`);
      for (const p of no) assert.ok(!matchesTestPattern(p, [pattern]), `${p} should not match ${pattern}`);
    });
  }

  it('paths are compared with forward slashes and without ./; a !pattern excludes', () => {
    assert.ok(matchesTestPattern('.\\src\\a.test.ts', ['src/*.test.ts']));
    assert.ok(!matchesTestPattern('src/slow.test.ts', ['**/*.test.ts', '!**/slow.test.ts']));
    assert.ok(!matchesTestPattern('src/a.test.ts', []));
  });

  it('the folder every pattern starts in', () => {
    assert.equal(commonPatternFolder(['src/**/*.test.ts', 'src/*.spec.ts']), 'src');
    assert.equal(commonPatternFolder(['packages/core/test/**']), 'packages/core/test');
    assert.equal(commonPatternFolder(['src/**', 'lib/**']), undefined);
    assert.equal(commonPatternFolder(['**/*.test.ts']), undefined);
    assert.equal(commonPatternFolder([]), undefined);
  });
});

describe('reading configuration files without running them', () => {
  it('vitest: test.include, not coverage.include; quoted keys; comments', () => {
    const source = `export default defineConfig({
      plugins: [react()],
      test: {
        coverage: { include: ['src/**'], exclude: ["x"] },
        // include: ['commented/**'],
        'include': ["src/**/*.test.ts", 'src/**/*.spec.ts'],
        environment: 'jsdom',
      },
    });`;
    assert.deepEqual(readConfigStrings(source, 'include', 'test'), ['src/**/*.test.ts', 'src/**/*.spec.ts']);
  });

  it('anything computed is not simply readable', () => {
    assert.equal(readConfigStrings('export default { test: { include: [...base, "a"] } }', 'include', 'test'), undefined);
    assert.equal(readConfigStrings('export default { test: { include: files } }', 'include', 'test'), undefined);
    assert.equal(readConfigStrings('export default { test: { include: [`${dir}/**`] } }', 'include', 'test'), undefined);
    assert.equal(readConfigStrings('export default { test: { globals: true } }', 'include', 'test'), undefined);
    assert.equal(readConfigStrings('export default {}', 'include', 'test'), undefined);
  });

  it("jest's testMatch anywhere, and a single string", () => {
    assert.deepEqual(readConfigStrings("module.exports = { testMatch: ['**/*.spec.js'] };", 'testMatch'), ['**/*.spec.js']);
    assert.deepEqual(readConfigStrings("module.exports = { spec: 'test/**/*.js' }", 'spec'), ['test/**/*.js']);
  });

  it('INI sections the way configparser reads them for pytest', () => {
    const ini = readIniSections(
      '# top\n[tool:pytest]\ntestpaths = tests\n    integration\n; a comment\npython_files: check_*.py\n\n[other]\nx=1\n',
    );
    const pytest = ini.get('tool:pytest')!;
    assert.deepEqual(iniWords(pytest.get('testpaths')), ['tests', 'integration']);
    assert.deepEqual(iniWords(pytest.get('python_files')), ['check_*.py']);
    assert.equal(ini.get('other')!.get('x'), '1');
  });

  it('JSON with comments keeps strings (and their slashes) and says where a problem is', () => {
    const text = '{\n  // a comment\n  "url": "http://x/*y*/", /* block\n  */ "a": 1\n}';
    assert.deepEqual(parseJsoncText(text), { ok: true, value: { url: 'http://x/*y*/', a: 1 } });
    const broken = parseJsoncText('{\n  // a comment\n  "a": 1\n  "b": 2\n}');
    assert.equal(broken.ok, false);
    assert.equal(!broken.ok && broken.problem.line, 4);
  });
});
