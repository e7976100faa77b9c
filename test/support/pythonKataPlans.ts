import type { CyclePlan } from './scriptedKataModel';

/** One cycle of a Python kata: the new test function, the implementation that makes all tests pass, and the behaviour. */
interface PythonStep {
  test: string;
  impl: string;
  behaviour: string;
}

/** A bundled kata played in Python: its module (in `src/`), the test file's import line, and the steps. */
interface PythonKata {
  slug: string;
  module: string;
  importLine: string;
  steps: PythonStep[];
}

/** Scripted cycles for a kata: each Tester turn adds one test to the kata's test file, each Implementer turn rewrites the module. */
export function pythonKataCycles(kata: PythonKata): CyclePlan[] {
  const testPath = `tests/test_${kata.module}.py`;
  return kata.steps.map((step, i) => ({
    tester: {
      writes: [
        {
          path: testPath,
          content: `${kata.importLine}\n\n\n${kata.steps
            .slice(0, i + 1)
            .map((s) => s.test)
            .join('\n\n')}`,
        },
      ],
      report: step.behaviour,
    },
    implementer: { writes: [{ path: `src/${kata.module}.py`, content: step.impl }], report: `make "${step.behaviour}" pass` },
  }));
}

/** Every bundled kata except FizzBuzz (which has its own plans), in Python, three cycles each. */
export const PYTHON_KATAS: PythonKata[] = [
  {
    slug: 'leap-year',
    module: 'leap_year',
    importLine: 'from leap_year import is_leap_year',
    steps: [
      {
        behaviour: 'a year divisible by 4 is a leap year',
        test: 'def test_divisible_by_4():\n    assert is_leap_year(1996)\n',
        impl: 'def is_leap_year(year):\n    return year % 4 == 0\n',
      },
      {
        behaviour: 'a century is not a leap year',
        test: 'def test_century():\n    assert not is_leap_year(1900)\n',
        impl: 'def is_leap_year(year):\n    return year % 4 == 0 and year % 100 != 0\n',
      },
      {
        behaviour: 'every 400 years it is',
        test: 'def test_400():\n    assert is_leap_year(2000)\n',
        impl: 'def is_leap_year(year):\n    return year % 400 == 0 or (year % 4 == 0 and year % 100 != 0)\n',
      },
    ],
  },
  {
    slug: 'roman-numerals',
    module: 'roman_numerals',
    importLine: 'from roman_numerals import to_roman',
    steps: [
      {
        behaviour: '1 is I',
        test: 'def test_one():\n    assert to_roman(1) == "I"\n',
        impl: 'def to_roman(n):\n    return "I" * n\n',
      },
      {
        behaviour: '5 is V',
        test: 'def test_five():\n    assert to_roman(5) == "V"\n',
        impl: 'def to_roman(n):\n    result = ""\n    for value, symbol in [(5, "V"), (4, "IV"), (1, "I")]:\n        while n >= value:\n            result += symbol\n            n -= value\n    return result\n',
      },
      {
        behaviour: '1994 is MCMXCIV',
        test: 'def test_1994():\n    assert to_roman(1994) == "MCMXCIV"\n',
        impl:
          'TABLE = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]\n\n\n' +
          'def to_roman(n):\n    result = ""\n    for value, symbol in TABLE:\n        while n >= value:\n            result += symbol\n            n -= value\n    return result\n',
      },
    ],
  },
  {
    slug: 'string-calculator',
    module: 'string_calculator',
    importLine: 'from string_calculator import add',
    steps: [
      {
        behaviour: 'an empty string is 0',
        test: 'def test_empty():\n    assert add("") == 0\n',
        impl: 'def add(numbers):\n    return 0\n',
      },
      {
        behaviour: 'one number is itself',
        test: 'def test_one_number():\n    assert add("1") == 1\n',
        impl: 'def add(numbers):\n    return int(numbers) if numbers else 0\n',
      },
      {
        behaviour: 'two numbers are summed',
        test: 'def test_two_numbers():\n    assert add("1,2") == 3\n',
        impl: 'def add(numbers):\n    return sum(int(n) for n in numbers.split(",")) if numbers else 0\n',
      },
    ],
  },
  {
    slug: 'bowling',
    module: 'bowling',
    importLine: 'from bowling import Game',
    steps: [
      {
        behaviour: 'a gutter game scores 0',
        test: 'def test_gutter_game():\n    game = Game()\n    for _ in range(20):\n        game.roll(0)\n    assert game.score() == 0\n',
        impl: 'class Game:\n    def __init__(self):\n        self.rolls = []\n\n    def roll(self, pins):\n        self.rolls.append(pins)\n\n    def score(self):\n        return sum(self.rolls)\n',
      },
      {
        behaviour: 'a spare scores the next roll as a bonus',
        test: 'def test_spare():\n    game = Game()\n    for pins in [5, 5, 3] + [0] * 17:\n        game.roll(pins)\n    assert game.score() == 16\n',
        impl:
          'class Game:\n    def __init__(self):\n        self.rolls = []\n\n    def roll(self, pins):\n        self.rolls.append(pins)\n\n    def score(self):\n        total, i = 0, 0\n        for _ in range(10):\n' +
          '            if self.rolls[i] + self.rolls[i + 1] == 10:\n                total += 10 + self.rolls[i + 2]\n            else:\n                total += self.rolls[i] + self.rolls[i + 1]\n            i += 2\n        return total\n',
      },
      {
        behaviour: 'a strike scores the next two rolls as a bonus',
        test: 'def test_strike():\n    game = Game()\n    for pins in [10, 3, 4] + [0] * 16:\n        game.roll(pins)\n    assert game.score() == 24\n',
        impl:
          'class Game:\n    def __init__(self):\n        self.rolls = []\n\n    def roll(self, pins):\n        self.rolls.append(pins)\n\n    def score(self):\n        total, i = 0, 0\n        for _ in range(10):\n' +
          '            if self.rolls[i] == 10:\n                total += 10 + self.rolls[i + 1] + self.rolls[i + 2]\n                i += 1\n            elif self.rolls[i] + self.rolls[i + 1] == 10:\n                total += 10 + self.rolls[i + 2]\n                i += 2\n' +
          '            else:\n                total += self.rolls[i] + self.rolls[i + 1]\n                i += 2\n        return total\n',
      },
    ],
  },
];
