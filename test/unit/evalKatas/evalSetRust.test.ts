import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rustSignature, rustTestName, rustValue } from '../../../scripts/eval-kata-rust';
import { RUST } from '../../../scripts/eval-kata-exercises';
import { EVAL_DIR, type EvalSetEntry } from '../../../scripts/generate-eval-katas';
import { loadKata } from '../../../src/core/tdd/kata';

// The Rust part of the eval set: the held-back integration tests (katas/eval/acceptance/rust/<crate>.rs) and the katas'
// Rust line, against the JavaScript file of the same exercise, which pins every canonical case by its full UUID.

const set = JSON.parse(readFileSync(join(EVAL_DIR, 'set.json'), 'utf8')) as EvalSetEntry[];
const RUST_SET = set.filter((e) => e.languages.rust !== undefined);

const jsCases = (entry: EvalSetEntry): string[] =>
  [
    ...readFileSync(join(EVAL_DIR, entry.languages.javascript.acceptance), 'utf8').matchAll(
      /^test\(".* \[([0-9a-f-]{36})\]", \(\) => \{$/gm,
    ),
  ].map((m) => m[1]!);

describe('the eval kata set in Rust (katas/eval/acceptance/rust)', () => {
  it('has at least twelve katas in Rust, bowling not among them', () => {
    assert.ok(RUST_SET.length >= 12, `${RUST_SET.length} katas in Rust`);
    assert.ok(!RUST_SET.some((e) => e.slug === 'bowling'));
  });

  it('pins the same cases as JavaScript, in order: one #[test] fn each, named after the case and its UUID', () => {
    for (const entry of RUST_SET) {
      const rust = entry.languages.rust!;
      assert.equal(rust.acceptance, `acceptance/rust/${rust.module}.rs`);
      const text = readFileSync(join(EVAL_DIR, rust.acceptance), 'utf8');
      const tests = [...text.matchAll(/^\/\/\/ .* \[([0-9a-f-]{36})\]\n#\[test\]\nfn (\w+)\(\) \{$/gm)];
      assert.deepEqual(
        tests.map((m) => m[1]),
        jsCases(entry),
        `${entry.slug}: the same cases in Rust`,
      );
      // cargo names a case by its function: the UUID's first 8 digits end it, and no two are alike.
      for (const [, uuid, name] of tests) assert.ok(name!.endsWith(`_${uuid!.slice(0, 8)}`), name);
      assert.equal(new Set(tests.map((m) => m[2])).size, tests.length, `${entry.slug}: a name twice`);
      assert.equal(rust.cases, tests.length);
      assert.equal(text.split('#[test]').length - 1, tests.length, `${entry.slug}: a test without its case's name`);
      const imports = rust.exports.length > 1 ? `{${rust.exports.join(', ')}}` : rust.exports[0];
      assert.ok(text.includes(`\nuse ${rust.module}::${imports};\n`), `${entry.slug} imports its functions from the crate`);
      assert.ok(text.includes(entry.source.commit), `${rust.acceptance} names the commit`);
    }
  });

  it('names the crate and each function with its signature in each kata that has Rust tests', async () => {
    for (const entry of RUST_SET) {
      const kata = await loadKata(join(EVAL_DIR, `${entry.slug}.md`), { language: 'rust' });
      const rust = RUST[entry.slug as keyof typeof RUST];
      assert.ok(kata.description.includes(`- Rust: in the library crate \`${rust.crate}\` (\`src/lib.rs\`)`), entry.slug);
      for (const fn of Object.values(rust.functions) as Parameters<typeof rustSignature>[0][])
        assert.ok(kata.description.includes(`\`${rustSignature(fn)}\``), `${entry.slug} names ${fn.name}`);
    }
  });

  it('writes Rust values and test names', () => {
    assert.equal(rustValue('a"b\u0001é', '&str'), '"a\\"b\\u{0001}é"');
    assert.equal(rustValue(['x', 'y'], '&[&str]'), '&["x", "y"]');
    assert.equal(rustValue([], '&[u32]'), '&[]');
    assert.equal(rustValue([], 'Vec<String>'), 'Vec::<&str>::new()');
    assert.equal(rustValue([93819012551], 'Vec<u64>'), 'vec![93819012551]');
    assert.equal(rustValue({ "don't": 2 }, 'HashMap<String, u32>'), 'counts(&[("don\'t", 2)])');
    assert.equal(rustValue(-15, 'i64'), '-15');
    assert.throws(() => rustValue(-1, 'u32'), /not a Rust u32/);
    assert.equal(
      rustTestName({ uuid: '19828a3a-fdf1-4e41-9f4c-2d3e1e9f1d1a', path: ['1 is I'] } as never),
      'case_1_is_i_19828a3a',
    );
    assert.equal(
      rustTestName({ uuid: '17fc7296-0000-4000-8000-000000000000', path: ['testing for eggs', "don't: it's ok"] } as never),
      'testing_for_eggs_don_t_it_s_ok_17fc7296',
    );
    assert.equal(
      rustSignature(RUST.hamming.functions.distance),
      'pub fn hamming_distance(s1: &str, s2: &str) -> Result<usize, String>',
    );
  });
});
