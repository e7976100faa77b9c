import type { FixturePlan } from './fixturePlans';
import type { ShapeFixture } from './projectShapes';
import type { FileEdit } from './scriptedKataModel';

/**
 * Two TDD cycles on each project of test/support/projectShapes.ts, played as fixturePlans.ts plays them on the others:
 * the Tester adds a test to an existing test file with edit_file, the Implementer adds a function to the module it
 * imports, the simplest first and the general one second. Paths are the repository's (the pnpm workspace's files are
 * under `packages/table/`, the folder the session is started in).
 */
const edit = (path: string, ...edits: Array<[string, string]>): FileEdit => ({
  path,
  edits: edits.map(([search, replace]) => ({ search, replace })),
});

const PNPM_TEST = 'packages/table/src/table.test.ts';
const PNPM_SOURCE = 'packages/table/src/table.ts';
const PNPM_IMPORT = "import { columnWidths, plainTable, renderTable } from './table.js';";
const PNPM_TEST_END = `    expect(plainTable([[red('a'), 'b']], { gap: ' ' })).toBe('a b');
  });
});
`;
const PNPM_SOURCE_END = `  return stripAnsi(renderTable(rows, options));
}
`;

const YARN_TEST = 'src/record.test.ts';
const YARN_SOURCE = 'src/record.ts';
const YARN_IMPORT = "import { groupBy, mapValues, omit, pick } from './record.js';";
const YARN_TEST_END = `    expect(groupBy([], () => 'x')).toEqual({});
  });
});
`;
const YARN_SOURCE_END = `  for (const item of list) (out[keyOf(item)] ??= []).push(item);
  return out;
}
`;

const HATCH_TEST = 'tests/test_pins.py';
const HATCH_SOURCE = 'src/reqpin/pins.py';
const HATCH_IMPORT = 'from reqpin import is_satisfied, pin, pinned_version';
const HATCH_TEST_END = `def test_pinned_version_is_none_without_one_exact_version(requirement):
    assert pinned_version(requirement) is None
`;
const HATCH_SOURCE_END = `        return specs[0].version
    return None
`;

const FLAT_TEST = 'tests/test_months.py';
const FLAT_SOURCE = 'dateslice/months.py';
const FLAT_IMPORT = 'from dateslice import add_months, month_end, month_start, months_between';
const FLAT_TEST_END = `    assert months_between(date(2024, 6, 1), date(2024, 1, 1)) == -5
`;
const FLAT_SOURCE_END = `    delta = relativedelta(end, start)
    return delta.years * 12 + delta.months
`;

const UVU_TEST = 'test/strip.js';
const UVU_SOURCE = 'src/strip.js';
const UVU_TEST_END = `test('counts nothing in codes alone', () => {
  assert.is(tint.visibleLength('\\u001b[31m\\u001b[39m'), 0);
});
`;
const UVU_SOURCE_END = `export function visibleLength(text) {
  return [...strip(text)].length;
}
`;

const RUST_TEST = 'tests/round_trip.rs';
const RUST_SOURCE = 'src/lib.rs';
const RUST_USE = 'use bytesize::{format, parse, unit_named, ParseError};';
const RUST_TEST_END = `    assert!(format(u64::MAX).ends_with("GB"));
}
`;
const RUST_SOURCE_END = 'pub use units::{unit_named, Unit, UNITS};\n';
const PHP_TEST = 'tests/SlugTest.php';
const PHP_SOURCE = 'src/Slug.php';
const PHP_TEST_END = `            'only punctuation' => ['?!', ''],
            'dots' => ['v1.2.3', 'v1-2-3'],
            'hyphens kept' => ['well-known  fact', 'well-known-fact'],
            'leading digits' => ['2024 in review', '2024-in-review'],
            'german' => ['Über Öl', 'uber-ol'],
        ];
    }
`;
const PHP_SOURCE_END = `        return $text !== '' && self::of($text, $separator) === $text;
    }
`;

