import type { CyclePlan, KataScript, TurnPlan } from './scriptedKataModel';

/**
 * Scripted players that each make one realistic mistake against the supervisor's verdicts (issue 35), then follow the
 * feedback the product gives them, as a model does:
 * - {@link importOnlyTester}: the Tester only adds a name that does not exist yet to the test file's import line (no new
 *   test); told so, it writes the test;
 * - {@link stopsEarly}: the Tester answers KATA_COMPLETE after one FizzBuzz cycle; it insists, or, asked once more,
 *   tests what the kata states and it had left out (one example the code already handles);
 * - {@link dropsAFailedTest}: the Implementer cannot make a test pass, the cycle goes back, and the Tester moves on to
 *   another test, leaving the failed one behind.
 */

const KATA_COMPLETE: TurnPlan = { writes: [], report: 'KATA_COMPLETE\nEvery behaviour is covered.' };

// --- the import line -------------------------------------------------------------------------------------------------

/** The person's small npm project: one module, one test, `npm test` runs node:test. */
export const STRINGS_PROJECT: Record<string, string> = {
  'package.json': `${JSON.stringify({ name: 'strings', version: '1.0.0', type: 'module', scripts: { test: 'node --test' } }, null, 2)}\n`,
  'src/strings.js': 'export function shout(text) {\n  return `${text.toUpperCase()}!`;\n}\n',
  'test/strings.test.js':
    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { shout } from '../src/strings.js';\n\ntest('shout upper-cases and adds a bang', () => {\n  assert.equal(shout('hi'), 'HI!');\n});\n",
  '.gitignore': 'node_modules/\n',
};

/** The task a newcomer types. */
export const WHISPER_TASK = 'Add whisper(text) to the strings module: the text in lower case';

const WHISPER_TEST = "\ntest('whisper lower-cases the text', () => {\n  assert.equal(whisper('HeLLo'), 'hello');\n});\n";

/**
 * The Tester's first attempt edits only the import line (`{ shout }` → `{ shout, whisper }`): the module does not export
 * `whisper`, so the test file no longer loads — and its one test does not run. Its next attempt writes the test.
 */
export function importOnlyTester(): KataScript {
  const testFile = STRINGS_PROJECT['test/strings.test.js']!.replace('{ shout }', '{ shout, whisper }');
  return {
    cycles: [
      {
        tester: {
          writes: [{ path: 'test/strings.test.js', content: `${testFile}${WHISPER_TEST}` }],
          report: 'whisper lower-cases',
        },
        implementer: {
          writes: [
            {
              path: 'src/strings.js',
              content: `${STRINGS_PROJECT['src/strings.js']}\nexport function whisper(text) {\n  return text.toLowerCase();\n}\n`,
            },
          ],
          report: 'add whisper',
        },
      },
    ],
    overrides: {
      'tester:1:1': {
        edits: [{ path: 'test/strings.test.js', edits: [{ search: '{ shout }', replace: '{ shout, whisper }' }] }],
        report: 'whisper lower-cases the text',
      },
    },
  };
}

// --- KATA_COMPLETE after one cycle -------------------------------------------------------------------------------------

export const FIZZ_TEST_PATH = 'test/fizzbuzz.test.js';
export const FIZZ_SOURCE_PATH = 'src/fizzbuzz.js';

const header =
  "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { fizzbuzz } from '../src/fizzbuzz.js';\n";
