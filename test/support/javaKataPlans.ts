import type { CyclePlan } from './scriptedKataModel';

/** One cycle of a Java kata: the new JUnit test method, the class that makes every test pass, and the behaviour. */
interface JavaStep {
  test: string;
  impl: string;
  behaviour: string;
}

/** A bundled kata played in Java: its class (in package `kata`), its files, the steps. */
export interface JavaKata {
  slug: string;
  /** The class under test, `src/main/java/kata/<class>.java`, tested by `src/test/java/kata/<class>Test.java`. */
  className: string;
  steps: JavaStep[];
}

/** `src/main/java/kata/FizzBuzz.java`, the class's file. */
export const javaSource = (kata: JavaKata): string => `src/main/java/kata/${kata.className}.java`;
/** `src/test/java/kata/FizzBuzzTest.java`, the test class's file. */
export const javaTestFile = (kata: JavaKata): string => `src/test/java/kata/${kata.className}Test.java`;

/** The test class after `count` steps: every test method so far. */
export function javaTestClass(kata: JavaKata, count: number, extra = ''): string {
  const methods = kata.steps.slice(0, count).map((s) => s.test);
  return [
    'package kata;',
    '',
    'import static org.junit.jupiter.api.Assertions.assertEquals;',
    'import static org.junit.jupiter.api.Assertions.assertFalse;',
    'import static org.junit.jupiter.api.Assertions.assertTrue;',
    '',
    'import org.junit.jupiter.api.Test;',
    '',
    `class ${kata.className}Test {`,
    [...methods, ...(extra ? [extra] : [])].join('\n'),
    '}',
    '',
  ].join('\n');
}

/** The class under test with `body` as its one method. */
const javaClass = (name: string, body: string): string =>
  `package kata;\n\npublic final class ${name} {\n  private ${name}() {}\n\n${body}}\n`;

/** Scripted cycles: each Tester turn adds one test method to the kata's test class, each Implementer turn rewrites the class. */
export function javaKataCycles(kata: JavaKata): CyclePlan[] {
  return kata.steps.map((step, i) => ({
    tester: {
      writes: [{ path: javaTestFile(kata), content: javaTestClass(kata, i + 1) }],
      report: step.behaviour,
      runTests: true,
    },
    implementer: {
      writes: [{ path: javaSource(kata), content: javaClass(kata.className, step.impl) }],
      report: `make "${step.behaviour}" pass`,
      runTests: true,
    },
  }));
}

const test = (name: string, ...lines: string[]): string =>
  `  @Test\n  void ${name}() {\n${lines.map((l) => `    ${l}\n`).join('')}  }\n`;
const fizzbuzzImpl = (...rules: string[]): string =>
  `  public static String of(int n) {\n${rules.map((r) => `    ${r}\n`).join('')}    return String.valueOf(n);\n  }\n`;

/** FizzBuzz in Java, four cycles: every example the bundled kata states gets its test. */
export const JAVA_FIZZBUZZ: JavaKata = {
  slug: 'fizzbuzz',
  className: 'FizzBuzz',
  steps: [
    {
      behaviour: 'returns the number itself',
      test: test('returnsTheNumberItself', 'assertEquals("1", FizzBuzz.of(1));', 'assertEquals("2", FizzBuzz.of(2));'),
      impl: fizzbuzzImpl(),
    },
    {
      behaviour: 'says Fizz for multiples of three',
      test: test('fizzForMultiplesOfThree', 'assertEquals("Fizz", FizzBuzz.of(3));', 'assertEquals("Fizz", FizzBuzz.of(6));'),
      impl: fizzbuzzImpl('if (n % 3 == 0) return "Fizz";'),
    },
    {
      behaviour: 'says Buzz for multiples of five',
      test: test('buzzForMultiplesOfFive', 'assertEquals("Buzz", FizzBuzz.of(5));', 'assertEquals("Buzz", FizzBuzz.of(10));'),
      impl: fizzbuzzImpl('if (n % 3 == 0) return "Fizz";', 'if (n % 5 == 0) return "Buzz";'),
    },
    {
      behaviour: 'says FizzBuzz for multiples of fifteen',
      test: test('fizzBuzzForMultiplesOfFifteen', 'assertEquals("FizzBuzz", FizzBuzz.of(15));'),
      impl: fizzbuzzImpl(
        'if (n % 15 == 0) return "FizzBuzz";',
        'if (n % 3 == 0) return "Fizz";',
        'if (n % 5 == 0) return "Buzz";',
      ),
    },
  ],
};

const leapImpl = (rule: string): string => `  public static boolean isLeap(int year) {\n    return ${rule};\n  }\n`;

/** Leap Year in Java, three cycles (the kata's last rule, common years, is left without a test). */
export const JAVA_LEAP_YEAR: JavaKata = {
  slug: 'leap-year',
  className: 'LeapYear',
  steps: [
    {
      behaviour: 'a year divisible by 4 is a leap year',
      test: test('yearDivisibleByFourIsLeap', 'assertTrue(LeapYear.isLeap(1996));'),
      impl: leapImpl('year % 4 == 0'),
    },
    {
      behaviour: 'a century is not a leap year',
      test: test('centuryIsNotLeap', 'assertFalse(LeapYear.isLeap(1900));'),
      impl: leapImpl('year % 4 == 0 && year % 100 != 0'),
    },
    {
      behaviour: 'every 400 years it is',
      test: test('everyFourHundredYearsItIs', 'assertTrue(LeapYear.isLeap(2000));'),
      impl: leapImpl('year % 400 == 0 || (year % 4 == 0 && year % 100 != 0)'),
    },
  ],
};
