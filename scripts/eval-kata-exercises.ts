/**
 * The exercises of the eval kata set (katas/eval/), one small table each: the kata text written for this product,
 * the module and names per language, and how a canonical case of Exercism's problem-specifications becomes the
 * lines of a JavaScript (node:test) and a Python (pytest) test, or a row of a Go table test (the typed functions of
 * {@link GO}, see eval-kata-go.ts). scripts/generate-eval-katas.ts turns them into files.
 *
 * Errors, one convention per language: JavaScript throws an `Error` whose message is exactly the canonical text
 * (`assert.throws(fn, { message })`); Python raises `ValueError` with exactly that message (`pytest.raises(match=)`);
 * Go returns a non-nil `error` whose `Error()` is exactly that text.
 */
import { goSignature, type GoFunction, type GoInterface } from './eval-kata-go';
import { javaSignature, type JavaInterface, type JavaMethod } from './eval-kata-java';
import { phpSignature, type PhpInterface, type PhpMethod } from './eval-kata-php';
import { rubySignature, type RubyInterface, type RubyMethod } from './eval-kata-ruby';
import { rustReturn, rustSignature, type RustFunction, type RustInterface } from './eval-kata-rust';

/** One canonical case, nested groups flattened: `path` holds the group descriptions and its own, outermost first. */
export interface FlatCase {
  uuid: string;
  description: string;
  property: string;
  input: Record<string, unknown>;
  expected: unknown;
  reimplements?: string;
  comments?: string[];
  scenarios?: string[];
  path: string[];
}

/** The lines of one test's body, per language (relative indentation included). */
export interface RenderedCase {
  js: string[];
  py: string[];
}

/** One exercise of the set. */
export interface EvalExercise {
  /** The exercise's slug in problem-specifications, and the kata's. */
  slug: string;
  title: string;
  /** Difficulty first (easy, medium, hard), then topics. */
  tags: string[];
  maxCycles: number;
  javascript: { module: string; exports: string[] };
  python: { module: string; exports: string[] };
  /** The package and typed functions in Go; an exercise without it has no Go acceptance tests. */
  go?: GoInterface;
  /** The module and methods in Ruby; an exercise without it has no Ruby acceptance tests. */
  ruby?: RubyInterface;
  /** The class and static methods in PHP; an exercise without it has no PHP acceptance tests. */
  php?: PhpInterface;
  /** The crate and free functions in Rust; an exercise without it has no Rust acceptance tests. */
  rust?: RustInterface;
  /** The class and static methods in Java; an exercise without it has no Java acceptance tests. */
  java?: JavaInterface;
  /** The kata's markdown (after the front matter). */
  kata: string;
  /** Canonical cases that do not fit, by UUID, with the reason (reimplemented cases are left out by themselves). */
  skip?: Record<string, string>;
  render(c: FlatCase): RenderedCase;
}

/** A JavaScript literal: JSON, with a space after commas and inside braces. */
export function jsValue(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jsValue).join(', ')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${jsValue(v)}`);
    return entries.length ? `{ ${entries.join(', ')} }` : '{}';
  }
  if (value === undefined) throw new Error('no JavaScript literal for undefined');
  return JSON.stringify(value);
}

/** A Python literal (JSON strings are valid Python strings). */
export function pyValue(value: unknown): string {
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (value === null) return 'None';
  if (Array.isArray(value)) return `[${value.map(pyValue).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as object)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pyValue(v)}`)
      .join(', ')}}`;
  }
  if (value === undefined) throw new Error('no Python literal for undefined');
  return JSON.stringify(value);
}

const errorOf = (expected: unknown): string | undefined =>
  expected &&
  typeof expected === 'object' &&
  !Array.isArray(expected) &&
  typeof (expected as { error?: unknown }).error === 'string'
    ? (expected as { error: string }).error
    : undefined;

const regexEscape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The assertion that `call` returns `expected`, or throws/raises its error. */
function expectLines(jsCall: string, pyCall: string, expected: unknown): RenderedCase {
  const error = errorOf(expected);
  if (error !== undefined) {
    return {
      js: [`assert.throws(() => ${jsCall}, { message: ${JSON.stringify(error)} });`],
      py: [`with pytest.raises(ValueError, match=${JSON.stringify(`^${regexEscape(error)}$`)}):`, `    ${pyCall}`],
    };
  }
  const structured = typeof expected === 'object' && expected !== null;
  return {
    js: [`assert.${structured ? 'deepEqual' : 'equal'}(${jsCall}, ${jsValue(expected)});`],
    py: [typeof expected === 'boolean' ? `assert ${pyCall} is ${pyValue(expected)}` : `assert ${pyCall} == ${pyValue(expected)}`],
  };
}

/** A function of the case's inputs, in the order `keys` lists them. */
function returns(jsName: string, pyName: string, keys: string[]): (c: FlatCase) => RenderedCase {
  return (c) => {
    for (const key of keys) if (!(key in c.input)) throw new Error(`case ${c.uuid} has no input '${key}'`);
    const js = `${jsName}(${keys.map((k) => jsValue(c.input[k])).join(', ')})`;
    const py = `${pyName}(${keys.map((k) => pyValue(c.input[k])).join(', ')})`;
    return expectLines(js, py, c.expected);
  };
}

const property =
  (table: Record<string, (c: FlatCase) => RenderedCase>) =>
  (c: FlatCase): RenderedCase => {
    const render = table[c.property];
    if (!render) throw new Error(`case ${c.uuid}: unknown property '${c.property}'`);
    return render(c);
  };

/** Bowling: a new game, the previous rolls, then the roll or the score the case is about. */
function bowling(c: FlatCase): RenderedCase {
  const rolls = c.input.previousRolls as number[];
  const js = [
    'const game = new BowlingGame();',
    ...(rolls.length ? [`for (const pins of ${jsValue(rolls)}) game.roll(pins);`] : []),
  ];
  const py = ['game = BowlingGame()', ...(rolls.length ? [`for pins in ${pyValue(rolls)}:`, '    game.roll(pins)'] : [])];
  const last =
    c.property === 'roll'
      ? expectLines(`game.roll(${jsValue(c.input.roll)})`, `game.roll(${pyValue(c.input.roll)})`, c.expected)
      : c.property === 'score'
        ? expectLines('game.score()', 'game.score()', c.expected)
        : undefined;
  if (!last) throw new Error(`case ${c.uuid}: unknown property '${c.property}'`);
  if (c.property === 'roll' && errorOf(c.expected) === undefined) throw new Error(`case ${c.uuid}: a roll that expects no error`);
  return { js: [...js, ...last.js], py: [...py, ...last.py] };
}

