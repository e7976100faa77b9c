import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { javaSignature, javaTestName, javaValue } from '../../../scripts/eval-kata-java';
import { JAVA } from '../../../scripts/eval-kata-exercises';
import { EVAL_DIR, type EvalSetEntry } from '../../../scripts/generate-eval-katas';
import { loadKata } from '../../../src/core/tdd/kata';

// The Java part of the eval set: the held-back JUnit 5 classes (katas/eval/acceptance/java/<Class>AcceptanceTest.java)
// and the katas' Java line, against the JavaScript file of the same exercise, which pins every canonical case by its
// full UUID.

const set = JSON.parse(readFileSync(join(EVAL_DIR, 'set.json'), 'utf8')) as EvalSetEntry[];
const JAVA_SET = set.filter((e) => e.languages.java !== undefined);

const jsCases = (entry: EvalSetEntry): string[] =>
  [
    ...readFileSync(join(EVAL_DIR, entry.languages.javascript.acceptance), 'utf8').matchAll(
      /^test\(".* \[([0-9a-f-]{36})\]", \(\) => \{$/gm,
    ),
  ].map((m) => m[1]!);

describe('the eval kata set in Java (katas/eval/acceptance/java)', () => {
  it('has at least twelve katas in Java, bowling not among them', () => {
    assert.ok(JAVA_SET.length >= 12, `${JAVA_SET.length} katas in Java`);
    assert.ok(!JAVA_SET.some((e) => e.slug === 'bowling'));
  });

  it('pins the same cases as JavaScript, in order: one @Test method each, named after the case and its UUID', () => {
    for (const entry of JAVA_SET) {
      const java = entry.languages.java!;
      assert.equal(java.acceptance, `acceptance/java/${java.module}AcceptanceTest.java`);
      const text = readFileSync(join(EVAL_DIR, java.acceptance), 'utf8');
      const tests = [...text.matchAll(/^ {4}@Test\n {4}@DisplayName\(".* \[([0-9a-f-]{36})\]"\)\n {4}void (\w+)\(\) \{$/gm)];
      assert.deepEqual(
        tests.map((m) => m[1]),
        jsCases(entry),
        `${entry.slug}: the same cases in Java`,
      );
      // Surefire's TEST-*.xml names a case by its method: the UUID's first 8 digits end it, and no two are alike.
      for (const [, uuid, method] of tests) assert.ok(method!.endsWith(`_${uuid!.slice(0, 8)}`), method);
      assert.equal(new Set(tests.map((m) => m[2])).size, tests.length);
      assert.equal(java.cases, entry.languages.javascript.cases);
      assert.ok(text.includes('\npackage kata;\n'), `${java.acceptance} is in package kata`);
      assert.match(text, new RegExp(`^final class ${java.module}AcceptanceTest \\{$`, 'm'));
      assert.ok(text.includes(entry.source.commit), `${java.acceptance} names the commit`);
    }
  });

  it('names the Java class, its file and its static methods in each kata that has Java tests', async () => {
    for (const entry of JAVA_SET) {
      const kata = await loadKata(join(EVAL_DIR, `${entry.slug}.md`), { language: 'java' });
      const { module, exports } = entry.languages.java!;
      assert.ok(kata.description.includes(`\`src/main/java/kata/${module}.java\``), `${entry.slug} names ${module}.java`);
      const methods = Object.values((JAVA as Record<string, { methods: object }>)[entry.slug]!.methods);
      assert.deepEqual(
        exports,
        methods.map((m) => `${module}.${(m as { name: string }).name}`),
      );
      for (const method of methods) {
        const signature = javaSignature(method as Parameters<typeof javaSignature>[0]);
        assert.ok(kata.description.includes(`\`${signature}\``), `${entry.slug} names ${signature}`);
      }
    }
  });
});

describe('the Java emitter (scripts/eval-kata-java.ts)', () => {
  it('writes Java expressions of the declared type', () => {
    assert.equal(
      javaValue({ "don't": 2, a: 1 }, 'Map<String, Integer>'),
      'Map.ofEntries(Map.entry("don\'t", 2), Map.entry("a", 1))',
    );
    assert.equal(javaValue({}, 'Map<String, Integer>'), 'Map.ofEntries()');
    // Outside ASCII as \uXXXX, a character beyond the BMP as its two UTF-16 halves.
    assert.equal(javaValue(['a"b', 'é\u{1d11e}'], 'List<String>'), 'List.of("a\\"b", "\\u00e9\\ud834\\udd1e")');
    assert.equal(javaValue([93819012551], 'List<Long>'), 'List.of(93819012551L)');
    assert.equal(javaValue([], 'List<Integer>'), 'List.of()');
    assert.equal(javaValue(true, 'boolean'), 'true');
    assert.throws(() => javaValue(2 ** 31, 'int'), /not a Java int/);
    assert.throws(() => javaValue('1', 'int'), /not a Java int/);
  });

  it('names a test method after the case (camel case, a leading digit behind "case") and its UUID', () => {
    assert.equal(javaTestName({ uuid: '19828a3a-fdf1-4e41-9f4c-2d3e1e9f1d1a', path: ['1 is I'] }), 'case1IsI_19828a3a');
    assert.equal(
      javaTestName({ uuid: '17fc7296-0000-4000-8000-000000000000', path: ['testing for eggs', "don't: it's ok"] }),
      'testingForEggsDonTItSOk_17fc7296',
    );
  });

  it("states a kata's method as Java declares it", () => {
    assert.equal(javaSignature(JAVA.leap.methods.leapYear), 'public static boolean isLeapYear(int year)');
    assert.equal(JAVA.hamming.methods.distance.errors, true);
  });
});
