import type { CyclePlan } from './scriptedKataModel';

/** One cycle of a PHP kata: the new test method, the class that makes every test pass, and the behaviour. */
interface PhpStep {
  test: string;
  impl: string;
  behaviour: string;
}

/** A bundled kata played in PHP: its class (in the scaffold's global namespace), its files, the steps. */
export interface PhpKata {
  slug: string;
  /** The class under test, `src/<class>.php`, tested by `tests/<class>Test.php`. */
  className: string;
  steps: PhpStep[];
}

/** `src/FizzBuzz.php`, the class's file. */
export const phpSource = (kata: PhpKata): string => `src/${kata.className}.php`;
/** `tests/FizzBuzzTest.php`, the test class's file. */
export const phpTestFile = (kata: PhpKata): string => `tests/${kata.className}Test.php`;

/** The test class after `count` steps: every test method so far. */
export function phpTestClass(kata: PhpKata, count: number, extra = ''): string {
  const methods = kata.steps.slice(0, count).map((s) => s.test);
  return `<?php\n\ndeclare(strict_types=1);\n\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class ${kata.className}Test extends TestCase\n{\n${[...methods, ...(extra ? [extra] : [])].join('\n')}}\n`;
}

/** The class under test with `body` as its one method. */
const phpClass = (name: string, body: string): string =>
  `<?php\n\ndeclare(strict_types=1);\n\nfinal class ${name}\n{\n${body}}\n`;

/** Scripted cycles: each Tester turn adds one test method to the kata's test class, each Implementer turn rewrites the class. */
export function phpKataCycles(kata: PhpKata): CyclePlan[] {
  return kata.steps.map((step, i) => ({
    tester: { writes: [{ path: phpTestFile(kata), content: phpTestClass(kata, i + 1) }], report: step.behaviour, runTests: true },
    implementer: {
      writes: [{ path: phpSource(kata), content: phpClass(kata.className, step.impl) }],
      report: `make "${step.behaviour}" pass`,
      runTests: true,
    },
  }));
}

const fizzbuzzImpl = (...rules: string[]): string =>
  `    public static function of(int $n): string\n    {\n${rules.map((r) => `        ${r}\n`).join('')}        return (string) $n;\n    }\n`;

/** FizzBuzz in PHP, four cycles: every example the bundled kata states gets its test. */
export const PHP_FIZZBUZZ: PhpKata = {
  slug: 'fizzbuzz',
  className: 'FizzBuzz',
  steps: [
    {
      behaviour: 'returns the number itself',
      test: `    public function testReturnsTheNumberItself(): void\n    {\n        $this->assertSame('1', FizzBuzz::of(1));\n        $this->assertSame('2', FizzBuzz::of(2));\n    }\n`,
      impl: fizzbuzzImpl(),
    },
    {
      behaviour: 'says Fizz for multiples of three',
      test: `    public function testFizzForMultiplesOfThree(): void\n    {\n        $this->assertSame('Fizz', FizzBuzz::of(3));\n        $this->assertSame('Fizz', FizzBuzz::of(6));\n    }\n`,
      impl: fizzbuzzImpl("if ($n % 3 === 0) {\n            return 'Fizz';\n        }"),
    },
    {
      behaviour: 'says Buzz for multiples of five',
      test: `    public function testBuzzForMultiplesOfFive(): void\n    {\n        $this->assertSame('Buzz', FizzBuzz::of(5));\n        $this->assertSame('Buzz', FizzBuzz::of(10));\n    }\n`,
      impl: fizzbuzzImpl(
        "if ($n % 3 === 0) {\n            return 'Fizz';\n        }",
        "if ($n % 5 === 0) {\n            return 'Buzz';\n        }",
      ),
    },
    {
      behaviour: 'says FizzBuzz for multiples of fifteen',
      test: `    public function testFizzBuzzForMultiplesOfFifteen(): void\n    {\n        $this->assertSame('FizzBuzz', FizzBuzz::of(15));\n    }\n`,
      impl: fizzbuzzImpl(
        "if ($n % 15 === 0) {\n            return 'FizzBuzz';\n        }",
        "if ($n % 3 === 0) {\n            return 'Fizz';\n        }",
        "if ($n % 5 === 0) {\n            return 'Buzz';\n        }",
      ),
    },
  ],
};

const leapImpl = (rule: string): string =>
  `    public static function isLeap(int $year): bool\n    {\n        return ${rule};\n    }\n`;

/** Leap Year in PHP, three cycles (the kata's last rule, common years, is left without a test). */
export const PHP_LEAP_YEAR: PhpKata = {
  slug: 'leap-year',
  className: 'LeapYear',
  steps: [
    {
      behaviour: 'a year divisible by 4 is a leap year',
      test: `    public function testYearDivisibleByFourIsLeap(): void\n    {\n        $this->assertTrue(LeapYear::isLeap(1996));\n    }\n`,
      impl: leapImpl('$year % 4 === 0'),
    },
    {
      behaviour: 'a century is not a leap year',
      test: `    public function testCenturyIsNotLeap(): void\n    {\n        $this->assertFalse(LeapYear::isLeap(1900));\n    }\n`,
      impl: leapImpl('$year % 4 === 0 && $year % 100 !== 0'),
    },
    {
      behaviour: 'every 400 years it is',
      test: `    public function testEveryFourHundredYearsItIs(): void\n    {\n        $this->assertTrue(LeapYear::isLeap(2000));\n    }\n`,
      impl: leapImpl('$year % 400 === 0 || ($year % 4 === 0 && $year % 100 !== 0)'),
    },
  ],
};
