import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile, mkdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkRoleBoundary } from '../../../../src/core/tdd/boundaries/checkRoleBoundary';
import { regionChange, rustTestModules, testRegionFinder } from '../../../../src/core/tdd/boundaries/testRegions';
import { fileRuleHook } from '../../../../src/core/tdd/phases/fileRuleHook';
import type { ChangedFile } from '../../../../src/core/tdd/git/changedFiles';
import type { KataInfo } from '../../../../src/core/tdd/phases/loopSetup';

const LIB = `//! Leap years.

/// True for a leap year.
pub fn is_leap(year: u32) -> bool {
    year % 4 == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_year_divisible_by_four() {
        assert!(is_leap(1996)); // a { in a comment
        let _brace = '}';
        let _s = "}}} \\" {";
        let _raw = r#"}"#;
    }
}
`;

const withTest = LIB.replace(
  '        let _raw = r#"}"#;\n    }\n',
  '        let _raw = r#"}"#;\n    }\n\n    #[test]\n    fn not_a_century() {\n        assert!(!is_leap(1900));\n    }\n',
);
const withCode = LIB.replace('    year % 4 == 0\n', '    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)\n');
const rules = { testDir: 'tests', sourceDir: 'src', testFilePatterns: ['tests/**/*.rs'] };
const change = (before: string | undefined, after: string | undefined): ChangedFile => ({
  path: 'src/lib.rs',
  change: before === undefined ? 'added' : after === undefined ? 'deleted' : 'modified',
  regions: regionChange(rustTestModules, before, after),
});

describe('tests inside a code file (Rust’s #[cfg(test)] mod tests): who may change which part', () => {
  it('finds the test module from its attribute to its closing brace, past braces in strings, chars and comments', () => {
    const [region, ...more] = rustTestModules(LIB);
    assert.equal(more.length, 0);
    assert.ok(LIB.slice(region!.start).startsWith('#[cfg(test)]\nmod tests {'));
    assert.equal(LIB.slice(region!.end), '\n');
    assert.deepEqual(rustTestModules('#[cfg(test)]\nmod tests;\npub fn f() {}\n'), []);
    assert.equal(testRegionFinder('src/lib.rs'), rustTestModules);
    assert.equal(testRegionFinder('src/lib.py'), undefined);
  });

  it('a new test in the module changes the tests only; a change to the function, the code only', () => {
    assert.deepEqual(regionChange(rustTestModules, LIB, withTest), { tests: true, code: false });
    assert.deepEqual(regionChange(rustTestModules, LIB, withCode), { tests: false, code: true });
    assert.deepEqual(regionChange(rustTestModules, LIB, withCode.replace('fn a_year', 'fn any_year')), {
      tests: true,
      code: true,
    });
    // A module added where there was none, after the code: the tests only.
    const bare = LIB.slice(0, LIB.indexOf('#[cfg(test)]')).trimEnd() + '\n';
    assert.deepEqual(regionChange(rustTestModules, bare, LIB), { tests: true, code: false });
  });

  it('the Tester adding a test in the module is allowed; its change to the code outside it is refused', () => {
    assert.deepEqual(checkRoleBoundary('tester', [change(LIB, withTest)], { kata: rules }), []);
    const [refused, ...more] = checkRoleBoundary('tester', [change(LIB, withCode)], { kata: rules });
    assert.equal(more.length, 0);
    assert.equal(refused!.rule, 'tester_changed_production');
    assert.match(
      refused!.message,
      /may change only the tests inside src\/lib\.rs \(its test module\), but the code outside them changed/,
    );
  });

  it('the Implementer changing the code is allowed; its change inside the test module is refused', () => {
    assert.deepEqual(checkRoleBoundary('implementer', [change(LIB, withCode)], { kata: rules }), []);
    const [refused] = checkRoleBoundary('implementer', [change(withTest, LIB)], { kata: rules });
    assert.equal(refused!.rule, 'implementer_changed_tests');
    assert.match(refused!.message, /may not change the tests inside src\/lib\.rs \(its test module\)/);
    // The Refactorer may change both; a Cargo.lock cargo wrote is no role's change.
    assert.deepEqual(checkRoleBoundary('refactorer', [change(withTest, withCode)], { kata: rules }), []);
    assert.deepEqual(checkRoleBoundary('tester', [{ path: 'Cargo.lock', change: 'added' }], { kata: rules }), []);
    assert.deepEqual(
      checkRoleBoundary('implementer', [{ path: 'tests/leap.rs', change: 'modified' }], { kata: rules }).length,
      1,
    );
  });

  describe('as the hook refusing a write before it runs', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'test-regions-'));
      await mkdir(join(dir, 'src'));
      await writeFile(join(dir, 'src/lib.rs'), LIB);
    });
    afterEach(() => rm(dir, { recursive: true, force: true }));

    const kata = { testDir: 'tests', sourceDir: 'src', testFilePatterns: ['tests/**/*.rs'] } as unknown as KataInfo;
    const hook = (role: 'tester' | 'implementer') =>
      fileRuleHook({ rule: (changes, k) => checkRoleBoundary(role, changes, { kata: k }), kata, workspaceRoot: dir });
    const call = async (role: 'tester' | 'implementer', tool: string, params: unknown): Promise<boolean> => {
      let ran = false;
      const result = await hook(role).wrapToolCall!(
        tool,
        async () => {
          ran = true;
          return { toolName: tool, ok: true, content: 'ok', approval: 'auto' as const, durationMs: 0 };
        },
        params,
      );
      assert.equal(result.ok, ran);
      return ran;
    };

    it('edit_file: the Tester’s edit inside the module runs, outside it is refused; the Implementer the other way', async () => {
      const inTests = { path: 'src/lib.rs', search: 'fn a_year_divisible_by_four', replace: 'fn a_year_divisible_by_4' };
      const inCode = { path: 'src/lib.rs', search: '    year % 4 == 0\n', replace: '    year % 4 == 0 && year % 100 != 0\n' };
      assert.equal(await call('tester', 'edit_file', inTests), true);
      assert.equal(await call('tester', 'edit_file', inCode), false);
      assert.equal(await call('implementer', 'edit_file', inCode), true);
      assert.equal(await call('implementer', 'edit_file', inTests), false);
      assert.equal(await readFile(join(dir, 'src/lib.rs'), 'utf8'), LIB); // the hook itself writes nothing
    });

    it('write_file: the whole file judged by what it changes, inside the module and outside', async () => {
      assert.equal(await call('tester', 'write_file', { path: 'src/lib.rs', content: withTest }), true);
      assert.equal(await call('tester', 'write_file', { path: 'src/lib.rs', content: withCode }), false);
      assert.equal(await call('implementer', 'write_file', { path: 'src/lib.rs', content: withCode }), true);
      assert.equal(await call('implementer', 'write_file', { path: 'src/lib.rs', content: withTest }), false);
      assert.equal(await call('implementer', 'delete_file', { path: 'src/lib.rs' }), false);
    });
  });
});
