import type { CyclePlan } from './scriptedKataModel';

/** One cycle of a Rust kata: the new test function, the code that makes every test pass, and the behaviour. */
interface RustStep {
  test: string;
  impl: string;
  behaviour: string;
}

/**
 * A bundled kata played in Rust. `inline`: the tests are the `#[cfg(test)] mod tests` of the very file the code is in
 * (`src/lib.rs`), so the Tester changes only that module and the Implementer only the code above it; otherwise the tests
 * are an integration test file (`tests/<name>.rs`, `use <crate>::…`).
 */
export interface RustKata {
  slug: string;
  /** The crate's name as code writes it (`leap_year`). */
  crate: string;
  source: string;
  testFile: string;
  inline: boolean;
  steps: RustStep[];
}

const indent = (text: string): string =>
  text
    .split('\n')
    .map((l) => (l ? `    ${l}` : l))
    .join('\n');

/** The tests after `count` steps: an inline module (`use super::*;`) or a tests/ file (`use <crate>::…;`). */
export function rustTests(kata: RustKata, count: number, uses = ''): string {
  const tests = kata.steps.slice(0, count).map((s) => s.test);
  if (kata.inline) return `#[cfg(test)]\nmod tests {\n    use super::*;\n\n${tests.map(indent).join('\n')}}\n`;
  return `${uses}\n${tests.join('\n')}`;
}

/** The Tester's file after `count` steps: the module under the code as the Implementer left it, or the tests/ file. */
export function rustTesterFile(kata: RustKata, count: number): string {
  if (!kata.inline) return rustTests(kata, count, `use ${kata.crate}::is_leap_year;\n`);
  const code = count > 1 ? `${kata.steps[count - 2]!.impl}\n` : '';
  return `${code}${rustTests(kata, count)}`;
}

/** The Implementer's file after `count` steps: the code, and for inline tests the Tester's module below it unchanged. */
export function rustImplementerFile(kata: RustKata, count: number): string {
  const impl = kata.steps[count - 1]!.impl;
  return kata.inline ? `${impl}\n${rustTests(kata, count)}` : impl;
}

/** Scripted cycles: each Tester turn adds one test, each Implementer turn rewrites the code. */
export function rustKataCycles(kata: RustKata): CyclePlan[] {
  return kata.steps.map((step, i) => ({
    tester: { writes: [{ path: kata.testFile, content: rustTesterFile(kata, i + 1) }], report: step.behaviour, runTests: true },
    implementer: {
      writes: [{ path: kata.source, content: rustImplementerFile(kata, i + 1) }],
      report: `make "${step.behaviour}" pass`,
      runTests: true,
    },
  }));
}

const fizzbuzzImpl = (...rules: string[]): string =>
  `/// Says n the FizzBuzz way.\npub fn fizzbuzz(n: u32) -> String {\n${rules.map((r) => `    ${r}\n`).join('')}    n.to_string()\n}\n`;

/** FizzBuzz in Rust, four cycles, its tests the `mod tests` of src/lib.rs. */
export const RUST_FIZZBUZZ: RustKata = {
  slug: 'fizzbuzz',
  crate: 'fizzbuzz',
  source: 'src/lib.rs',
  testFile: 'src/lib.rs',
  inline: true,
  steps: [
    {
      behaviour: 'returns the number itself',
      test: `#[test]\nfn returns_the_number_itself() {\n    assert_eq!(fizzbuzz(1), "1");\n    assert_eq!(fizzbuzz(2), "2");\n}\n`,
      impl: fizzbuzzImpl(),
    },
    {
      behaviour: 'says Fizz for multiples of three',
      test: `#[test]\nfn fizz_for_multiples_of_three() {\n    assert_eq!(fizzbuzz(3), "Fizz");\n    assert_eq!(fizzbuzz(6), "Fizz");\n}\n`,
      impl: fizzbuzzImpl('if n % 3 == 0 {\n        return "Fizz".into();\n    }'),
    },
    {
      behaviour: 'says Buzz for multiples of five',
      test: `#[test]\nfn buzz_for_multiples_of_five() {\n    assert_eq!(fizzbuzz(5), "Buzz");\n    assert_eq!(fizzbuzz(10), "Buzz");\n}\n`,
      impl: fizzbuzzImpl(
        'if n % 3 == 0 {\n        return "Fizz".into();\n    }',
        'if n % 5 == 0 {\n        return "Buzz".into();\n    }',
      ),
    },
    {
      behaviour: 'says FizzBuzz for multiples of fifteen',
      test: `#[test]\nfn fizzbuzz_for_multiples_of_fifteen() {\n    assert_eq!(fizzbuzz(15), "FizzBuzz");\n}\n`,
      impl: fizzbuzzImpl(
        'if n % 15 == 0 {\n        return "FizzBuzz".into();\n    }',
        'if n % 3 == 0 {\n        return "Fizz".into();\n    }',
        'if n % 5 == 0 {\n        return "Buzz".into();\n    }',
      ),
    },
  ],
};

/** Leap Year in Rust, three cycles, its tests an integration test file (the kata's last rule is left without a test). */
export const RUST_LEAP_YEAR: RustKata = {
  slug: 'leap-year',
  crate: 'leap_year',
  source: 'src/lib.rs',
  testFile: 'tests/leap_year.rs',
  inline: false,
  steps: [
    {
      behaviour: 'a year divisible by 4 is a leap year',
      test: `#[test]\nfn divisible_by_four() {\n    assert!(is_leap_year(1996));\n}\n`,
      impl: '/// True for a leap year.\npub fn is_leap_year(year: u32) -> bool {\n    year % 4 == 0\n}\n',
    },
    {
      behaviour: 'a century is not a leap year',
      test: `#[test]\nfn a_century_is_not() {\n    assert!(!is_leap_year(1900));\n}\n`,
      impl: '/// True for a leap year.\npub fn is_leap_year(year: u32) -> bool {\n    year % 4 == 0 && year % 100 != 0\n}\n',
    },
    {
      behaviour: 'every 400 years it is',
      test: `#[test]\nfn every_four_hundred_years_it_is() {\n    assert!(is_leap_year(2000));\n}\n`,
      impl: '/// True for a leap year.\npub fn is_leap_year(year: u32) -> bool {\n    year % 400 == 0 || (year % 4 == 0 && year % 100 != 0)\n}\n',
    },
  ],
};
