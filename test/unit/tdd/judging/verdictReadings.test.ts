import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mentionsValue, statedExamples, taskExamples } from '../../../../src/core/tdd/kata/statedExamples';
import { parseKata } from '../../../../src/core/tdd/kata/parseKata';
import { addedTests, importedNames, importsModule, moduleStem } from '../../../../src/core/tdd/phases/addedTests';
import { RedTestLedger } from '../../../../src/core/tdd/phases/redTests';
import { judgeRed, loadFailureOf, suiteStateOf } from '../../../../src/core/tdd/judging/testJudgement';
import type { TestCaseResult, TestRunResult } from '../../../../src/core/testRunners/types';

const ROOT = join(__dirname, '..', '..', '..', '..');
const kata = (slug: string) => parseKata(readFileSync(join(ROOT, 'katas', `${slug}.md`), 'utf8'), { fileName: `${slug}.md` });
const values = (slug: string) => statedExamples(kata(slug).description).map((e) => e.values.join('|'));

function run(tests: TestCaseResult[] | undefined, extra: Partial<TestRunResult> = {}): TestRunResult {
  const failed = tests?.filter((t) => t.outcome === 'failed').length ?? 0;
  const passed = tests?.filter((t) => t.outcome === 'passed').length ?? 0;
  return {
    status: failed > 0 ? 'failed' : 'passed',
    passed,
    failed,
    total: passed + failed,
    output: '',
    command: 'node --test',
    exitCode: failed > 0 ? 1 : 0,
    durationMs: 1,
    tests,
    ...extra,
  };
}
const test = (file: string, name: string, outcome: TestCaseResult['outcome']): TestCaseResult => ({
  id: `${file}::${name}`,
  name,
  file,
  outcome,
});

describe('the stated examples of a kata or task (what KATA_COMPLETE is checked against)', () => {
  it('FizzBuzz: its table, one example per expected value; Roman numerals: its arrows; String Calculator: its pairs', () => {
    assert.deepEqual(values('fizzbuzz'), ['1', '2', 'Fizz', 'Buzz', 'FizzBuzz']);
    assert.deepEqual(statedExamples(kata('fizzbuzz').description).at(-1)!.text, '15 → "FizzBuzz"');
    assert.deepEqual(values('roman-numerals').slice(0, 4), ['I', 'III', 'IV', 'IX']);
    assert.equal(values('roman-numerals').length, 11, 'the symbol table is no example');
    assert.deepEqual(values('string-calculator'), ['0', '1', '3', '10', '6', 'negatives not allowed: -2, -3', '2']);
  });

  it('Bowling: the last value of each example line, remarks in parentheses left out; Leap Year: any example of each rule', () => {
    assert.deepEqual(values('bowling'), ['0', '20', '16', '24', '300']);
    assert.deepEqual(values('leap-year'), ['1996|2012', '1900|2100', '1600|2000', '2017|2019']);
  });

  it('a task: its pairs, and what it quotes or backticks (a function by its name); the attached code is not read', () => {
    const examples = taskExamples(
      'Add parse_size(text) so that "1KB" reads as 1024 and `parse_size("2MB")` is `2097152`, in `sizes.py`\n\n```py\nx = "not an example"\n```',
    );
    assert.deepEqual(
      examples.map((e) => e.values[0]),
      ['2097152', '1KB', 'sizes.py'],
    );
    assert.deepEqual(taskExamples('Write a fizzbuzz(n) function'), []);
    assert.deepEqual(
      taskExamples('Add `slugify(text)`').map((e) => e.values),
      [['slugify']],
    );
  });

  it('a value is found as a whole: Fizz not inside FizzBuzz, 15 not inside 150, spaces loose', () => {
    assert.equal(mentionsValue("assert.equal(fizzbuzz(15), 'FizzBuzz')", 'Fizz'), false);
    assert.equal(mentionsValue("assert.equal(fizzbuzz(15), 'FizzBuzz')", 'FizzBuzz'), true);
    assert.equal(mentionsValue('fizzbuzz(150)', '15'), false);
    assert.equal(mentionsValue('assert add("1,-2") raises "negatives not allowed:  -2"', 'negatives not allowed: -2'), true);
  });
});