/** The Go line of a kata's interface section, from its package and functions. */
function goInterfaceLine(go: GoInterface): string {
  const functions = Object.values(go.functions);
  const errors = functions.some((f) => f.errors)
    ? '; the `error` is nil, or one whose `Error()` is exactly the message above'
    : '';
  return (
    `in package \`${go.package}\` (\`${go.package}.go\` at the module's root, beside its tests), ` +
    `${functions.map((f) => `\`${goSignature(f)}\``).join(' and ')}${errors}.`
  );
}

/** The Ruby line of a kata's interface section, from its module and methods. */
function rubyInterfaceLine(ruby: RubyInterface): string {
  const methods = Object.values(ruby.methods);
  const errors = methods.some((m) => m.errors) ? '; an invalid input raises `ArgumentError` with exactly the message above' : '';
  return (
    `define the module \`${ruby.module}\` in \`lib/${ruby.file}.rb\` with ` +
    `${methods.map((m) => `\`${rubySignature(ruby, m)}\``).join(' and ')}${errors}.`
  );
}

/** The PHP line of a kata's interface section, from its class and static methods. */
function phpInterfaceLine(php: PhpInterface): string {
  const methods = Object.values(php.methods);
  const errors = methods.some((m) => m.errors)
    ? '; an invalid input throws `InvalidArgumentException` with exactly the message above'
    : '';
  return (
    `the class \`${php.class}\` in \`src/${php.class}.php\` with the static ` +
    `${methods.map((m) => `\`${phpSignature(php, m)}\``).join(' and ')}${errors}.`
  );
}

/** The Java line of a kata's interface section, from its class and static methods. */
function javaInterfaceLine(java: JavaInterface): string {
  const methods = Object.values(java.methods);
  const errors = methods.some((m) => m.errors)
    ? '; an invalid input throws `IllegalArgumentException` with exactly the message above'
    : '';
  return (
    `the final class \`${java.class}\` in \`src/main/java/kata/${java.class}.java\` (package \`kata\`) with ` +
    `${methods.map((m) => `\`${javaSignature(m)}\``).join(' and ')}${errors}.`
  );
}

/** The Rust line of a kata's interface section, from its crate and functions. */
function rustInterfaceLine(rust: RustInterface): string {
  const functions = Object.values(rust.functions);
  const errors = functions.some((f) => f.errors)
    ? '; an invalid input is `Err` holding exactly the message above as a `String`'
    : '';
  const map = functions.some((f) => rustReturn(f).includes('HashMap')) ? ' (`std::collections::HashMap`)' : '';
  return (
    `in the library crate \`${rust.crate}\` (\`src/lib.rs\`), ` +
    `${functions.map((f) => `\`${rustSignature(f)}\``).join(' and ')}${map}${errors}.`
  );
}

const interfaceSection = (
  js: string,
  py: string,
  go?: GoInterface,
  ruby?: RubyInterface,
  php?: PhpInterface,
  java?: JavaInterface,
  rust?: RustInterface,
): string =>
  `## Interface\n\n- JavaScript (ES modules): ${js}\n- Python: ${py}\n${go ? `- Go: ${goInterfaceLine(go)}\n` : ''}` +
  `${ruby ? `- Ruby: ${rubyInterfaceLine(ruby)}\n` : ''}${php ? `- PHP: ${phpInterfaceLine(php)}\n` : ''}` +
  `${java ? `- Java: ${javaInterfaceLine(java)}\n` : ''}` +
  `${rust ? `- Rust: ${rustInterfaceLine(rust)}\n` : ''}`;

const fn = (name: string, params: GoFunction['params'], result: GoFunction['result'], errors = false): GoFunction => ({
  name,
  params,
  result,
  ...(errors ? { errors } : {}),
});

/** Each exercise's Go package and functions, by slug (keyed by the canonical property). */
export const GO = {
  leap: { package: 'leap', functions: { leapYear: fn('IsLeap', [['year', 'int']], 'bool') } },
  'roman-numerals': { package: 'romannumerals', functions: { roman: fn('ToRoman', [['number', 'int']], 'string') } },
  'word-count': { package: 'wordcount', functions: { countWords: fn('CountWords', [['sentence', 'string']], 'map[string]int') } },
  anagram: {
    package: 'anagram',
    functions: {
      findAnagrams: fn(
        'FindAnagrams',
        [
          ['subject', 'string'],
          ['candidates', '[]string'],
        ],
        '[]string',
      ),
    },
  },
  isogram: { package: 'isogram', functions: { isIsogram: fn('IsIsogram', [['phrase', 'string']], 'bool') } },
  acronym: { package: 'acronym', functions: { abbreviate: fn('Abbreviate', [['phrase', 'string']], 'string') } },
  raindrops: { package: 'raindrops', functions: { convert: fn('Convert', [['number', 'int']], 'string') } },
  'prime-factors': { package: 'primefactors', functions: { factors: fn('PrimeFactors', [['value', 'int64']], '[]int64') } },
  'sum-of-multiples': {
    package: 'sumofmultiples',
    functions: {
      sum: fn(
        'SumOfMultiples',
        [
          ['factors', '[]int'],
          ['limit', 'int'],
        ],
        'int',
      ),
    },
  },
  allergies: {
    package: 'allergies',
    functions: {
      allergicTo: fn(
        'IsAllergicTo',
        [
          ['score', 'int'],
          ['item', 'string'],
        ],
        'bool',
      ),
      list: fn('ListAllergies', [['score', 'int']], '[]string'),
    },
  },
  wordy: { package: 'wordy', functions: { answer: fn('Answer', [['question', 'string']], 'int', true) } },
  pangram: { package: 'pangram', functions: { isPangram: fn('IsPangram', [['sentence', 'string']], 'bool') } },
  hamming: {
    package: 'hamming',
    functions: {
      distance: fn(
        'Distance',
        [
          ['strand1', 'string'],
          ['strand2', 'string'],
        ],
        'int',
        true,
      ),
    },
  },
  'collatz-conjecture': {
    package: 'collatzconjecture',
    functions: { steps: fn('Steps', [['number', 'int']], 'int', true) },
  },
  luhn: { package: 'luhn', functions: { valid: fn('IsValid', [['value', 'string']], 'bool') } },
} satisfies Record<string, GoInterface>;

const rb = (name: string, params: RubyMethod['params'], errors = false): RubyMethod => ({
  name,
  params,
  ...(errors ? { errors } : {}),
});

