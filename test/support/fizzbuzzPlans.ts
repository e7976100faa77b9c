import { join } from 'node:path';
import type { CyclePlan } from './scriptedKataModel';

/**
 * FizzBuzz without its stated examples (test/fixtures/katas/fizzbuzz.md): the kata of the sessions whose scripted
 * Tester stops after one to three cycles to test something else. The bundled kata's examples (`15 → "FizzBuzz"`…) would
 * hold their KATA_COMPLETE back (the completion check, docs/architecture.md); this one has none to check.
 */
export const FIZZBUZZ_WITHOUT_EXAMPLES = join(__dirname, '..', 'fixtures', 'katas', 'fizzbuzz.md');

/**
 * Three red-green-refactor cycles of FizzBuzz, in JavaScript (node --test, ES modules as the scaffold sets up) and Python
 * (pytest), as a competent model would play them. Each cycle's test file holds every test so far. The four JavaScript
 * cycles test every example the bundled kata states (`1`, `2`, Fizz, Buzz, FizzBuzz).
 */

const jsTests = [
  `test('returns the number itself for 1', () => {\n  assert.equal(fizzbuzz(1), '1');\n  assert.equal(fizzbuzz(2), '2');\n});\n`,
  `test('returns Fizz for multiples of three', () => {\n  assert.equal(fizzbuzz(3), 'Fizz');\n  assert.equal(fizzbuzz(9), 'Fizz');\n});\n`,
  `test('returns Buzz for multiples of five', () => {\n  assert.equal(fizzbuzz(5), 'Buzz');\n  assert.equal(fizzbuzz(10), 'Buzz');\n});\n`,
  `test('returns FizzBuzz for multiples of fifteen', () => {\n  assert.equal(fizzbuzz(15), 'FizzBuzz');\n  assert.equal(fizzbuzz(30), 'FizzBuzz');\n});\n`,
];

function jsTestFile(count: number): string {
  return `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { fizzbuzz } from '../src/fizzbuzz.js';\n\n${jsTests.slice(0, count).join('\n')}`;
}

const jsImpl = [
  `export function fizzbuzz(n) {\n  return String(n);\n}\n`,
  `export function fizzbuzz(n) {\n  if (n % 3 === 0) return 'Fizz';\n  return String(n);\n}\n`,
  `export function fizzbuzz(n) {\n  if (n % 3 === 0) return 'Fizz';\n  if (n % 5 === 0) return 'Buzz';\n  return String(n);\n}\n`,
  `export function fizzbuzz(n) {\n  if (n % 15 === 0) return 'FizzBuzz';\n  if (n % 3 === 0) return 'Fizz';\n  if (n % 5 === 0) return 'Buzz';\n  return String(n);\n}\n`,
];

const jsRefactored = `const isMultipleOf = (n, divisor) => n % divisor === 0;\n\nexport function fizzbuzz(n) {\n  if (isMultipleOf(n, 3)) return 'Fizz';\n  if (isMultipleOf(n, 5)) return 'Buzz';\n  return String(n);\n}\n`;

const behaviours = [
  'returns the number itself for 1',
  'returns fizz for multiples of three',
  'returns buzz for multiples of five',
  'returns fizzbuzz for multiples of fifteen',
];
const implementations = [
  'return the number as a string',
  'return fizz for multiples of three',
  'return buzz for multiples of five',
  'return fizzbuzz for multiples of fifteen',
];

export const JS_TEST_PATH = 'test/fizzbuzz.test.js';
export const JS_SOURCE_PATH = 'src/fizzbuzz.js';

/** FizzBuzz in JavaScript: `cycles` cycles (1–4); cycle 3 ends with a refactoring (a named divisibility check). */
export function fizzbuzzJs(cycles = 3, { refactor = true } = {}): CyclePlan[] {
  return Array.from({ length: cycles }, (_, i) => ({
    tester: { writes: [{ path: JS_TEST_PATH, content: jsTestFile(i + 1) }], report: behaviours[i]!, runTests: true },
    implementer: { writes: [{ path: JS_SOURCE_PATH, content: jsImpl[i]! }], report: implementations[i]!, runTests: true },
    refactorer:
      refactor && i === 2
        ? { writes: [{ path: JS_SOURCE_PATH, content: jsRefactored }], report: 'name the divisibility check', runTests: true }
        : undefined,
  }));
}

/** The refactored JavaScript source (a behaviour-preserving change of the cycle-3 code). */
export const JS_REFACTORED_SOURCE = jsRefactored;
/** JavaScript sources and tests by cycle, for scenario overrides. */
export const JS = { testFile: jsTestFile, impl: (cycle: number) => jsImpl[cycle - 1]! };

const pyTests = [
  `def test_returns_the_number_itself_for_1():\n    assert fizzbuzz(1) == "1"\n`,
  `def test_returns_fizz_for_multiples_of_three():\n    assert fizzbuzz(3) == "Fizz"\n    assert fizzbuzz(9) == "Fizz"\n`,
  `def test_returns_buzz_for_multiples_of_five():\n    assert fizzbuzz(5) == "Buzz"\n    assert fizzbuzz(10) == "Buzz"\n`,
];

const pyImpl = [
  `def fizzbuzz(n):\n    return str(n)\n`,
  `def fizzbuzz(n):\n    if n % 3 == 0:\n        return "Fizz"\n    return str(n)\n`,
  `def fizzbuzz(n):\n    if n % 3 == 0:\n        return "Fizz"\n    if n % 5 == 0:\n        return "Buzz"\n    return str(n)\n`,
];

export const PY_TEST_PATH = 'tests/test_fizzbuzz.py';
export const PY_SOURCE_PATH = 'src/fizzbuzz.py';

/** FizzBuzz in Python with pytest: three cycles. */
export function fizzbuzzPython(): CyclePlan[] {
  return pyTests.map((_, i) => ({
    tester: {
      writes: [{ path: PY_TEST_PATH, content: `from fizzbuzz import fizzbuzz\n\n\n${pyTests.slice(0, i + 1).join('\n\n')}` }],
      report: behaviours[i]!,
    },
    implementer: { writes: [{ path: PY_SOURCE_PATH, content: pyImpl[i]! }], report: implementations[i]! },
  }));
}