const JAVA_TEST = 'src/test/java/com/acme/textcase/CaseFormatTest.java';
const JAVA_SOURCE = 'src/main/java/com/acme/textcase/CaseFormat.java';
const JAVA_TEST_END = `    void emptyStaysEmpty() {
        assertEquals("", CaseFormat.camel(""));
        assertEquals("", CaseFormat.snake(""));
    }
`;
const JAVA_SOURCE_END = `        return snake(identifier).toUpperCase(Locale.ROOT);
    }
`;

const GO_TEST = 'sizes/units_test.go';
const GO_SOURCE = 'sizes/units.go';
const GO_TEST_END = `				t.Errorf("%s is not larger than %s", units[i].Name, units[i-1].Name)
			}
		}
	}
}
`;
const GO_SOURCE_END = `	return Unit{}, false
}
`;

const RUBY_SPEC = 'spec/durations/units_spec.rb';
const RUBY_SOURCE = 'lib/durations/units.rb';
const RUBY_SPEC_END = `  it "tells a unit from a word that is none" do
    expect([Durations.unit?("s"), Durations.unit?("x")]).to eq([true, false])
  end
`;
const RUBY_SOURCE_END = `  def self.unit?(unit)
    UNITS.key?(unit.to_s.downcase)
  end
`;