/** Each exercise's Ruby module and methods, by slug (keyed by the canonical property). */
export const RUBY = {
  leap: { file: 'leap', module: 'Leap', methods: { leapYear: rb('leap?', [['year', 'year']]) } },
  'roman-numerals': {
    file: 'roman_numerals',
    module: 'RomanNumerals',
    methods: { roman: rb('to_roman', [['number', 'number']]) },
  },
  'word-count': {
    file: 'word_count',
    module: 'WordCount',
    methods: { countWords: rb('count_words', [['sentence', 'sentence']]) },
  },
  anagram: {
    file: 'anagram',
    module: 'Anagram',
    methods: {
      findAnagrams: rb('find_anagrams', [
        ['subject', 'subject'],
        ['candidates', 'candidates'],
      ]),
    },
  },
  isogram: { file: 'isogram', module: 'Isogram', methods: { isIsogram: rb('isogram?', [['phrase', 'phrase']]) } },
  acronym: { file: 'acronym', module: 'Acronym', methods: { abbreviate: rb('abbreviate', [['phrase', 'phrase']]) } },
  raindrops: { file: 'raindrops', module: 'Raindrops', methods: { convert: rb('convert', [['number', 'number']]) } },
  'prime-factors': { file: 'prime_factors', module: 'PrimeFactors', methods: { factors: rb('of', [['value', 'value']]) } },
  'sum-of-multiples': {
    file: 'sum_of_multiples',
    module: 'SumOfMultiples',
    methods: {
      sum: rb('sum', [
        ['factors', 'factors'],
        ['limit', 'limit'],
      ]),
    },
  },
  allergies: {
    file: 'allergies',
    module: 'Allergies',
    methods: {
      allergicTo: rb('allergic_to?', [
        ['score', 'score'],
        ['item', 'item'],
      ]),
      list: rb('list', [['score', 'score']]),
    },
  },
  wordy: { file: 'wordy', module: 'Wordy', methods: { answer: rb('answer', [['question', 'question']], true) } },
  pangram: { file: 'pangram', module: 'Pangram', methods: { isPangram: rb('pangram?', [['sentence', 'sentence']]) } },
  hamming: {
    file: 'hamming',
    module: 'Hamming',
    methods: {
      distance: rb(
        'distance',
        [
          ['strand1', 'strand1'],
          ['strand2', 'strand2'],
        ],
        true,
      ),
    },
  },
  'collatz-conjecture': {
    file: 'collatz_conjecture',
    module: 'CollatzConjecture',
    methods: { steps: rb('steps', [['number', 'number']], true) },
  },
  luhn: { file: 'luhn', module: 'Luhn', methods: { valid: rb('valid?', [['value', 'value']]) } },
} satisfies Record<string, RubyInterface>;

const ph = (name: string, params: PhpMethod['params'], result: string, errors = false): PhpMethod => ({
  name,
  params,
  result,
  ...(errors ? { errors } : {}),
});

/** Each exercise's PHP class and static methods, by slug (keyed by the canonical property). */
export const PHP = {
  leap: { class: 'Leap', methods: { leapYear: ph('isLeap', [['year', 'year', 'int']], 'bool') } },
  'roman-numerals': { class: 'RomanNumerals', methods: { roman: ph('toRoman', [['number', 'number', 'int']], 'string') } },
  'word-count': { class: 'WordCount', methods: { countWords: ph('countWords', [['sentence', 'sentence', 'string']], 'array') } },
  anagram: {
    class: 'Anagram',
    methods: {
      findAnagrams: ph(
        'findAnagrams',
        [
          ['subject', 'subject', 'string'],
          ['candidates', 'candidates', 'array'],
        ],
        'array',
      ),
    },
  },
  isogram: { class: 'Isogram', methods: { isIsogram: ph('isIsogram', [['phrase', 'phrase', 'string']], 'bool') } },
  acronym: { class: 'Acronym', methods: { abbreviate: ph('abbreviate', [['phrase', 'phrase', 'string']], 'string') } },
  raindrops: { class: 'Raindrops', methods: { convert: ph('convert', [['number', 'number', 'int']], 'string') } },
  'prime-factors': { class: 'PrimeFactors', methods: { factors: ph('of', [['value', 'value', 'int']], 'array') } },
  'sum-of-multiples': {
    class: 'SumOfMultiples',
    methods: {
      sum: ph(
        'sum',
        [
          ['factors', 'factors', 'array'],
          ['limit', 'limit', 'int'],
        ],
        'int',
      ),
    },
  },
  allergies: {
    class: 'Allergies',
    methods: {
      allergicTo: ph(
        'isAllergicTo',
        [
          ['score', 'score', 'int'],
          ['item', 'item', 'string'],
        ],
        'bool',
      ),
      list: ph('listAllergies', [['score', 'score', 'int']], 'array'),
    },
  },
  wordy: { class: 'Wordy', methods: { answer: ph('answer', [['question', 'question', 'string']], 'int', true) } },
  pangram: { class: 'Pangram', methods: { isPangram: ph('isPangram', [['sentence', 'sentence', 'string']], 'bool') } },
  hamming: {
    class: 'Hamming',
    methods: {
      distance: ph(
        'distance',
        [
          ['strand1', 'strand1', 'string'],
          ['strand2', 'strand2', 'string'],
        ],
        'int',
        true,
      ),
    },
  },
  'collatz-conjecture': {
    class: 'CollatzConjecture',
    methods: { steps: ph('steps', [['number', 'number', 'int']], 'int', true) },
  },
  luhn: { class: 'Luhn', methods: { valid: ph('isValid', [['value', 'value', 'string']], 'bool') } },
} satisfies Record<string, PhpInterface>;

const rs = (name: string, params: RustFunction['params'], result: RustFunction['result'], errors = false): RustFunction => ({
  name,
  params,
  result,
  ...(errors ? { errors } : {}),
});

