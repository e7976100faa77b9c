import { strict as assert } from 'node:assert';
import { checkRoleBoundary, describeViolations, isTestFile } from '../../../src/core/tdd/boundaries';

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
  });
});