const fizzTests = {
  one: "\ntest('returns the number itself for 1', () => {\n  assert.equal(fizzbuzz(1), '1');\n});\n",
  fizz: "\ntest('returns Fizz for multiples of three', () => {\n  assert.equal(fizzbuzz(3), 'Fizz');\n});\n",
  buzz: "\ntest('returns Buzz for multiples of five', () => {\n  assert.equal(fizzbuzz(5), 'Buzz');\n});\n",
  fizzBuzz: "\ntest('returns FizzBuzz for multiples of fifteen', () => {\n  assert.equal(fizzbuzz(15), 'FizzBuzz');\n});\n",
  two: "\ntest('returns the number itself for 2', () => {\n  assert.equal(fizzbuzz(2), '2');\n});\n",
};
const impls = {
  one: 'export function fizzbuzz(n) {\n  return String(n);\n}\n',
  fizz: "export function fizzbuzz(n) {\n  if (n % 3 === 0) return 'Fizz';\n  return String(n);\n}\n",
  buzz: "export function fizzbuzz(n) {\n  if (n % 3 === 0) return 'Fizz';\n  if (n % 5 === 0) return 'Buzz';\n  return String(n);\n}\n",
  fizzBuzz:
    "export function fizzbuzz(n) {\n  if (n % 15 === 0) return 'FizzBuzz';\n  if (n % 3 === 0) return 'Fizz';\n  if (n % 5 === 0) return 'Buzz';\n  return String(n);\n}\n",
};

function cycle(tests: string[], impl: string, behaviour: string): CyclePlan {
  return {
    tester: { writes: [{ path: FIZZ_TEST_PATH, content: header + tests.join('') }], report: behaviour },
    implementer: { writes: [{ path: FIZZ_SOURCE_PATH, content: impl }], report: `make it pass: ${behaviour}` },
  };
}

/**
 * FizzBuzz (the bundled kata): one cycle (`1 → "1"`), then KATA_COMPLETE. `insists`: it answers KATA_COMPLETE again
 * when asked once more. Otherwise it follows the question: Fizz, Buzz and FizzBuzz in three cycles, KATA_COMPLETE again,
 * and, asked about `2 → "2"` (which the code already handles), a test of it; then KATA_COMPLETE.
 */
export function stopsEarly({ insists }: { insists: boolean }): KataScript {
  if (insists) return { cycles: [cycle([fizzTests.one], impls.one, 'returns the number itself for 1')] };
  const { one, fizz, buzz, fizzBuzz, two } = fizzTests;
  return {
    cycles: [
      cycle([one], impls.one, 'returns the number itself for 1'),
      cycle([one, fizz], impls.fizz, 'returns Fizz for multiples of three'),
      cycle([one, fizz, buzz], impls.buzz, 'returns Buzz for multiples of five'),
      cycle([one, fizz, buzz, fizzBuzz], impls.fizzBuzz, 'returns FizzBuzz for multiples of fifteen'),
      // Its implementer turn never comes: the test passes at once.
      cycle([one, two, fizz, buzz, fizzBuzz], impls.fizzBuzz, 'returns the number itself for 2'),
    ],
    overrides: { 'tester:2:1': KATA_COMPLETE, 'tester:5:1': KATA_COMPLETE },
  };
}

// --- a failed cycle's test left behind ---------------------------------------------------------------------------------

/**
 * FizzBuzz without stated examples (so that only the lost test matters): `1`; then a Fizz test that the Implementer
 * never makes pass (the cycle goes back); then the Tester writes a Buzz test instead, leaving Fizz behind; then
 * KATA_COMPLETE.
 */
export function dropsAFailedTest(): KataScript {
  const { one, fizz, buzz } = fizzTests;
  const buzzOnly = "export function fizzbuzz(n) {\n  if (n % 5 === 0) return 'Buzz';\n  return String(n);\n}\n";
  const wrong: TurnPlan = {
    writes: [
      { path: FIZZ_SOURCE_PATH, content: "export function fizzbuzz(n) {\n  return n % 3 === 0 ? 'Fiz' : String(n);\n}\n" },
    ],
    report: 'return Fizz for multiples of three',
  };
  return {
    cycles: [
      cycle([one], impls.one, 'returns the number itself for 1'),
      { ...cycle([one, fizz], impls.fizz, 'returns Fizz for multiples of three'), implementer: wrong },
      cycle([one, buzz], buzzOnly, 'returns Buzz for multiples of five'),
    ],
  };
}
