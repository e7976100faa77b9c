import { strict as assert } from 'node:assert';
import { checkRoleBoundary, describeViolations, isTestFile } from '../../../../src/core/tdd/boundaries';

describe('role boundaries', () => {
  it('recognises test files by convention and by the kata test_dir', () => {
    for (const p of [
      'test/fizz.test.js',
      'src/fizz.spec.ts',
      'tests/test_leap.py',
      'leap_test.py',
      '__tests__/a.js',
      'tests/conftest.py',
      'conftest.py',
      'test/helpers.js',
    ]) {
      assert.ok(isTestFile(p), p);
    }
    for (const p of ['src/fizz.js', 'leap.py', 'package.json', 'src/testing.js', 'README.md']) assert.ok(!isTestFile(p), p);
    assert.ok(isTestFile('spec/roman.js', { testDir: 'spec' }));
    assert.ok(isTestFile('./spec/deep/roman.js', { testDir: './spec/' }));
    assert.ok(!isTestFile('spec/roman.js', { testDir: 'test' }));
    assert.ok(!isTestFile('src/roman.js', { testDir: '.' }), "test_dir '.' does not make everything a test");
  });

  it('the Tester may only touch test files, not even create a production stub', () => {
    assert.deepEqual(
      checkRoleBoundary('tester', [{ path: 'test/fizz.test.js', change: 'added' }], { testsBefore: 0, testsAfter: 1 }),
      [],
    );
    const violations = checkRoleBoundary('tester', [
      { path: 'test/fizz.test.js', change: 'added' },
      { path: 'src/fizz.js', change: 'added' },
    ]);
    assert.equal(violations.length, 1);
    assert.equal(violations[0].rule, 'tester_changed_production');
    assert.equal(violations[0].path, 'src/fizz.js');
    assert.match(violations[0].message, /src\/fizz\.js \(production code\) was added/);
  });

  it('the Implementer may not add, modify or delete test files', () => {
    assert.deepEqual(
      checkRoleBoundary('implementer', [{ path: 'src/fizz.js', change: 'modified' }], { testsBefore: 2, testsAfter: 2 }),
      [],
    );
    for (const change of ['added', 'modified', 'deleted'] as const) {
      const [v] = checkRoleBoundary('implementer', [{ path: 'test/fizz.test.js', change }]);
      assert.equal(v.rule, 'implementer_changed_tests');
      assert.match(v.message, new RegExp(`was ${change}`));
    }
  });

  it('the Refactorer may reshape tests but not delete them', () => {
    assert.deepEqual(
      checkRoleBoundary(
        'refactorer',
        [
          { path: 'src/fizz.js', change: 'modified' },
          { path: 'test/fizz.test.js', change: 'modified' },
        ],
        { testsBefore: 3, testsAfter: 3 },
      ),
      [],
    );
    assert.equal(
      checkRoleBoundary('refactorer', [{ path: 'test/fizz.test.js', change: 'deleted' }])[0].rule,
      'refactorer_deleted_tests',
    );
  });

  it('no role may lower the number of tests', () => {
    for (const role of ['tester', 'implementer', 'refactorer'] as const) {
      const violations = checkRoleBoundary(role, [], { testsBefore: 4, testsAfter: 3 });
      assert.deepEqual(
        violations.map((v) => v.rule),
        ['tests_decreased'],
        role,
      );
    }
    assert.deepEqual(checkRoleBoundary('implementer', [], { testsBefore: 4 }), [], 'unknown counts are not judged');
  });

  it('describes violations as a hint', () => {
    const text = describeViolations(checkRoleBoundary('implementer', [{ path: 'test/a.test.js', change: 'modified' }]));
    assert.match(text, /undone/);
    assert.match(text, /- The Implementer may not change test files/);
    assert.equal(describeViolations([]), '');
    const one = describeViolations(checkRoleBoundary('implementer', [{ path: 'test/a.test.js', change: 'modified' }]), [
      'test/a.test.js',
    ]);
    assert.match(
      one,
      /^Your change to test\/a\.test\.js was undone because it broke the role rules \(your other changes stand\):\n- /,
    );
  });

  it('with the profile’s patterns, tests beside the code are tests and the code beside them is not (test_dir: src)', () => {
    const vitest = { testDir: 'src', sourceDir: 'src', testFilePatterns: ['src/**/*.test.ts'] };
    assert.ok(isTestFile('src/slug.test.ts', vitest));
    assert.ok(isTestFile('src/deep/slug.test.ts', vitest));
    assert.ok(!isTestFile('src/index.ts', vitest), 'the test folder is the source folder: it makes nothing a test');
    assert.ok(!isTestFile('src/testing/helpers.ts', vitest));
    assert.deepEqual(checkRoleBoundary('implementer', [{ path: 'src/index.ts', change: 'modified' }], { kata: vitest }), []);
    assert.equal(
      checkRoleBoundary('implementer', [{ path: 'src/index.test.ts', change: 'modified' }], { kata: vitest })[0]?.rule,
      'implementer_changed_tests',
    );
    const [tester] = checkRoleBoundary('tester', [{ path: 'test/slug.test.ts', change: 'added' }], { kata: vitest });
    assert.equal(tester?.rule, 'tester_changed_production', 'the patterns decide: vitest would not run test/slug.test.ts');
    assert.match(tester!.message, /\(production code\) was added\. Test files are those matching src\/\*\*\/\*\.test\.ts\./);
  });

  it("jest's and vitest's snapshots (__snapshots__/*.snap) are the tests' expected values: the Tester's, not the Implementer's", () => {
    const snap = 'src/__snapshots__/string.test.ts.snap';
    const besideTheCode = { testDir: 'src', sourceDir: 'src', testFilePatterns: ['**/*.{test,spec}.?(c|m)[jt]s?(x)'] };
    assert.ok(isTestFile(snap, besideTheCode));
    assert.ok(isTestFile('test/__snapshots__/a.spec.js.snap'));
    assert.ok(!isTestFile('src/__snapshots__/helper.ts', besideTheCode), 'only the snapshots themselves');
    assert.deepEqual(checkRoleBoundary('tester', [{ path: snap, change: 'modified' }], { kata: besideTheCode }), []);
    assert.equal(
      checkRoleBoundary('implementer', [{ path: snap, change: 'modified' }], { kata: besideTheCode })[0]?.rule,
      'implementer_changed_tests',
    );
  });

  it('without patterns, a kata whose test_dir is its source_dir no longer makes every source file a test', () => {
    assert.ok(!isTestFile('src/index.ts', { testDir: 'src', sourceDir: 'src' }));
    assert.ok(isTestFile('src/index.test.ts', { testDir: 'src', sourceDir: 'src' }), 'the conventions still apply');
    assert.ok(!isTestFile('src/pkg/mod.py', { testDir: 'src', sourceDir: 'src/pkg' }));
    assert.ok(isTestFile('spec/a.js', { testDir: 'spec', sourceDir: '.' }), 'a source folder at the root overlaps nothing');
  });

  it('Python patterns: testpaths folders hold tests and their helpers; conftest.py always counts', () => {
    const pytest = { testDir: 'tests', sourceDir: 'src/pkg', testFilePatterns: ['tests/**'] };
    assert.ok(isTestFile('tests/test_keys.py', pytest));
    assert.ok(isTestFile('tests/helpers.py', pytest));
    assert.ok(isTestFile('src/pkg/conftest.py', pytest));
    assert.ok(!isTestFile('src/pkg/keys.py', pytest));
    const flat = { testDir: '.', sourceDir: '.', testFilePatterns: ['test_*.py', '*_test.py'] };
    assert.ok(isTestFile('test_flat.py', flat));
    assert.ok(!isTestFile('flat.py', flat));
    assert.ok(!isTestFile('tests/data.json', flat), 'the patterns decide, not the folder name');
  });
});
