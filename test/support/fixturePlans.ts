import type { CyclePlan, FileEdit } from './scriptedKataModel';
import type { ProjectFixture } from './projectFixtures';

/**
 * Two TDD cycles on each fixture project as a model working in a real codebase plays them: the Tester adds one test
 * to an existing test file with edit_file (an import and a test appended), the Implementer adds a function to the
 * existing module the test imports with edit_file; the first implementation is the simplest that passes, the second
 * generalises it. Shared by the sessions test (test/integration/project/relevantContext.test.ts) and the bench
 * (bench/projectPrompts.ts).
 */
export interface FixturePlan {
  /** The task sentence the session is started with. */
  task: string;
  /** The existing test file the Tester edits. */
  testPath: string;
  /** The existing module it imports, which the Implementer edits. */
  sourcePath: string;
  cycles: CyclePlan[];
}

const edit = (path: string, ...edits: Array<[string, string]>): FileEdit => ({
  path,
  edits: edits.map(([search, replace]) => ({ search, replace })),
});

const TS_TEST = 'src/units.test.ts';
const TS_SOURCE = 'src/units.ts';
const TS_TEST_END = `  it('looks at the magnitude of negative sizes', () => {
    expect(unitFor(-2_500_000, 'si').symbol).toBe('MB');
  });
});
`;
const TS_IMPORT = "import { findUnit, UNITS, unitFor } from './units.js';";
const TS_SOURCE_END = `  for (const unit of units) if (magnitude >= unit.bytes) chosen = unit;
  return chosen;
}
`;

const JS_TEST = '__tests__/expand.test.js';
const JS_SOURCE = 'src/expand.js';
const JS_TEST_END = `    expect(parsed).toEqual({ A: 'x', B: '$A' });
  });
});
`;
const JS_IMPORT = "const { expand } = require('../src/expand');";

const PY_TEST = 'tests/test_bump.py';
const PY_SOURCE = 'src/verbump/bump.py';
const PY_TEST_END = `    with pytest.raises(ValueError, match="not a PEP 440 version"):
        bump("one.two", "patch")
`;
const PY_IMPORT = 'from verbump import Part, bump';
const PY_SOURCE_END = `    if unreleased:
        return _release(major, minor, patch, v.epoch)
    return _release(major, minor, patch + 1, v.epoch)
`;