/** Each exercise's Rust crate and free functions, by slug (keyed by the canonical property), named as Exercism's Rust track names them. */
export const RUST = {
  leap: { crate: 'leap', functions: { leapYear: rs('is_leap_year', [['year', 'year', 'u64']], 'bool') } },
  'roman-numerals': { crate: 'roman_numerals', functions: { roman: rs('to_roman', [['number', 'number', 'u32']], 'String') } },
  'word-count': {
    crate: 'word_count',
    functions: { countWords: rs('word_count', [['sentence', 'words', '&str']], 'HashMap<String, u32>') },
  },
  anagram: {
    crate: 'anagram',
    functions: {
      findAnagrams: rs(
        'anagrams_for',
        [
          ['subject', 'word', '&str'],
          ['candidates', 'possible_anagrams', '&[&str]'],
        ],
        'Vec<String>',
      ),
    },
  },
  isogram: { crate: 'isogram', functions: { isIsogram: rs('is_isogram', [['phrase', 'candidate', '&str']], 'bool') } },
  acronym: { crate: 'acronym', functions: { abbreviate: rs('abbreviate', [['phrase', 'phrase', '&str']], 'String') } },
  raindrops: { crate: 'raindrops', functions: { convert: rs('raindrops', [['number', 'n', 'u32']], 'String') } },
  'prime-factors': { crate: 'prime_factors', functions: { factors: rs('factors', [['value', 'n', 'u64']], 'Vec<u64>') } },
  'sum-of-multiples': {
    crate: 'sum_of_multiples',
    functions: {
      sum: rs(
        'sum_of_multiples',
        [
          ['limit', 'limit', 'u32'],
          ['factors', 'factors', '&[u32]'],
        ],
        'u32',
      ),
    },
  },
  allergies: {
    crate: 'allergies',
    functions: {
      allergicTo: rs(
        'is_allergic_to',
        [
          ['score', 'score', 'u32'],
          ['item', 'item', '&str'],
        ],
        'bool',
      ),
      list: rs('list_allergies', [['score', 'score', 'u32']], 'Vec<String>'),
    },
  },
  wordy: { crate: 'wordy', functions: { answer: rs('answer', [['question', 'question', '&str']], 'i64', true) } },
  pangram: { crate: 'pangram', functions: { isPangram: rs('is_pangram', [['sentence', 'sentence', '&str']], 'bool') } },
  hamming: {
    crate: 'hamming',
    functions: {
      distance: rs(
        'hamming_distance',
        [
          ['strand1', 's1', '&str'],
          ['strand2', 's2', '&str'],
        ],
        'usize',
        true,
      ),
    },
  },
  'collatz-conjecture': {
    crate: 'collatz_conjecture',
    functions: { steps: rs('collatz', [['number', 'n', 'i64']], 'u64', true) },
  },
  luhn: { crate: 'luhn', functions: { valid: rs('is_valid', [['value', 'code', '&str']], 'bool') } },
} satisfies Record<string, RustInterface>;

const jv = (name: string, params: JavaMethod['params'], result: JavaMethod['result'], errors = false): JavaMethod => ({
  name,
  params,
  result,
  ...(errors ? { errors } : {}),
});

/** Each exercise's Java class and static methods, by slug (keyed by the canonical property). */
export const JAVA = {
  leap: { class: 'Leap', methods: { leapYear: jv('isLeapYear', [['year', 'year', 'int']], 'boolean') } },
  'roman-numerals': { class: 'RomanNumerals', methods: { roman: jv('toRoman', [['number', 'number', 'int']], 'String') } },
  'word-count': {
    class: 'WordCount',
    methods: { countWords: jv('countWords', [['sentence', 'sentence', 'String']], 'Map<String, Integer>') },
  },
  anagram: {
    class: 'Anagram',
    methods: {
      findAnagrams: jv(
        'findAnagrams',
        [
          ['subject', 'subject', 'String'],
          ['candidates', 'candidates', 'List<String>'],
        ],
        'List<String>',
      ),
    },
  },
  isogram: { class: 'Isogram', methods: { isIsogram: jv('isIsogram', [['phrase', 'phrase', 'String']], 'boolean') } },
  acronym: { class: 'Acronym', methods: { abbreviate: jv('abbreviate', [['phrase', 'phrase', 'String']], 'String') } },
  raindrops: { class: 'Raindrops', methods: { convert: jv('convert', [['number', 'number', 'int']], 'String') } },
  'prime-factors': { class: 'PrimeFactors', methods: { factors: jv('of', [['value', 'value', 'long']], 'List<Long>') } },
  'sum-of-multiples': {
    class: 'SumOfMultiples',
    methods: {
      sum: jv(
        'sum',
        [
          ['factors', 'factors', 'List<Integer>'],
          ['limit', 'limit', 'int'],
        ],
        'int',
      ),
    },
  },
  allergies: {
    class: 'Allergies',
    methods: {
      allergicTo: jv(
        'isAllergicTo',
        [
          ['score', 'score', 'int'],
          ['item', 'item', 'String'],
        ],
        'boolean',
      ),
      list: jv('list', [['score', 'score', 'int']], 'List<String>'),
    },
  },
  wordy: { class: 'Wordy', methods: { answer: jv('answer', [['question', 'question', 'String']], 'int', true) } },
  pangram: { class: 'Pangram', methods: { isPangram: jv('isPangram', [['sentence', 'sentence', 'String']], 'boolean') } },
  hamming: {
    class: 'Hamming',
    methods: {
      distance: jv(
        'distance',
        [
          ['strand1', 'strand1', 'String'],
          ['strand2', 'strand2', 'String'],
        ],
        'int',
        true,
      ),
    },
  },
  'collatz-conjecture': {
    class: 'CollatzConjecture',
    methods: { steps: jv('steps', [['number', 'number', 'int']], 'int', true) },
  },
  luhn: { class: 'Luhn', methods: { valid: jv('isValid', [['value', 'value', 'String']], 'boolean') } },
} satisfies Record<string, JavaInterface>;

