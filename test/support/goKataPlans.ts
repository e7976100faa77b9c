import type { CyclePlan } from './scriptedKataModel';

/** One cycle of a Go kata: the new test function, the source that makes every test pass, and the behaviour. */
interface GoStep {
  test: string;
  impl: string;
  behaviour: string;
}

/** A bundled kata played in Go: its package, the files at the module's root (code and tests side by side), the steps. */
export interface GoKata {
  slug: string;
  /** The package name (`fizzbuzz`), the folder being the module's root. */
  pkg: string;
  source: string;
  testFile: string;
  /** The test file's imports besides `testing`. */
  steps: GoStep[];
}

/** The test file after `count` steps: the package clause, `testing`, and every test so far. */
export function goTestFile(kata: GoKata, count: number): string {
  return `package ${kata.pkg}\n\nimport "testing"\n\n${kata.steps
    .slice(0, count)
    .map((s) => s.test)
    .join('\n')}`;
}

/** Scripted cycles: each Tester turn adds one test function to the kata's `_test.go` file, each Implementer turn rewrites the source. */
export function goKataCycles(kata: GoKata): CyclePlan[] {
  return kata.steps.map((step, i) => ({
    tester: { writes: [{ path: kata.testFile, content: goTestFile(kata, i + 1) }], report: step.behaviour, runTests: true },
    implementer: {
      writes: [{ path: kata.source, content: `package ${kata.pkg}\n\n${step.impl}` }],
      report: `make "${step.behaviour}" pass`,
      runTests: true,
    },
  }));
}

const fizzbuzzImpl = (...rules: string[]): string =>
  `import "strconv"\n\n// FizzBuzz says n the FizzBuzz way.\nfunc FizzBuzz(n int) string {\n${rules.map((r) => `\t${r}\n`).join('')}\treturn strconv.Itoa(n)\n}\n`;

/** FizzBuzz in Go, four cycles: every example the bundled kata states gets its test. */
export const GO_FIZZBUZZ: GoKata = {
  slug: 'fizzbuzz',
  pkg: 'fizzbuzz',
  source: 'fizzbuzz.go',
  testFile: 'fizzbuzz_test.go',
  steps: [
    {
      behaviour: 'returns the number itself',
      test: `func TestReturnsTheNumberItself(t *testing.T) {\n\tfor n, want := range map[int]string{1: "1", 2: "2"} {\n\t\tif got := FizzBuzz(n); got != want {\n\t\t\tt.Errorf("FizzBuzz(%d) = %q, want %q", n, got, want)\n\t\t}\n\t}\n}\n`,
      impl: fizzbuzzImpl(),
    },
    {
      behaviour: 'says Fizz for multiples of three',
      test: `func TestFizzForMultiplesOfThree(t *testing.T) {\n\tfor _, n := range []int{3, 6} {\n\t\tif got := FizzBuzz(n); got != "Fizz" {\n\t\t\tt.Errorf("FizzBuzz(%d) = %q, want Fizz", n, got)\n\t\t}\n\t}\n}\n`,
      impl: fizzbuzzImpl('if n%3 == 0 {\n\t\treturn "Fizz"\n\t}'),
    },
    {
      behaviour: 'says Buzz for multiples of five',
      test: `func TestBuzzForMultiplesOfFive(t *testing.T) {\n\tfor _, n := range []int{5, 10} {\n\t\tif got := FizzBuzz(n); got != "Buzz" {\n\t\t\tt.Errorf("FizzBuzz(%d) = %q, want Buzz", n, got)\n\t\t}\n\t}\n}\n`,
      impl: fizzbuzzImpl('if n%3 == 0 {\n\t\treturn "Fizz"\n\t}', 'if n%5 == 0 {\n\t\treturn "Buzz"\n\t}'),
    },
    {
      behaviour: 'says FizzBuzz for multiples of fifteen',
      test: `func TestFizzBuzzForMultiplesOfFifteen(t *testing.T) {\n\tif got := FizzBuzz(15); got != "FizzBuzz" {\n\t\tt.Errorf("FizzBuzz(15) = %q, want FizzBuzz", got)\n\t}\n}\n`,
      impl: fizzbuzzImpl(
        'if n%15 == 0 {\n\t\treturn "FizzBuzz"\n\t}',
        'if n%3 == 0 {\n\t\treturn "Fizz"\n\t}',
        'if n%5 == 0 {\n\t\treturn "Buzz"\n\t}',
      ),
    },
  ],
};

/** Leap Year in Go, three cycles (the kata's last rule, common years, is left without a test). */
export const GO_LEAP_YEAR: GoKata = {
  slug: 'leap-year',
  pkg: 'leapyear',
  source: 'leap_year.go',
  testFile: 'leap_year_test.go',
  steps: [
    {
      behaviour: 'a year divisible by 4 is a leap year',
      test: `func TestDivisibleByFour(t *testing.T) {\n\tif !IsLeapYear(1996) {\n\t\tt.Error("1996 is a leap year")\n\t}\n}\n`,
      impl: '// IsLeapYear tells a leap year.\nfunc IsLeapYear(year int) bool {\n\treturn year%4 == 0\n}\n',
    },
    {
      behaviour: 'a century is not a leap year',
      test: `func TestCentury(t *testing.T) {\n\tif IsLeapYear(1900) {\n\t\tt.Error("1900 is not a leap year")\n\t}\n}\n`,
      impl: '// IsLeapYear tells a leap year.\nfunc IsLeapYear(year int) bool {\n\treturn year%4 == 0 && year%100 != 0\n}\n',
    },
    {
      behaviour: 'every 400 years it is',
      test: `func TestFourHundred(t *testing.T) {\n\tif !IsLeapYear(2000) {\n\t\tt.Error("2000 is a leap year")\n\t}\n}\n`,
      impl: '// IsLeapYear tells a leap year.\nfunc IsLeapYear(year int) bool {\n\treturn year%400 == 0 || (year%4 == 0 && year%100 != 0)\n}\n',
    },
  ],
};