describe('what a Tester turn added, read from the source', () => {
  const before =
    "import { test } from 'node:test';\nimport { shout } from '../src/strings.js';\n\ntest('shout', () => {\n  shout('a');\n});\n";

  it('an import line changed alone adds no test; a new test, or a changed body, does', () => {
    assert.deepEqual(addedTests('t.test.js', before, before.replace('{ shout }', '{ shout, whisper }')), []);
    const added = addedTests(
      't.test.js',
      before,
      `${before}\ntest('whisper', () => {\n  whisper('A'); // )\n});\nconst x = 1;\n`,
    );
    assert.deepEqual(
      added.map((t) => [t.title, t.body]),
      [['whisper', "test('whisper', () => {\n  whisper('A'); // )\n})"]],
    );
    assert.deepEqual(
      addedTests('t.test.js', before, before.replace("shout('a')", "shout('b')")).map((t) => t.title),
      ['shout'],
    );
    assert.deepEqual(
      addedTests('t.py', 'def test_a():\n    pass\n', 'def test_a():\n    pass\n\n\ndef test_b():\n    assert b()\nx = 1\n').map(
        (t) => t.body,
      ),
      ['def test_b():\n    assert b()'],
    );
  });

  it('the names a file imports, and a module by its stem', () => {
    assert.deepEqual(
      importedNames('t.js', "import x, { a, b as c } from './m.js';\nconst { d } = require('../d');\nimport * as ns from 'pkg';"),
      [
        { name: 'a', from: './m.js' },
        { name: 'c', from: './m.js' },
        { name: 'x', from: './m.js' },
        { name: 'ns', from: 'pkg' },
        { name: 'd', from: '../d' },
      ],
    );
    assert.deepEqual(importedNames('t.py', 'from pkg.sizes import (parse,\n    fmt as f)\nimport os.path\n'), [
      { name: 'parse', from: 'pkg.sizes' },
      { name: 'f', from: 'pkg.sizes' },
      { name: 'os', from: 'os.path' },
    ]);
    assert.deepEqual(['../src/fizzbuzz.js', '/abs/src/fizzbuzz.js', 'pkg.sizes', 'fizzbuzz'].map(moduleStem), [
      'fizzbuzz',
      'fizzbuzz',
      'sizes',
      'fizzbuzz',
    ]);
    assert.equal(importsModule('../src/fizzbuzz.js', '/tmp/w/src/fizzbuzz.js'), true);
    assert.equal(importsModule('mylib.sizes', 'mylib'), true, 'a module inside a missing package');
    assert.equal(importsModule('node:test', '/tmp/w/src/fizzbuzz.js'), false);
  });
});

describe('a test file that no longer loads, judged by identity', () => {
  const green = run([test('test/a.test.js', 'one', 'passed'), test('test/b.test.js', 'two', 'passed')]);

  it("node:test's failed file entry is no new failing test: the file's other tests did not run", () => {
    const after = run([test('test/a.test.js', 'test/a.test.js', 'failed'), test('test/b.test.js', 'two', 'passed')], {
      status: 'error',
      errorKind: 'missing_export',
      missingName: 'whisper',
      reason: "'whisper' is imported but not exported",
    });
    assert.deepEqual(judgeRed(suiteStateOf(green), { ...after, status: 'failed' }), { kind: 'overshoot' });
    assert.deepEqual(loadFailureOf(suiteStateOf(green), after), {
      files: ['test/a.test.js'],
      notRun: ['test/a.test.js::one'],
      reason: "'whisper' is imported but not exported",
      missing: { kind: 'name', name: 'whisper' },
    });
  });

  it('pytest stops the whole run: every earlier test did not run; a run without a load problem has none', () => {
    const stopped = run([], { status: 'error', errorKind: 'missing_module', missingName: 'sizes', reason: 'no module' });
    assert.deepEqual(loadFailureOf(suiteStateOf(green), stopped)?.notRun, ['test/a.test.js::one', 'test/b.test.js::two']);
    assert.equal(loadFailureOf(suiteStateOf(green), green), undefined);
  });

  it("a text file's doctest, which pytest names after its page, is a failing test, not a file that did not load", () => {
    const page = run([test('docs/index.rst', 'index.rst', 'failed'), test('test/a.test.js', 'one', 'passed')], {
      status: 'failed',
    });
    assert.equal(loadFailureOf(suiteStateOf(green), page), undefined);
  });
});

describe('the red tests of a session, followed until they pass in a commit', () => {
  it('a red test missing from a later run is gone; written again and committed, it is back', () => {
    const ledger = new RedTestLedger();
    ledger.add([{ id: 'test/a.test.js::fizz', file: 'test/a.test.js', title: 'fizz', cycle: 2 }]);
    assert.deepEqual(
      ledger.missingFrom(run([test('test/b.test.js', 'x', 'passed')], { scope: 'related', relatedFiles: ['test/b.test.js'] })),
      [],
    );
    assert.deepEqual(ledger.missingFrom(run(undefined)), [], 'a run without per-test results says nothing');
    const gone = ledger.missingFrom(run([test('test/a.test.js', 'buzz', 'failed')]));
    assert.deepEqual(
      gone.map((t) => t.title),
      ['fizz'],
    );
    assert.equal(ledger.gone.length, 1);
    assert.deepEqual(
      ledger.committed(run([test('test/a.test.js', 'fizz', 'passed')])).map((t) => t.title),
      ['fizz'],
    );
    assert.equal(ledger.gone.length, 0);
  });
});