/** The set, in the order set.json lists it. */
export const EXERCISES: EvalExercise[] = [
  {
    slug: 'leap',
    title: 'Leap',
    tags: ['easy', 'numbers', 'booleans'],
    maxCycles: 5,
    javascript: { module: 'leap', exports: ['isLeap'] },
    python: { module: 'leap', exports: ['leap_year'] },
    go: GO.leap,
    ruby: RUBY.leap,
    php: PHP.leap,
    rust: RUST.leap,
    java: JAVA.leap,
    render: returns('isLeap', 'leap_year', ['year']),
    kata: `
# Leap

Tell whether a year of the Gregorian calendar has a 29th of February.

## Behaviour

- A year that divides evenly by 4 is a leap year.
- Unless it also divides evenly by 100: then it is a common year.
- Unless it also divides evenly by 400: then it is a leap year after all.

## Examples

- 2015 and 1970 are common years; 1996 and 1960 are leap years.
- 2100 and 1900 are common years (divisible by 100).
- 2000 and 2400 are leap years (divisible by 400).

${interfaceSection(
  'export `isLeap(year)` from a module named `leap` (`src/leap.js`); it returns `true` or `false`.',
  'define `leap_year(year)` in a module named `leap` (`src/leap.py`); it returns `True` or `False`.',
  GO.leap,
  RUBY.leap,
  PHP.leap,
  JAVA.leap,
  RUST.leap,
)}`,
  },
  {
    slug: 'roman-numerals',
    title: 'Roman Numerals',
    tags: ['medium', 'numbers', 'strings'],
    maxCycles: 10,
    javascript: { module: 'romanNumerals', exports: ['toRoman'] },
    python: { module: 'roman_numerals', exports: ['to_roman'] },
    go: GO['roman-numerals'],
    ruby: RUBY['roman-numerals'],
    php: PHP['roman-numerals'],
    rust: RUST['roman-numerals'],
    java: JAVA['roman-numerals'],
    render: returns('toRoman', 'to_roman', ['number']),
    kata: `
# Roman Numerals

Write whole numbers from 1 to 3999 the way the Romans did.

## Behaviour

- The symbols are I (1), V (5), X (10), L (50), C (100), D (500) and M (1000).
- A number is written from the largest value down, repeating a symbol as often as needed: 3 is III, 27 is XXVII.
- No symbol repeats four times: 4, 9, 40, 90, 400 and 900 are written by putting the smaller symbol before the
  larger one (IV, IX, XL, XC, CD, CM).
- Each decimal digit is written on its own: 49 is XLIX (40 + 9), not IL.

## Examples

- 1 → I, 6 → VI, 9 → IX, 48 → XLVIII, 93 → XCIII
- 402 → CDII, 1024 → MXXIV, 3999 → MMMCMXCIX

${interfaceSection(
  'export `toRoman(number)` from a module named `romanNumerals` (`src/romanNumerals.js`); it returns a string.',
  'define `to_roman(number)` in a module named `roman_numerals` (`src/roman_numerals.py`); it returns a string.',
  GO['roman-numerals'],
  RUBY['roman-numerals'],
  PHP['roman-numerals'],
  JAVA['roman-numerals'],
  RUST['roman-numerals'],
)}`,
  },
  {
    slug: 'bowling',
    title: 'Bowling',
    tags: ['hard', 'state', 'classes', 'errors'],
    maxCycles: 14,
    javascript: { module: 'bowling', exports: ['BowlingGame'] },
    python: { module: 'bowling', exports: ['BowlingGame'] },
    render: bowling,
    kata: `
# Bowling

Keep the score of one game of ten-pin bowling, roll by roll.

## Behaviour

- A game has ten frames. In a frame the player has up to two rolls to knock down the ten pins.
- An open frame (fewer than ten pins in its two rolls) scores the pins knocked down.
- A spare (all ten pins with the frame's two rolls) scores 10 plus the pins of the next roll.
- A strike (all ten pins with the frame's first roll, which ends the frame) scores 10 plus the pins of the next
  two rolls.
- A spare in the tenth frame earns one bonus roll, a strike two; bonus rolls only count towards that frame's
  bonus. After the bonus rolls the game is over.
- \`score()\` gives the total of a complete game.

## Invalid play

Refuse it with an error whose message is exactly one of these:

- \`Negative roll is invalid\`: a roll below 0.
- \`Pin count exceeds pins on the lane\`: more than 10 pins in one roll, or more pins in a frame (or in the
  bonus rolls after a strike in the tenth frame, unless the first bonus roll was itself a strike) than were
  standing.
- \`Cannot roll after game is over\`: any roll once the game is complete.
- \`Score cannot be taken until the end of the game\`: \`score()\` before the game is complete (including bonus
  rolls still owed).

## Examples

- Twenty rolls of 0 score 0; ten frames of 3 then 6 score 90.
- 6, 4 (a spare), then 3, then seventeen 0s: 16.
- 10 (a strike), then 5 and 3, then sixteen 0s: 26.
- Twelve strikes, a perfect game: 300.

${interfaceSection(
  'export a class `BowlingGame` from a module named `bowling` (`src/bowling.js`), with `roll(pins)` and `score()`. ' +
    'An invalid roll or score throws an `Error` with exactly the message above.',
  'define a class `BowlingGame` in a module named `bowling` (`src/bowling.py`), with `roll(pins)` and `score()`. ' +
    'An invalid roll or score raises `ValueError` with exactly the message above.',
)}`,
  },
  {
    slug: 'word-count',
    title: 'Word Count',
    tags: ['medium', 'strings', 'maps'],
    maxCycles: 10,
    javascript: { module: 'wordCount', exports: ['countWords'] },
    python: { module: 'word_count', exports: ['count_words'] },
    go: GO['word-count'],
    ruby: RUBY['word-count'],
    php: PHP['word-count'],
    rust: RUST['word-count'],
    java: JAVA['word-count'],
    render: returns('countWords', 'count_words', ['sentence']),
    kata: `
# Word Count

Count how often each word occurs in a piece of text.

## Behaviour

- A word is a run of letters and digits, possibly with apostrophes inside it (\`don't\`, \`you're\`): \`1\` and
  \`2\` are words too.
- Anything else separates words: spaces, tabs, newlines, commas (also without a space after them), other
  punctuation. Several separators in a row never make an empty word.
- Words are counted without regard to case and reported in lowercase: \`go Go GO\` is \`go\` three times.
- Quotes around a word are not part of it: \`'large'\` is \`large\`, and \`'can't'\` is \`can't\`.

## Examples

- \`one fish two fish red fish blue fish\` → one: 1, fish: 4, two: 1, red: 1, blue: 1
- \`one,two,three\` → one: 1, two: 1, three: 1
- \`testing, 1, 2 testing\` → testing: 2, 1: 1, 2: 1

${interfaceSection(
  'export `countWords(sentence)` from a module named `wordCount` (`src/wordCount.js`); it returns a plain object ' +
    'mapping each word to its count (`{ go: 3, stop: 2 }`).',
  'define `count_words(sentence)` in a module named `word_count` (`src/word_count.py`); it returns a dict mapping ' +
    'each word to its count (`{"go": 3, "stop": 2}`).',
  GO['word-count'],
  RUBY['word-count'],
  PHP['word-count'],
  JAVA['word-count'],
  RUST['word-count'],
)}`,
  },
  {
    slug: 'anagram',
    title: 'Anagram',
    tags: ['medium', 'strings', 'lists', 'unicode'],
    maxCycles: 9,
    javascript: { module: 'anagram', exports: ['findAnagrams'] },
    python: { module: 'anagram', exports: ['find_anagrams'] },
    go: GO.anagram,
    ruby: RUBY.anagram,
    php: PHP.anagram,
    rust: RUST.anagram,
    java: JAVA.anagram,
    render: returns('findAnagrams', 'find_anagrams', ['subject', 'candidates']),
    kata: `
# Anagram

Pick, from a list of candidate words, the anagrams of a given word.

## Behaviour

- A candidate is an anagram when it uses exactly the same letters as the word, each as many times, in another
  order: \`inlets\` is an anagram of \`listen\`, \`goody\` is not one of \`good\`.
- Letter case does not matter when comparing (\`Carthorse\` is an anagram of \`Orchestra\`), for any alphabet
  (Greek letters too), but the anagrams are returned exactly as the candidates were written.
- A word is never an anagram of itself, whatever the case: \`BANANA\`, \`Banana\` and \`banana\` are not
  anagrams of \`BANANA\`.
- The anagrams come back in the order of the candidates; no anagram gives an empty list.

## Examples

- \`master\` with \`stream\`, \`pigeon\`, \`maters\` → \`stream\`, \`maters\`
- \`nose\` with \`Eons\`, \`ONES\` → \`Eons\`, \`ONES\`
- \`LISTEN\` with \`LISTEN\`, \`Silent\` → \`Silent\`

${interfaceSection(
  'export `findAnagrams(subject, candidates)` from a module named `anagram` (`src/anagram.js`); `candidates` is an ' +
    'array of strings and it returns an array of strings.',
  'define `find_anagrams(subject, candidates)` in a module named `anagram` (`src/anagram.py`); `candidates` is a ' +
    'list of strings and it returns a list of strings.',
  GO.anagram,
  RUBY.anagram,
  PHP.anagram,
  JAVA.anagram,
  RUST.anagram,
)}`,
  },
  {
    slug: 'isogram',
    title: 'Isogram',
    tags: ['easy', 'strings', 'booleans'],
    maxCycles: 7,
    javascript: { module: 'isogram', exports: ['isIsogram'] },
    python: { module: 'isogram', exports: ['is_isogram'] },
    go: GO.isogram,
    ruby: RUBY.isogram,
    php: PHP.isogram,
    rust: RUST.isogram,
    java: JAVA.isogram,
    render: returns('isIsogram', 'is_isogram', ['phrase']),
    kata: `
# Isogram

Tell whether a word or phrase is an isogram: no letter appears in it more than once.

## Behaviour

- Upper and lower case are the same letter: \`Alphabet\` repeats the a.
- Spaces and hyphens may appear any number of times: they are not letters.
- The empty phrase is an isogram.

## Examples

- \`isogram\`, \`subdermatoglyphic\`, \`six-year-old\`, \`Emily Jung Schwartzkopf\` → yes
- \`eleven\`, \`alphAbet\`, \`up-to-date\` → no

${interfaceSection(
  'export `isIsogram(phrase)` from a module named `isogram` (`src/isogram.js`); it returns `true` or `false`.',
  'define `is_isogram(phrase)` in a module named `isogram` (`src/isogram.py`); it returns `True` or `False`.',
  GO.isogram,
  RUBY.isogram,
  PHP.isogram,
  JAVA.isogram,
  RUST.isogram,
)}`,
  },
  {
    slug: 'acronym',
    title: 'Acronym',
    tags: ['easy', 'strings'],
    maxCycles: 6,
    javascript: { module: 'acronym', exports: ['abbreviate'] },
    python: { module: 'acronym', exports: ['abbreviate'] },
    go: GO.acronym,
    ruby: RUBY.acronym,
    php: PHP.acronym,
    rust: RUST.acronym,
    java: JAVA.acronym,
    render: returns('abbreviate', 'abbreviate', ['phrase']),
    kata: `
# Acronym

Turn a phrase into its acronym: the first letter of each word, in capitals.

## Behaviour

- Words are separated by spaces and by hyphens (\`metal-oxide\` is two words).
- Other punctuation is ignored: commas, underscores around a word, a lone dash between spaces. An apostrophe
  inside a word does not start a new word (\`Halley's\` gives H).
- Every word counts, small ones too, and only its first letter: \`GNU\` gives G.

## Examples

- \`Portable Network Graphics\` → \`PNG\`
- \`Ruby on Rails\` → \`ROR\`
- \`Complementary metal-oxide semiconductor\` → \`CMOS\`
- \`The Road _Not_ Taken\` → \`TRNT\`

${interfaceSection(
  'export `abbreviate(phrase)` from a module named `acronym` (`src/acronym.js`); it returns a string.',
  'define `abbreviate(phrase)` in a module named `acronym` (`src/acronym.py`); it returns a string.',
  GO.acronym,
  RUBY.acronym,
  PHP.acronym,
  JAVA.acronym,
  RUST.acronym,
)}`,
  },
  {
    slug: 'raindrops',
    title: 'Raindrops',
    tags: ['easy', 'numbers', 'strings'],
    maxCycles: 6,
    javascript: { module: 'raindrops', exports: ['convert'] },
    python: { module: 'raindrops', exports: ['convert'] },
    go: GO.raindrops,
    ruby: RUBY.raindrops,
    php: PHP.raindrops,
    rust: RUST.raindrops,
    java: JAVA.raindrops,
    render: returns('convert', 'convert', ['number']),
    kata: `
# Raindrops

Turn a positive whole number into the sound of rain.

## Behaviour

- A number divisible by 3 makes \`Pling\`, by 5 \`Plang\`, by 7 \`Plong\`.
- A number divisible by several of them makes each sound, in that order (3, then 5, then 7), joined without
  spaces.
- A number divisible by none of them is just its digits, as a string.

## Examples

- 3 → \`Pling\`, 10 → \`Plang\`, 14 → \`Plong\`
- 15 → \`PlingPlang\`, 105 → \`PlingPlangPlong\`
- 1 → \`1\`, 52 → \`52\`

${interfaceSection(
  'export `convert(number)` from a module named `raindrops` (`src/raindrops.js`); it returns a string.',
  'define `convert(number)` in a module named `raindrops` (`src/raindrops.py`); it returns a string.',
  GO.raindrops,
  RUBY.raindrops,
  PHP.raindrops,
  JAVA.raindrops,
  RUST.raindrops,
)}`,
  },
  {
    slug: 'prime-factors',
    title: 'Prime Factors',
    tags: ['easy', 'numbers', 'lists'],
    maxCycles: 7,
    javascript: { module: 'primeFactors', exports: ['primeFactors'] },
    python: { module: 'prime_factors', exports: ['prime_factors'] },
    go: GO['prime-factors'],
    ruby: RUBY['prime-factors'],
    php: PHP['prime-factors'],
    rust: RUST['prime-factors'],
    java: JAVA['prime-factors'],
    render: returns('primeFactors', 'prime_factors', ['value']),
    kata: `
# Prime Factors

Break a natural number down into the prime numbers that multiply to it.

## Behaviour

- The factors come in increasing order, each as many times as it divides the number: 12 is 2, 2, 3.
- 1 has no prime factors (an empty list); a prime is its own only factor.
- Numbers up to about 10^11 must be factored quickly (well under a second).

## Examples

- 2 → [2], 9 → [3, 3], 8 → [2, 2, 2], 6 → [2, 3]
- 901255 → [5, 17, 23, 461]

${interfaceSection(
  'export `primeFactors(value)` from a module named `primeFactors` (`src/primeFactors.js`); it returns an array of numbers.',
  'define `prime_factors(value)` in a module named `prime_factors` (`src/prime_factors.py`); it returns a list of ints.',
  GO['prime-factors'],
  RUBY['prime-factors'],
  PHP['prime-factors'],
  JAVA['prime-factors'],
  RUST['prime-factors'],
)}`,
  },
  {
    slug: 'sum-of-multiples',
    title: 'Sum of Multiples',
    tags: ['easy', 'numbers', 'lists'],
    maxCycles: 7,
    javascript: { module: 'sumOfMultiples', exports: ['sumOfMultiples'] },
    python: { module: 'sum_of_multiples', exports: ['sum_of_multiples'] },
    go: GO['sum-of-multiples'],
    ruby: RUBY['sum-of-multiples'],
    php: PHP['sum-of-multiples'],
    rust: RUST['sum-of-multiples'],
    java: JAVA['sum-of-multiples'],
    render: returns('sumOfMultiples', 'sum_of_multiples', ['factors', 'limit']),
    kata: `
# Sum of Multiples

Add up every number below a limit that is a multiple of at least one of some given factors.

## Behaviour

- Only positive multiples strictly below the limit count.
- A number that is a multiple of several factors is added once.
- A factor of 0 has no multiples to add; no factors at all give 0.

## Examples

- factors 3 and 5, limit 10: 3, 5, 6, 9 → 23
- factors 4 and 6, limit 15: 4, 6, 8, 12 → 30
- factor 3, limit 7: 3, 6 → 9
- factors 3 and 5, limit 1 → 0

${interfaceSection(
  'export `sumOfMultiples(factors, limit)` from a module named `sumOfMultiples` (`src/sumOfMultiples.js`); `factors` ' +
    'is an array of numbers and it returns a number.',
  'define `sum_of_multiples(factors, limit)` in a module named `sum_of_multiples` (`src/sum_of_multiples.py`); ' +
    '`factors` is a list of ints and it returns an int.',
  GO['sum-of-multiples'],
  RUBY['sum-of-multiples'],
  PHP['sum-of-multiples'],
  JAVA['sum-of-multiples'],
  RUST['sum-of-multiples'],
)}`,
  },
  {
    slug: 'allergies',
    title: 'Allergies',
    tags: ['medium', 'numbers', 'bitwise', 'lists'],
    maxCycles: 8,
    javascript: { module: 'allergies', exports: ['isAllergicTo', 'listAllergies'] },
    python: { module: 'allergies', exports: ['is_allergic_to', 'list_allergies'] },
    go: GO.allergies,
    ruby: RUBY.allergies,
    php: PHP.allergies,
    rust: RUST.allergies,
    java: JAVA.allergies,
    render: property({
      allergicTo: returns('isAllergicTo', 'is_allergic_to', ['score', 'item']),
      list: returns('listAllergies', 'list_allergies', ['score']),
    }),
    kata: `
# Allergies

An allergy test gives one number, the score, that sums a value for each thing a person is allergic to:

| item         | value |
| ------------ | ----- |
| eggs         | 1     |
| peanuts      | 2     |
| shellfish    | 4     |
| strawberries | 8     |
| tomatoes     | 16    |
| chocolate    | 32    |
| pollen       | 64    |
| cats         | 128   |

## Behaviour

- Tell whether a score means an allergy to a given item.
- List every item a score means an allergy to, in the order of the table.
- Parts of the score above 255 stand for items not in the table: they are ignored (257 means eggs only).

## Examples

- score 0: no allergies, an empty list
- score 3: eggs and peanuts; allergic to peanuts, not to shellfish
- score 5: eggs and shellfish
- score 255: all eight items

${interfaceSection(
  'export `isAllergicTo(score, item)` (returns `true` or `false`) and `listAllergies(score)` (returns an array of ' +
    'item names) from a module named `allergies` (`src/allergies.js`).',
  'define `is_allergic_to(score, item)` (returns `True` or `False`) and `list_allergies(score)` (returns a list of ' +
    'item names) in a module named `allergies` (`src/allergies.py`).',
  GO.allergies,
  RUBY.allergies,
  PHP.allergies,
  JAVA.allergies,
  RUST.allergies,
)}
Items are the lowercase names of the table (\`eggs\`, \`strawberries\`, ...).
`,
  },
  {
    slug: 'wordy',
    title: 'Wordy',
    tags: ['hard', 'parsing', 'strings', 'errors'],
    maxCycles: 14,
    javascript: { module: 'wordy', exports: ['answer'] },
    python: { module: 'wordy', exports: ['answer'] },
    go: GO.wordy,
    ruby: RUBY.wordy,
    php: PHP.wordy,
    rust: RUST.wordy,
    java: JAVA.wordy,
    render: returns('answer', 'answer', ['question']),
    kata: `
# Wordy

Answer simple arithmetic questions written in English.

## Behaviour

- A question reads \`What is <number>?\`, optionally followed by operations: \`plus\`, \`minus\`,
  \`multiplied by\` and \`divided by\`, each with a number after it. Numbers are whole and may be negative.
- Operations are applied strictly from left to right, ignoring the usual precedence:
  \`What is -3 plus 7 multiplied by -2?\` is (-3 + 7) × -2 = -8.
- Division is whole-number division (the questions only divide evenly).

## Errors

- \`unknown operation\`: the question uses a word that is neither a number nor one of the four operations
  (\`What is 52 cubed?\`), or is not a \`What is ...?\` question at all.
- \`syntax error\`: the words are known but not in the right order: an operation without a number after it, two
  operations or two numbers in a row, an operation first, or no number at all (\`What is?\`).

## Examples

- \`What is 5?\` → 5
- \`What is 1 plus 1?\` → 2
- \`What is 20 minus 4 minus 13?\` → 3
- \`What is 33 divided by -3?\` → -11
- \`What is 1 plus plus 2?\` → syntax error

${interfaceSection(
  'export `answer(question)` from a module named `wordy` (`src/wordy.js`); it returns a number, or throws an ' +
    '`Error` whose message is exactly `unknown operation` or `syntax error`.',
  'define `answer(question)` in a module named `wordy` (`src/wordy.py`); it returns an int, or raises `ValueError` ' +
    'with exactly the message `unknown operation` or `syntax error`.',
  GO.wordy,
  RUBY.wordy,
  PHP.wordy,
  JAVA.wordy,
  RUST.wordy,
)}`,
  },
  {
    slug: 'pangram',
    title: 'Pangram',
    tags: ['easy', 'strings', 'booleans'],
    maxCycles: 5,
    javascript: { module: 'pangram', exports: ['isPangram'] },
    python: { module: 'pangram', exports: ['is_pangram'] },
    go: GO.pangram,
    ruby: RUBY.pangram,
    php: PHP.pangram,
    rust: RUST.pangram,
    java: JAVA.pangram,
    render: returns('isPangram', 'is_pangram', ['sentence']),
    kata: `
# Pangram

Tell whether a sentence uses every letter of the English alphabet (a to z) at least once.

## Behaviour

- Upper and lower case are the same letter, but both halves of the alphabet must be there: \`abcdefghijklm
  ABCDEFGHIJKLM\` is not a pangram.
- Digits, spaces, underscores and punctuation are ignored; they never stand in for a letter.
- The empty sentence is not a pangram.

## Examples

- \`the quick brown fox jumps over the lazy dog\` → yes
- \`"Five quacking Zephyrs jolt my wax bed."\` → yes
- \`five boxing wizards jump quickly at it\` → no (no h)

${interfaceSection(
  'export `isPangram(sentence)` from a module named `pangram` (`src/pangram.js`); it returns `true` or `false`.',
  'define `is_pangram(sentence)` in a module named `pangram` (`src/pangram.py`); it returns `True` or `False`.',
  GO.pangram,
  RUBY.pangram,
  PHP.pangram,
  JAVA.pangram,
  RUST.pangram,
)}`,
  },
  {
    slug: 'hamming',
    title: 'Hamming',
    tags: ['easy', 'strings', 'errors'],
    maxCycles: 5,
    javascript: { module: 'hamming', exports: ['distance'] },
    python: { module: 'hamming', exports: ['distance'] },
    go: GO.hamming,
    ruby: RUBY.hamming,
    php: PHP.hamming,
    rust: RUST.hamming,
    java: JAVA.hamming,
    render: returns('distance', 'distance', ['strand1', 'strand2']),
    kata: `
# Hamming

Count the point mutations between two DNA strands: the positions where they hold different letters.

## Behaviour

- Two strands of the same length are compared position by position; the distance is the number of positions
  that differ. Identical strands (empty ones too) are at distance 0.
- Strands of different lengths cannot be compared: that is an error whose message is exactly
  \`strands must be of equal length\` (an empty strand against a non-empty one included).

## Examples

- \`G\` and \`T\` → 1
- \`GGACTGAAATCTG\` and itself → 0
- \`GGACGGATTCTG\` and \`AGGACGGATTCT\` → 9
- \`AATG\` and \`AAA\` → error

${interfaceSection(
  'export `distance(left, right)` from a module named `hamming` (`src/hamming.js`); it returns a number, or throws an ' +
    '`Error` whose message is exactly `strands must be of equal length`.',
  'define `distance(left, right)` in a module named `hamming` (`src/hamming.py`); it returns an int, or raises ' +
    '`ValueError` with exactly the message `strands must be of equal length`.',
  GO.hamming,
  RUBY.hamming,
  PHP.hamming,
  JAVA.hamming,
  RUST.hamming,
)}`,
  },
  {
    slug: 'collatz-conjecture',
    title: 'Collatz Conjecture',
    tags: ['easy', 'numbers', 'errors'],
    maxCycles: 5,
    javascript: { module: 'collatzConjecture', exports: ['steps'] },
    python: { module: 'collatz_conjecture', exports: ['steps'] },
    go: GO['collatz-conjecture'],
    ruby: RUBY['collatz-conjecture'],
    php: PHP['collatz-conjecture'],
    rust: RUST['collatz-conjecture'],
    java: JAVA['collatz-conjecture'],
    render: returns('steps', 'steps', ['number']),
    kata: `
# Collatz Conjecture

Count the steps a positive whole number takes to reach 1 by the Collatz rule.

## Behaviour

- One step: an even number is halved; an odd number becomes three times itself plus one.
- The answer is the number of steps until the number is 1; for 1 itself that is 0.
- Zero and negative numbers are an error whose message is exactly \`Only positive integers are allowed\`.

## Examples

- 1 → 0
- 16 → 4 (8, 4, 2, 1)
- 12 → 9
- 1000000 → 152

${interfaceSection(
  'export `steps(number)` from a module named `collatzConjecture` (`src/collatzConjecture.js`); it returns a number, ' +
    'or throws an `Error` whose message is exactly `Only positive integers are allowed`.',
  'define `steps(number)` in a module named `collatz_conjecture` (`src/collatz_conjecture.py`); it returns an int, ' +
    'or raises `ValueError` with exactly the message `Only positive integers are allowed`.',
  GO['collatz-conjecture'],
  RUBY['collatz-conjecture'],
  PHP['collatz-conjecture'],
  JAVA['collatz-conjecture'],
  RUST['collatz-conjecture'],
)}`,
  },
  {
    slug: 'luhn',
    title: 'Luhn',
    tags: ['medium', 'strings', 'numbers', 'validation'],
    maxCycles: 8,
    javascript: { module: 'luhn', exports: ['isValid'] },
    python: { module: 'luhn', exports: ['is_valid'] },
    go: GO.luhn,
    ruby: RUBY.luhn,
    php: PHP.luhn,
    rust: RUST.luhn,
    java: JAVA.luhn,
    render: returns('isValid', 'is_valid', ['value']),
    kata: `
# Luhn

Check a number (a credit card, a Canadian social insurance number) with the Luhn checksum.

## Behaviour

- The number is given as a string. Spaces may appear anywhere and are ignored; any other character that is not
  a digit makes it invalid.
- Fewer than two digits (after removing the spaces) is invalid, \`0\` included.
- From the rightmost digit leftwards, every second digit is doubled (the rightmost one is not); a doubled digit
  above 9 has 9 subtracted. The number is valid when the sum of all the digits so obtained divides evenly by 10.

## Examples

- \`059\` → valid (9 + (10 - 9) + 0 = 10)
- \`055 444 285\` → valid; \`055 444 286\` → invalid
- \`0000 0\` → valid; \`0\` → invalid
- \`055-444-285\` → invalid (a dash)

${interfaceSection(
  'export `isValid(value)` from a module named `luhn` (`src/luhn.js`); it returns `true` or `false`.',
  'define `is_valid(value)` in a module named `luhn` (`src/luhn.py`); it returns `True` or `False`.',
  GO.luhn,
  RUBY.luhn,
  PHP.luhn,
  JAVA.luhn,
  RUST.luhn,
)}`,
  },
];
