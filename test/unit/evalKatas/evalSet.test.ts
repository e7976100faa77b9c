import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { goValue } from '../../../scripts/eval-kata-go';
import { phpValue } from '../../../scripts/eval-kata-php';
import { rubyValue } from '../../../scripts/eval-kata-ruby';
import { pyValue, jsValue, type EvalExercise, type FlatCase } from '../../../scripts/eval-kata-exercises';
import {
  changedFiles,
  EMITTERS,
  EVAL_DIR,
  flattenCases,
  generateEvalSet,
  selectCases,
  type EvalSetEntry,
} from '../../../scripts/generate-eval-katas';
import { listBundledKatas, loadKata, parseKata } from '../../../src/core/tdd/kata';

const set = JSON.parse(readFileSync(join(EVAL_DIR, 'set.json'), 'utf8')) as EvalSetEntry[];
const LANGUAGES = ['javascript', 'python'] as const;
/** The exercises with Go acceptance tests (every one but bowling). */
const GO_SET = set.filter((e) => e.languages.go !== undefined);
/** The exercises with Ruby acceptance tests (every one but bowling). */
const RUBY_SET = set.filter((e) => e.languages.ruby !== undefined);
/** The exercises with PHP acceptance tests (every one but bowling). */
const PHP_SET = set.filter((e) => e.languages.php !== undefined);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The UUIDs the tests of an acceptance file pin, in file order. */
function pinnedCases(language: 'javascript' | 'python' | 'go' | 'ruby', text: string): string[] {
  const pattern =
    language === 'javascript'
      ? /^test\(".* \[([0-9a-f-]{36})\]", \(\) => \{$/gm
      : language === 'go'
        ? /^\t\t\{name: ".* \[([0-9a-f-]{36})\]", /gm
        : language === 'ruby'
          ? /^ {2}it ".* \[([0-9a-f-]{36})\]" do$/gm
          : /^@case\("([0-9a-f-]{36})"\)\ndef test_\w+\(case_uuid\):$/gm;
  return [...text.matchAll(pattern)].map((m) => m[1]);
}

describe('the eval kata set (katas/eval)', () => {
  it('lists at least twelve katas in set.json, each with a kata file, tags, its source commit and both languages', () => {
    assert.ok(set.length >= 12, `${set.length} katas`);
    const slugs = set.map((e) => e.slug);
    assert.equal(new Set(slugs).size, slugs.length, 'no slug twice');
    const files = readdirSync(EVAL_DIR).filter((f) => f.endsWith('.md') && f !== 'README.md');
    assert.deepEqual(files.map((f) => f.replace(/\.md$/, '')).sort(), [...slugs].sort(), 'one kata file per entry, no other');
    for (const entry of set) {
      assert.match(entry.source.commit, /^[0-9a-f]{40}$/);
      assert.equal(entry.source.exercise, entry.slug);
      assert.ok(['easy', 'medium', 'hard'].includes(entry.tags[0]), `${entry.slug}: difficulty first`);
      assert.deepEqual(
        Object.keys(entry.languages).filter((l) => !['go', 'ruby', 'php', 'java', 'rust'].includes(l)),
        ['javascript', 'python'],
      );
    }
    assert.ok(GO_SET.length >= 12, `${GO_SET.length} katas in Go`);
    assert.ok(RUBY_SET.length >= 12, `${RUBY_SET.length} katas in Ruby`);
    assert.ok(PHP_SET.length >= 12, `${PHP_SET.length} katas in PHP`);
    assert.equal(new Set(set.map((e) => e.source.commit)).size, 1, 'one commit for the whole set');
  });

  it('every eval kata loads with the kata loader, in JavaScript and Python, naming its module and functions', async () => {
    for (const entry of set) {
      const path = join(EVAL_DIR, `${entry.slug}.md`);
      for (const language of LANGUAGES) {
        const kata = await loadKata(path, { language });
        assert.equal(kata.title, entry.title);
        assert.equal(kata.slug, entry.slug);
        assert.equal(kata.language, language);
        assert.equal(kata.sourceDir, 'src');
        assert.ok(kata.maxCycles && kata.maxCycles >= 4, `${entry.slug}: max_cycles`);
        const { module, exports } = entry.languages[language];
        const file = `src/${module}.${language === 'javascript' ? 'js' : 'py'}`;
        assert.ok(kata.description.includes(`\`${file}\``), `${entry.slug} names ${file}`);
        assert.ok(kata.description.includes(`module named \`${module}\``), `${entry.slug} names the module ${module}`);
        for (const name of exports) assert.match(kata.description, new RegExp(`\`${name}[(\`]`), `${entry.slug} names ${name}`);
      }
      const parsed = parseKata(readFileSync(path, 'utf8'), { fileName: path });
      assert.ok(parsed.description.length > 400, `${entry.slug} has a real description`);
      assert.doesNotMatch(parsed.description, /acceptance|uuid|canonical/i, 'the agents are told nothing of the hidden tests');
    }
  });

  it('is not among the bundled katas (they are the top-level katas/*.md)', () => {
    const bundled = listBundledKatas().map((k) => k.path);
    assert.ok(bundled.every((p) => !p.includes(`${join('katas', 'eval')}`)));
  });

  it('has one acceptance test per counted case in each language, the same cases in both, each named after its UUID', () => {
    for (const entry of set) {
      const byLanguage = LANGUAGES.map((language) => {
        const { acceptance, cases, module, exports } = entry.languages[language];
        const text = readFileSync(join(EVAL_DIR, acceptance), 'utf8');
        const uuids = pinnedCases(language, text);
        assert.equal(uuids.length, cases, `${acceptance}: ${uuids.length} tests, set.json says ${cases}`);
        assert.equal(new Set(uuids).size, uuids.length, `${acceptance}: no case twice`);
        assert.ok(uuids.every((u) => UUID.test(u)));
        assert.ok(text.includes(entry.source.commit), `${acceptance} names the commit`);
        if (language === 'javascript') {
          assert.equal(acceptance, `acceptance/javascript/${entry.slug}.test.js`);
          assert.ok(text.includes(`import { ${exports.join(', ')} } from '../src/${module}.js';`));
          assert.match(text, /^import \{ test \} from 'node:test';$/m);
        } else {
          assert.equal(acceptance, `acceptance/python/test_${entry.slug.replace(/-/g, '_')}.py`);
          assert.ok(text.includes(`from ${module} import ${exports.join(', ')}\n`));
        }
        return uuids;
      });
      assert.deepEqual(byLanguage[0], byLanguage[1], `${entry.slug}: the same cases in both languages`);
      const go = entry.languages.go;
      if (!go) continue;
      const text = readFileSync(join(EVAL_DIR, go.acceptance), 'utf8');
      assert.equal(go.acceptance, `acceptance/go/${entry.slug.replace(/-/g, '_')}_acceptance_test.go`);
      assert.deepEqual(pinnedCases('go', text), byLanguage[0], `${entry.slug}: the same cases in Go`);
      assert.equal(go.cases, entry.languages.javascript.cases);
      // In the package itself, beside the session's code; one top-level name per function, none the session's own tests would take.
      assert.match(text, new RegExp(`^package ${go.module}$`, 'm'));
      assert.deepEqual(
        [...text.matchAll(/^func (\w+)\(t \*testing\.T\) \{$/gm)].map((m) => m[1]),
        go.exports.map((name) => `TestAcceptance${name}`),
      );
      assert.ok(text.includes(entry.source.commit), `${go.acceptance} names the commit`);
    }
  });

  it('pins the same cases in Ruby, one RSpec example each, loading lib/<file>.rb', () => {
    for (const entry of RUBY_SET) {
      const ruby = entry.languages.ruby!;
      const text = readFileSync(join(EVAL_DIR, ruby.acceptance), 'utf8');
      assert.equal(ruby.acceptance, `acceptance/ruby/${entry.slug.replace(/-/g, '_')}_spec.rb`);
      assert.deepEqual(
        pinnedCases('ruby', text),
        pinnedCases('javascript', readFileSync(join(EVAL_DIR, entry.languages.javascript.acceptance), 'utf8')),
      );
      assert.equal(ruby.cases, entry.languages.javascript.cases);
      assert.ok(text.includes(`require_relative "../lib/${ruby.module}"\n`));
      assert.ok(text.includes(entry.source.commit), `${ruby.acceptance} names the commit`);
    }
  });

  it('pins the same cases in PHP, one data set each, requiring src/<Class>.php', () => {
    for (const entry of PHP_SET) {
      const php = entry.languages.php!;
      const text = readFileSync(join(EVAL_DIR, php.acceptance), 'utf8');
      assert.equal(php.acceptance, `acceptance/php/${php.module}AcceptanceTest.php`);
      assert.deepEqual(
        // Grouped by method (the returns, then the refusals), so compared as sets.
        [...text.matchAll(/^ {12}".* \[([0-9a-f-]{36})\]" => \[/gm)].map((m) => m[1]).sort(),
        pinnedCases('javascript', readFileSync(join(EVAL_DIR, entry.languages.javascript.acceptance), 'utf8')).sort(),
      );
      assert.equal(php.cases, entry.languages.javascript.cases);
      assert.ok(text.includes(`require_once __DIR__ . "/../src/${php.module}.php";\n`));
      assert.match(text, new RegExp(`^final class ${php.module}AcceptanceTest extends TestCase$`, 'm'));
      assert.ok(text.includes(entry.source.commit), `${php.acceptance} names the commit`);
    }
  });

  it('names the PHP class and static methods in each kata that has PHP tests', async () => {
    for (const entry of PHP_SET) {
      const kata = await loadKata(join(EVAL_DIR, `${entry.slug}.md`), { language: 'php' });
      const { module, exports } = entry.languages.php!;
      assert.ok(kata.description.includes(`\`src/${module}.php\``), `${entry.slug} names src/${module}.php`);
      for (const name of exports) assert.ok(kata.description.includes(`\`${name}(`), `${entry.slug} names ${name}`);
    }
  });

  it('names the Ruby module and methods in each kata that has Ruby tests', async () => {
    for (const entry of RUBY_SET) {
      const kata = await loadKata(join(EVAL_DIR, `${entry.slug}.md`), { language: 'ruby' });
      const { module, exports } = entry.languages.ruby!;
      assert.ok(kata.description.includes(`\`lib/${module}.rb\``), `${entry.slug} names lib/${module}.rb`);
      for (const name of exports) assert.ok(kata.description.includes(`\`${name}(`), `${entry.slug} names ${name}`);
    }
  });

  it('names the Go package and functions in each kata that has Go tests', async () => {
    for (const entry of GO_SET) {
      const kata = await loadKata(join(EVAL_DIR, `${entry.slug}.md`), { language: 'go' });
      const { module, exports } = entry.languages.go!;
      assert.equal(kata.sourceDir, '.');
      assert.ok(kata.description.includes(`package \`${module}\` (\`${module}.go\``), `${entry.slug} names ${module}.go`);
      for (const name of exports) assert.ok(kata.description.includes(`\`func ${name}(`), `${entry.slug} names ${name}`);
    }
  });

  it('carries the attribution: the MIT licence of Exercism problem-specifications, and the commit in the README', () => {
    const licence = readFileSync(join(EVAL_DIR, 'LICENSE'), 'utf8');
    assert.match(licence, /The MIT License \(MIT\)/);
    assert.match(licence, /Copyright \(c\) .* Exercism/);
    assert.match(licence, /problem-specifications/);
    const readme = readFileSync(join(EVAL_DIR, 'README.md'), 'utf8');
    assert.ok(readme.includes(set[0].source.commit));
    assert.ok(readme.includes('npx tsx scripts/generate-eval-katas.ts'));
    for (const entry of set) assert.ok(readme.includes(`[${entry.slug}](${entry.slug}.md)`), `README lists ${entry.slug}`);
  });
});

describe('the eval kata generator (scripts/generate-eval-katas.ts)', () => {
  it('flattens nested case groups and leaves out reimplemented cases, saying by which', () => {
    const data = [
      { uuid: 'a', description: 'old', property: 'p', input: {}, expected: 1 },
      { description: 'group', cases: [{ uuid: 'b', description: 'inner', property: 'p', input: {}, expected: 2 }] },
      { uuid: 'c', reimplements: 'a', description: 'new', property: 'p', input: {}, expected: 3 },
      { uuid: 'd', description: 'odd', property: 'p', input: {}, expected: 4 },
    ];
    const cases = flattenCases(data as never);
    assert.deepEqual(
      cases.map((c) => [c.uuid, c.path]),
      [
        ['a', ['old']],
        ['b', ['group', 'inner']],
        ['c', ['new']],
        ['d', ['odd']],
      ],
    );
    const exercise = { slug: 'x', skip: { d: 'does not fit' } } as unknown as EvalExercise;
    const { kept, skipped } = selectCases(exercise, cases);
    assert.deepEqual(
      kept.map((c: FlatCase) => c.uuid),
      ['b', 'c'],
    );
    assert.deepEqual(skipped, ['a (old): reimplemented by c', 'd (odd): does not fit']);
    assert.throws(
      () => selectCases({ slug: 'x', skip: { zz: 'gone' } } as unknown as EvalExercise, cases),
      /zz is not in the data/,
    );
  });

  it('writes JavaScript, Python, Go and Ruby literals', () => {
    assert.equal(jsValue({ "don't": 2, '1': [true, null, 'a"b'] }), '{ "1": [true, null, "a\\"b"], "don\'t": 2 }');
    assert.equal(pyValue({ "don't": 2, '1': [true, false, null, 'a\nb'] }), '{"1": [True, False, None, "a\\nb"], "don\'t": 2}');
    assert.equal(jsValue([]), '[]');
    assert.equal(goValue({ "don't": 2, a: 1 }, 'map[string]int'), 'map[string]int{"don\'t": 2, "a": 1}');
    assert.equal(goValue([], '[]string'), '[]string{}');
    assert.equal(goValue([93819012551], '[]int64'), '[]int64{93819012551}');
    assert.throws(() => goValue(1.5, 'int'), /not a Go int/);
    assert.equal(
      rubyValue({ "don't": 2, a: [true, null, '#{x} #$y #z'] }),
      '{ "don\'t" => 2, "a" => [true, nil, "\\#{x} \\#$y #z"] }',
    );
    assert.equal(rubyValue({}), '{}');
    assert.equal(
      phpValue({ "don't": 2, a: [true, null, '$x \u0001 é'] }),
      '["don\'t" => 2, "a" => [true, null, "\\$x \\u{0001} é"]]',
    );
    assert.equal(pyValue({}), '{}');
  });

  it('reproduces the committed files byte for byte from the recorded commit (when problem-specifications is here)', function () {
    const candidates = [process.env.PROBLEM_SPECIFICATIONS, resolve(EVAL_DIR, '..', '..', '..', 'problem-specifications')];
    const source = candidates.find((p): p is string => !!p && existsSync(p));
    if (!source) {
      // Not fetched on this machine: set PROBLEM_SPECIFICATIONS to a checkout or git dir of it to run this.
      this.skip();
    }
    let files: Map<string, string>;
    try {
      files = generateEvalSet(source, set[0].source.commit);
    } catch (e) {
      if (/unknown revision|bad revision|Needed a single revision|not a git repository/i.test(String((e as Error).message)))
        this.skip();
      throw e;
    }
    assert.deepEqual(
      changedFiles(files),
      [],
      'run: npx tsx scripts/generate-eval-katas.ts <path> --commit <the recorded commit>',
    );
    const owned = new Set(files.keys());
    // Every language row of the generator (EMITTERS) owns its folder: no file there that it did not write.
    for (const { language } of EMITTERS) {
      for (const name of readdirSync(join(EVAL_DIR, 'acceptance', language))) {
        assert.ok(owned.has(`acceptance/${language}/${name}`), `acceptance/${language}/${name} is generated`);
      }
    }
  });
});
