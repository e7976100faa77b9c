import type { CyclePlan } from './scriptedKataModel';

/** One cycle of a Ruby kata: the new RSpec example, the library that makes every example pass, and the behaviour. */
interface RubyStep {
  example: string;
  impl: string;
  behaviour: string;
}

/** A bundled kata played in Ruby with RSpec: the class it describes, its file in `lib/`, its spec, the steps. */
export interface RubyKata {
  slug: string;
  /** The module the spec describes (`FizzBuzz`), defined by `lib/<feature>.rb`. */
  constant: string;
  /** What the spec requires (`fizzbuzz`: rspec has `lib/` on the load path). */
  feature: string;
  source: string;
  spec: string;
  steps: RubyStep[];
}

/** The spec after `count` steps: the require, the describe block, and every example so far. */
export function rubySpecFile(kata: RubyKata, count: number): string {
  return `require '${kata.feature}'\n\nRSpec.describe ${kata.constant} do\n${kata.steps
    .slice(0, count)
    .map((s) => s.example)
    .join('\n')}end\n`;
}

/** Scripted cycles: each Tester turn adds one example to the kata's spec, each Implementer turn rewrites the library. */
export function rubyKataCycles(kata: RubyKata): CyclePlan[] {
  return kata.steps.map((step, i) => ({
    tester: { writes: [{ path: kata.spec, content: rubySpecFile(kata, i + 1) }], report: step.behaviour, runTests: true },
    implementer: {
      writes: [{ path: kata.source, content: step.impl }],
      report: `make "${step.behaviour}" pass`,
      runTests: true,
    },
  }));
}

const fizzbuzzImpl = (...rules: string[]): string =>
  `# FizzBuzz says a number the FizzBuzz way.\nmodule FizzBuzz\n  def self.of(number)\n${rules.map((r) => `    ${r}\n`).join('')}    number.to_s\n  end\nend\n`;

/** FizzBuzz in Ruby, four cycles: every example the bundled kata states gets its example. */
export const RUBY_FIZZBUZZ: RubyKata = {
  slug: 'fizzbuzz',
  constant: 'FizzBuzz',
  feature: 'fizzbuzz',
  source: 'lib/fizzbuzz.rb',
  spec: 'spec/fizzbuzz_spec.rb',
  steps: [
    {
      behaviour: 'returns the number itself',
      example: `  it 'returns the number itself' do\n    expect(FizzBuzz.of(1)).to eq('1')\n    expect(FizzBuzz.of(2)).to eq('2')\n  end\n`,
      impl: fizzbuzzImpl(),
    },
    {
      behaviour: 'says Fizz for multiples of three',
      example: `  it 'says Fizz for multiples of three' do\n    expect([3, 6].map { |n| FizzBuzz.of(n) }).to eq(%w[Fizz Fizz])\n  end\n`,
      impl: fizzbuzzImpl("return 'Fizz' if (number % 3).zero?"),
    },
    {
      behaviour: 'says Buzz for multiples of five',
      example: `  it 'says Buzz for multiples of five' do\n    expect([5, 10].map { |n| FizzBuzz.of(n) }).to eq(%w[Buzz Buzz])\n  end\n`,
      impl: fizzbuzzImpl("return 'Fizz' if (number % 3).zero?", "return 'Buzz' if (number % 5).zero?"),
    },
    {
      behaviour: 'says FizzBuzz for multiples of fifteen',
      example: `  it 'says FizzBuzz for multiples of fifteen' do\n    expect(FizzBuzz.of(15)).to eq('FizzBuzz')\n  end\n`,
      impl: fizzbuzzImpl(
        "return 'FizzBuzz' if (number % 15).zero?",
        "return 'Fizz' if (number % 3).zero?",
        "return 'Buzz' if (number % 5).zero?",
      ),
    },
  ],
};

const leapImpl = (rule: string): string =>
  `# LeapYear tells a leap year of the Gregorian calendar.\nmodule LeapYear\n  def self.leap?(year)\n    ${rule}\n  end\nend\n`;

/** Leap Year in Ruby, three cycles (the kata's last rule, common years, is left without an example). */
export const RUBY_LEAP_YEAR: RubyKata = {
  slug: 'leap-year',
  constant: 'LeapYear',
  feature: 'leap_year',
  source: 'lib/leap_year.rb',
  spec: 'spec/leap_year_spec.rb',
  steps: [
    {
      behaviour: 'a year divisible by 4 is a leap year',
      example: `  it 'a year divisible by 4 is a leap year' do\n    expect(LeapYear.leap?(1996)).to be(true)\n  end\n`,
      impl: leapImpl('(year % 4).zero?'),
    },
    {
      behaviour: 'a century is not a leap year',
      example: `  it 'a century is not a leap year' do\n    expect(LeapYear.leap?(1900)).to be(false)\n  end\n`,
      impl: leapImpl('(year % 4).zero? && !(year % 100).zero?'),
    },
    {
      behaviour: 'every 400 years it is',
      example: `  it 'every 400 years it is' do\n    expect(LeapYear.leap?(2000)).to be(true)\n  end\n`,
      impl: leapImpl('(year % 400).zero? || ((year % 4).zero? && !(year % 100).zero?)'),
    },
  ],
};