/** The task sentence and the two scripted cycles of each shape fixture. */
export const SHAPE_PLANS: Record<ShapeFixture, FixturePlan> = {
  'ts-pnpm-workspace': {
    task: 'Add rule(widths): the line drawn under a table’s header',
    testPath: PNPM_TEST,
    sourcePath: PNPM_SOURCE,
    cycles: [
      {
        tester: {
          edits: [
            edit(
              PNPM_TEST,
              [PNPM_IMPORT, "import { columnWidths, plainTable, renderTable, rule } from './table.js';"],
              [
                PNPM_TEST_END,
                `${PNPM_TEST_END}\ndescribe('rule', () => {\n  it('is a dash per column of a one-column table', () => {\n    expect(rule([3])).toBe('---');\n  });\n});\n`,
              ],
            ),
          ],
          report: 'a rule under one column',
        },
        implementer: {
          edits: [
            edit(PNPM_SOURCE, [
              PNPM_SOURCE_END,
              `${PNPM_SOURCE_END}\n/** The line under a table's header: dashes as wide as each column. */\nexport function rule(widths: readonly number[]): string {\n  void widths;\n  return '---';\n}\n`,
            ]),
          ],
          report: 'three dashes',
        },
      },
      {
        tester: {
          edits: [
            edit(PNPM_TEST, [
              "    expect(rule([3])).toBe('---');\n  });\n",
              "    expect(rule([3])).toBe('---');\n  });\n\n  it('puts the gap between the columns', () => {\n    expect(rule([3, 2])).toBe('---  --');\n  });\n",
            ]),
          ],
          report: 'a rule under two columns',
        },
        implementer: {
          edits: [
            edit(PNPM_SOURCE, [
              "  void widths;\n  return '---';",
              "  return widths.map((width) => '-'.repeat(width)).join('  ');",
            ]),
          ],
          report: 'a run of dashes per column',
        },
      },
    ],
  },
  'ts-yarn-vitest-typecheck': {
    task: 'Add invert(record): a record whose keys are the values and whose values are the keys',
    testPath: YARN_TEST,
    sourcePath: YARN_SOURCE,
    cycles: [
      {
        tester: {
          edits: [
            edit(
              YARN_TEST,
              [YARN_IMPORT, "import { groupBy, invert, mapValues, omit, pick } from './record.js';"],
              [
                YARN_TEST_END,
                `${YARN_TEST_END}\ndescribe('invert', () => {\n  it('swaps a key and its value', () => {\n    expect(invert({ a: 'x' })).toEqual({ x: 'a' });\n  });\n});\n`,
              ],
            ),
          ],
          report: 'invert swaps one key and value',
        },
        implementer: {
          edits: [
            edit(YARN_SOURCE, [
              YARN_SOURCE_END,
              `${YARN_SOURCE_END}\n/** A record whose keys are \`record\`'s values and whose values are its keys. */\nexport function invert(record: Record<string, string>): Record<string, string> {\n  const [key, value] = Object.entries(record)[0]!;\n  return { [value]: key };\n}\n`,
            ]),
          ],
          report: 'swap the first entry',
        },
      },
      {
        tester: {
          edits: [
            edit(YARN_TEST, [
              "    expect(invert({ a: 'x' })).toEqual({ x: 'a' });\n  });\n",
              "    expect(invert({ a: 'x' })).toEqual({ x: 'a' });\n  });\n\n  it('keeps the last key of a value that repeats', () => {\n    expect(invert({ a: 'x', b: 'y', c: 'x' })).toEqual({ x: 'c', y: 'b' });\n  });\n",
            ]),
          ],
          report: 'every entry, the last key winning',
        },
        implementer: {
          edits: [
            edit(YARN_SOURCE, [
              '  const [key, value] = Object.entries(record)[0]!;\n  return { [value]: key };',
              '  const out: Record<string, string> = {};\n  for (const [key, value] of Object.entries(record)) out[value] = key;\n  return out;',
            ]),
          ],
          report: 'every entry in order',
        },
      },
    ],
  },
  'py-hatch-vcs': {
    task: 'Add upper_bound(requirement): the version a requirement stays below, if any',
    testPath: HATCH_TEST,
    sourcePath: HATCH_SOURCE,
    cycles: [
      {
        tester: {
          edits: [
            edit(
              HATCH_TEST,
              [HATCH_IMPORT, `${HATCH_IMPORT}\nfrom reqpin.pins import upper_bound`],
              [
                HATCH_TEST_END,
                `${HATCH_TEST_END}\n\ndef test_upper_bound_of_a_less_than():\n    assert upper_bound("attrs<3") == "3"\n`,
              ],
            ),
          ],
          report: 'the bound of attrs<3 is 3',
        },
        implementer: {
          edits: [
            edit(HATCH_SOURCE, [
              HATCH_SOURCE_END,
              `${HATCH_SOURCE_END}\n\ndef upper_bound(requirement: str) -> str | None:\n    """The version a requirement stays below (its lowest < or <= bound), else None."""\n    return "3"\n`,
            ]),
          ],
          report: 'three for now',
        },
      },
      {
        tester: {
          edits: [
            edit(HATCH_TEST, [
              '    assert upper_bound("attrs<3") == "3"\n',
              '    assert upper_bound("attrs<3") == "3"\n\n\ndef test_no_upper_bound_without_a_less_than():\n    assert upper_bound("attrs>=1") is None\n',
            ]),
          ],
          report: 'no bound without a less-than',
        },
        implementer: {
          edits: [
            edit(HATCH_SOURCE, [
              '    """The version a requirement stays below (its lowest < or <= bound), else None."""\n    return "3"',
              '    """The version a requirement stays below (its lowest < or <= bound), else None."""\n    bounds = [s.version for s in parse(requirement).specifier if s.operator in ("<", "<=")]\n    return min(bounds, key=Version) if bounds else None',
            ]),
          ],
          report: 'the lowest < or <= bound',
        },
      },
    ],
  },
  'py-flat-pytest': {
    task: 'Add quarter_of(day): the quarter of the year a date falls in',
    testPath: FLAT_TEST,
    sourcePath: FLAT_SOURCE,
    cycles: [
      {
        tester: {
          edits: [
            edit(
              FLAT_TEST,
              [FLAT_IMPORT, `${FLAT_IMPORT}\nfrom dateslice.months import quarter_of`],
              [
                FLAT_TEST_END,
                `${FLAT_TEST_END}\n\ndef test_february_is_in_the_first_quarter():\n    assert quarter_of(date(2024, 2, 10)) == 1\n`,
              ],
            ),
          ],
          report: 'february is in the first quarter',
        },
        implementer: {
          edits: [
            edit(FLAT_SOURCE, [
              FLAT_SOURCE_END,
              `${FLAT_SOURCE_END}\n\ndef quarter_of(day: date) -> int:\n    """The quarter of the year \`day\` falls in, 1 to 4."""\n    return 1\n`,
            ]),
          ],
          report: 'the first quarter for now',
        },
      },
      {
        tester: {
          edits: [
            edit(FLAT_TEST, [
              '    assert quarter_of(date(2024, 2, 10)) == 1\n',
              '    assert quarter_of(date(2024, 2, 10)) == 1\n\n\ndef test_november_is_in_the_fourth_quarter():\n    assert quarter_of(date(2024, 11, 5)) == 4\n',
            ]),
          ],
          report: 'november is in the fourth quarter',
        },
        implementer: {
          edits: [
            edit(FLAT_SOURCE, [
              '    """The quarter of the year `day` falls in, 1 to 4."""\n    return 1',
              '    """The quarter of the year `day` falls in, 1 to 4."""\n    return (day.month - 1) // 3 + 1',
            ]),
          ],
          report: 'three months a quarter',
        },
      },
    ],
  },
  'go-module': {
    task: 'Add Blocks(bytes, blockSize): how many blocks of blockSize a size takes, rounding up',
    testPath: GO_TEST,
    sourcePath: GO_SOURCE,
    cycles: [
      {
        tester: {
          edits: [
            edit(GO_TEST, [
              GO_TEST_END,
              `${GO_TEST_END}\nfunc TestBlocksOfAnExactSize(t *testing.T) {\n\tif got := Blocks(4096, 4096); got != 1 {\n\t\tt.Errorf("Blocks(4096, 4096) = %d, want 1", got)\n\t}\n}\n`,
            ]),
          ],
          report: 'a size of exactly one block takes one block',
        },
        implementer: {
          edits: [
            edit(GO_SOURCE, [
              GO_SOURCE_END,
              `${GO_SOURCE_END}\n// Blocks is how many blocks of blockSize bytes a size of bytes takes.\nfunc Blocks(bytes, blockSize int64) int64 {\n\treturn 1\n}\n`,
            ]),
          ],
          report: 'one block for now',
        },
      },
      {
        tester: {
          edits: [
            edit(GO_TEST, [
              '\t\tt.Errorf("Blocks(4096, 4096) = %d, want 1", got)\n\t}\n}\n',
              '\t\tt.Errorf("Blocks(4096, 4096) = %d, want 1", got)\n\t}\n}\n\nfunc TestBlocksRoundUp(t *testing.T) {\n\tif got := Blocks(4097, 4096); got != 2 {\n\t\tt.Errorf("Blocks(4097, 4096) = %d, want 2", got)\n\t}\n}\n',
            ]),
          ],
          report: 'a byte more takes another block',
        },
        implementer: {
          edits: [edit(GO_SOURCE, ['\treturn 1\n}\n', '\treturn (bytes + blockSize - 1) / blockSize\n}\n'])],
          report: 'round up',
        },
      },
    ],
  },
  'ruby-gem': {
    task: 'Add Durations.whole(seconds, unit): how many whole units a duration holds',
    testPath: RUBY_SPEC,
    sourcePath: RUBY_SOURCE,
    cycles: [
      {
        tester: {
          edits: [
            edit(RUBY_SPEC, [
              RUBY_SPEC_END,
              `${RUBY_SPEC_END}\n  it "counts one whole hour in an hour" do\n    expect(Durations.whole(3600, "h")).to eq(1)\n  end\n`,
            ]),
          ],
          report: 'an hour holds one whole hour',
        },
        implementer: {
          edits: [
            edit(RUBY_SOURCE, [
              RUBY_SOURCE_END,
              `${RUBY_SOURCE_END}\n  # How many whole \`unit\`s the duration of \`seconds\` holds.\n  def self.whole(seconds, unit)\n    1\n  end\n`,
            ]),
          ],
          report: 'one for now',
        },
      },
      {
        tester: {
          edits: [
            edit(RUBY_SPEC, [
              '    expect(Durations.whole(3600, "h")).to eq(1)\n  end\n',
              '    expect(Durations.whole(3600, "h")).to eq(1)\n  end\n\n  it "leaves out what is left over" do\n    expect(Durations.whole(7199, "h")).to eq(1)\n    expect(Durations.whole(7200, "m")).to eq(120)\n  end\n',
            ]),
          ],
          report: 'a part of a unit is left out',
        },
        implementer: {
          edits: [
            edit(RUBY_SOURCE, [
              '  def self.whole(seconds, unit)\n    1\n  end\n',
              '  def self.whole(seconds, unit)\n    seconds / seconds_in(unit)\n  end\n',
            ]),
          ],
          report: 'divide by the unit',
        },
      },
    ],
  },
  'php-composer': {
    task: 'Add Slug::limit($slug, $max): a slug cut to at most $max characters, never in the middle of a word',
    testPath: PHP_TEST,
    sourcePath: PHP_SOURCE,
    cycles: [
      {
        tester: {
          edits: [
            edit(PHP_TEST, [
              PHP_TEST_END,
              `${PHP_TEST_END}\n    public function testLimitKeepsAShortSlug(): void\n    {\n        $this->assertSame('hello-world', Slug::limit('hello-world', 20));\n    }\n`,
            ]),
          ],
          report: 'a slug shorter than the limit is kept',
        },
        implementer: {
          edits: [
            edit(PHP_SOURCE, [
              PHP_SOURCE_END,
              `${PHP_SOURCE_END}\n    /** The slug cut to at most max characters, between words. */\n    public static function limit(string $slug, int $max, string $separator = '-'): string\n    {\n        return $slug;\n    }\n`,
            ]),
          ],
          report: 'keep it for now',
        },
      },
      {
        tester: {
          edits: [
            edit(PHP_TEST, [
              "        $this->assertSame('hello-world', Slug::limit('hello-world', 20));\n    }\n",
              "        $this->assertSame('hello-world', Slug::limit('hello-world', 20));\n    }\n\n    public function testLimitCutsBetweenWords(): void\n    {\n        $this->assertSame('the-quick', Slug::limit('the-quick-brown-fox', 12));\n    }\n",
            ]),
          ],
          report: 'a longer slug is cut between words',
        },
        implementer: {
          edits: [
            edit(PHP_SOURCE, [
              '        return $slug;\n    }\n',
              "        $kept = '';\n        foreach (explode($separator, $slug) as $word) {\n            $next = $kept === '' ? $word : $kept . $separator . $word;\n            if (strlen($next) > $max) {\n                break;\n            }\n            $kept = $next;\n        }\n        return $kept;\n    }\n",
            ]),
          ],
          report: 'keep whole words up to the limit',
        },
      },
    ],
  },
  'rust-crate': {
    task: 'Add blocks(bytes, block_size): how many blocks of block_size bytes a size takes, rounding up',
    testPath: RUST_TEST,
    sourcePath: RUST_SOURCE,
    cycles: [
      {
        tester: {
          edits: [
            edit(
              RUST_TEST,
              [RUST_USE, 'use bytesize::{blocks, format, parse, unit_named, ParseError};'],
              [
                RUST_TEST_END,
                `${RUST_TEST_END}\n#[test]\nfn blocks_of_an_exact_size() {\n    assert_eq!(blocks(4096, 4096), 1);\n}\n`,
              ],
            ),
          ],
          report: 'a size of exactly one block takes one block',
        },
        implementer: {
          edits: [
            edit(RUST_SOURCE, [
              RUST_SOURCE_END,
              `${RUST_SOURCE_END}\n/// How many blocks of block_size bytes a size of bytes takes, rounding up.\npub fn blocks(bytes: u64, block_size: u64) -> u64 {\n    let _ = (bytes, block_size);\n    1\n}\n`,
            ]),
          ],
          report: 'one block for now',
        },
      },
      {
        tester: {
          edits: [
            edit(RUST_TEST, [
              '    assert_eq!(blocks(4096, 4096), 1);\n}\n',
              '    assert_eq!(blocks(4096, 4096), 1);\n}\n\n#[test]\nfn blocks_round_up() {\n    assert_eq!(blocks(4097, 4096), 2);\n}\n',
            ]),
          ],
          report: 'a byte more takes another block',
        },
        implementer: {
          edits: [
            edit(RUST_SOURCE, ['    let _ = (bytes, block_size);\n    1\n}\n', '    (bytes + block_size - 1) / block_size\n}\n']),
          ],
          report: 'round up',
        },
      },
    ],
  },
  'java-maven': {
    task: 'Add CaseFormat.kebab(identifier): the words of an identifier in lower case, joined by hyphens',
    testPath: JAVA_TEST,
    sourcePath: JAVA_SOURCE,
    cycles: [
      {
        tester: {
          edits: [
            edit(JAVA_TEST, [
              JAVA_TEST_END,
              `${JAVA_TEST_END}\n    @Test\n    void kebabKeepsOneWord() {\n        assertEquals("id", CaseFormat.kebab("id"));\n    }\n`,
            ]),
          ],
          report: 'one word is its own kebab case',
        },
        implementer: {
          edits: [
            edit(JAVA_SOURCE, [
              JAVA_SOURCE_END,
              `${JAVA_SOURCE_END}\n    /** {@code parseHttpHeader} as {@code parse-http-header}. */\n    public static String kebab(String identifier) {\n        return identifier;\n    }\n`,
            ]),
          ],
          report: 'the identifier as it is, for now',
        },
      },
      {
        tester: {
          edits: [
            edit(JAVA_TEST, [
              '        assertEquals("id", CaseFormat.kebab("id"));\n    }\n',
              '        assertEquals("id", CaseFormat.kebab("id"));\n    }\n\n    @Test\n    void kebabJoinsWordsWithHyphens() {\n        assertEquals("parse-http-header", CaseFormat.kebab("parseHTTPHeader"));\n    }\n',
            ]),
          ],
          report: 'the words joined by hyphens',
        },
        implementer: {
          edits: [
            edit(JAVA_SOURCE, [
              '    public static String kebab(String identifier) {\n        return identifier;\n    }\n',
              '    public static String kebab(String identifier) {\n        return String.join("-", Words.split(identifier));\n    }\n',
            ]),
          ],
          report: 'join the words with hyphens',
        },
      },
    ],
  },
  'js-uvu-colors': {
    task: 'Add pad(text, width): text padded with spaces to a visible width, its colour codes taking none',
    testPath: UVU_TEST,
    sourcePath: UVU_SOURCE,
    cycles: [
      {
        tester: {
          edits: [
            edit(UVU_TEST, [
              UVU_TEST_END,
              `${UVU_TEST_END}\ntest('pads a text that is wide enough by nothing', () => {\n  assert.is(tint.pad('ab', 2), 'ab');\n});\n`,
            ]),
          ],
          report: 'a text as wide as asked is left alone',
        },
        implementer: {
          edits: [
            edit(UVU_SOURCE, [
              UVU_SOURCE_END,
              `${UVU_SOURCE_END}\n/** \`text\` padded with spaces to \`width\` visible characters. */\nexport function pad(text, width) {\n  return text;\n}\n`,
            ]),
          ],
          report: 'the text as it is, for now',
        },
      },
      {
        tester: {
          edits: [
            edit(UVU_TEST, [
              "  assert.is(tint.pad('ab', 2), 'ab');\n});\n",
              "  assert.is(tint.pad('ab', 2), 'ab');\n});\n\ntest('pads a painted text by its visible width', () => {\n  assert.is(tint.strip(tint.pad(tint.paint('ab', 'red', true), 4)), 'ab  ');\n});\n",
            ]),
          ],
          report: 'colour codes take no width',
        },
        implementer: {
          edits: [
            edit(UVU_SOURCE, [
              'export function pad(text, width) {\n  return text;\n}\n',
              "export function pad(text, width) {\n  return text + ' '.repeat(Math.max(0, width - visibleLength(text)));\n}\n",
            ]),
          ],
          report: 'spaces for what is missing',
        },
      },
    ],
  },
};