export const FIXTURE_PLANS: Record<ProjectFixture, FixturePlan> = {
  'ts-vitest-pnpm': {
    task: 'Add largestUnit(system): the largest unit of a unit system',
    testPath: TS_TEST,
    sourcePath: TS_SOURCE,
    cycles: [
      {
        tester: {
          edits: [
            edit(
              TS_TEST,
              [TS_IMPORT, "import { findUnit, largestUnit, UNITS, unitFor } from './units.js';"],
              [
                TS_TEST_END,
                `${TS_TEST_END}\ndescribe('largestUnit', () => {\n  it('is EB for SI', () => {\n    expect(largestUnit('si').symbol).toBe('EB');\n  });\n});\n`,
              ],
            ),
          ],
          report: 'largest unit of si is eb',
        },
        implementer: {
          edits: [
            edit(TS_SOURCE, [
              TS_SOURCE_END,
              `${TS_SOURCE_END}\n/** The largest unit of a system. */\nexport function largestUnit(system: UnitSystem): ByteUnit {\n  void system;\n  return UNITS.si[UNITS.si.length - 1]!;\n}\n`,
            ]),
          ],
          report: 'return the last si unit',
        },
      },
      {
        tester: {
          edits: [
            edit(TS_TEST, [
              `    expect(largestUnit('si').symbol).toBe('EB');\n  });\n`,
              `    expect(largestUnit('si').symbol).toBe('EB');\n  });\n\n  it('is EiB for IEC', () => {\n    expect(largestUnit('iec').symbol).toBe('EiB');\n  });\n`,
            ]),
          ],
          report: 'largest unit of iec is eib',
        },
        implementer: {
          edits: [
            edit(TS_SOURCE, [
              '  void system;\n  return UNITS.si[UNITS.si.length - 1]!;',
              '  const units = UNITS[system];\n  return units[units.length - 1]!;',
            ]),
          ],
          report: 'use the system’s own units',
        },
      },
    ],
  },
  'js-jest': {
    task: 'Add listReferences(value): the names a value refers to',
    testPath: JS_TEST,
    sourcePath: JS_SOURCE,
    cycles: [
      {
        tester: {
          edits: [
            edit(
              JS_TEST,
              [JS_IMPORT, "const { expand, listReferences } = require('../src/expand');"],
              [
                JS_TEST_END,
                `${JS_TEST_END}\ndescribe('listReferences', () => {\n  test('names the variable of $NAME', () => {\n    expect(listReferences('$HOST')).toEqual(['HOST']);\n  });\n});\n`,
              ],
            ),
          ],
          report: 'names the variable of a reference',
        },
        implementer: {
          edits: [
            edit(JS_SOURCE, [
              'module.exports = { expand };',
              '/** The names a value refers to. */\nfunction listReferences(value) {\n  return [value.slice(1)];\n}\n\nmodule.exports = { expand, listReferences };',
            ]),
          ],
          report: 'strip the dollar sign',
        },
      },
      {
        tester: {
          edits: [
            edit(JS_TEST, [
              "    expect(listReferences('$HOST')).toEqual(['HOST']);\n  });\n",
              "    expect(listReferences('$HOST')).toEqual(['HOST']);\n  });\n\n  test('names every reference in order, braced or not', () => {\n    expect(listReferences('${USER}@$HOST')).toEqual(['USER', 'HOST']);\n  });\n",
            ]),
          ],
          report: 'names every reference in order',
        },
        implementer: {
          edits: [
            edit(JS_SOURCE, [
              '  return [value.slice(1)];',
              '  return [...value.matchAll(/\\$\\{?([A-Za-z_][A-Za-z0-9_]*)\\}?/g)].map((m) => m[1]);',
            ]),
          ],
          report: 'match each reference',
        },
      },
    ],
  },
  'py-src-pytest': {
    task: 'Add is_prerelease(version): whether a version is a pre-release',
    testPath: PY_TEST,
    sourcePath: PY_SOURCE,
    cycles: [
      {
        tester: {
          edits: [
            edit(
              PY_TEST,
              [PY_IMPORT, `${PY_IMPORT}\nfrom verbump.bump import is_prerelease`],
              [
                PY_TEST_END,
                `${PY_TEST_END}\n\ndef test_a_release_candidate_is_a_prerelease():\n    assert is_prerelease("1.0.0rc1")\n`,
              ],
            ),
          ],
          report: 'a release candidate is a pre-release',
        },
        implementer: {
          edits: [
            edit(PY_SOURCE, [
              PY_SOURCE_END,
              `${PY_SOURCE_END}\n\ndef is_prerelease(version: str) -> bool:\n    """Whether a version is a pre-release."""\n    return True\n`,
            ]),
          ],
          report: 'every version is a pre-release for now',
        },
      },
      {
        tester: {
          edits: [
            edit(PY_TEST, [
              '    assert is_prerelease("1.0.0rc1")\n',
              '    assert is_prerelease("1.0.0rc1")\n\n\ndef test_a_final_release_is_not_a_prerelease():\n    assert not is_prerelease("1.0.0")\n',
            ]),
          ],
          report: 'a final release is not a pre-release',
        },
        implementer: {
          edits: [
            edit(PY_SOURCE, [
              '    """Whether a version is a pre-release."""\n    return True',
              '    """Whether a version is a pre-release."""\n    return _parse(version).is_prerelease',
            ]),
          ],
          report: 'ask packaging',
        },
      },
    ],
  },
};
