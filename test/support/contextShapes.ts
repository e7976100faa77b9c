import { execFile } from 'node:child_process';
import { cp, mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FixturePlan } from './fixturePlans';
import type { FileEdit } from './scriptedKataModel';

const run = promisify(execFile);

/**
 * The two shapes of issue 35 in which the file the Implementer changes was not whole in its first request, as small
 * libraries under test/fixtures/context/ (no dependencies to install):
 *
 * - `js-root-index`: a CommonJS library whose code is all in a 143-line root `index.js` that package.json's `main`
 *   names; its tests under `test/` load it with `require('..')` and run with `node --test`.
 * - `py-long-module`: a `src/` package whose `__init__.py` re-exports the names of one 582-line module (and of a small
 *   one); the tests import them from the package and run with `python3 -m pytest` (no virtual environment).
 */
export type ContextShape = 'js-root-index' | 'py-long-module';

/** Where the shapes live in this repository. */
export const CONTEXT_SHAPES_DIR = join(__dirname, '..', 'fixtures', 'context');

/** A shape's files as the person's fresh repository: copied into a new folder of `parent` (default: the temp folder), one commit. */
export async function contextShapeRepository(shape: ContextShape, parent = tmpdir()): Promise<string> {
  const dir = await realpath(await mkdtemp(join(parent, `tdd-person-${shape}-`)));
  await cp(join(CONTEXT_SHAPES_DIR, shape), dir, {
    recursive: true,
    filter: (source) => !/(?:^|\/)(?:__pycache__|\.pytest_cache|node_modules)$/.test(source),
  });
  const git = (...args: string[]) => run('git', args, { cwd: dir });
  await git('init', '-q', '-b', 'main');
  await git('config', 'user.name', 'Person');
  await git('config', 'user.email', 'person@example.invalid');
  await git('add', '-A');
  await git('commit', '-q', '-m', `${shape}: the person's library`);
  return dir;
}

const edit = (path: string, ...edits: Array<[string, string]>): FileEdit => ({
  path,
  edits: edits.map(([search, replace]) => ({ search, replace })),
});

const JS_TEST = 'test/parse.test.js';
const JS_SOURCE = 'index.js';
const JS_IMPORT = "const { parse, unitFor } = require('..');";
const JS_TEST_END = `  assert.equal(unitFor('fortnight'), undefined);
});
`;
const JS_EXPORTS = 'module.exports = {\n  UNITS,';

const PY_TEST = 'tests/test_text.py';
const PY_SOURCE = 'src/textkit/core.py';
const PY_PACKAGE = 'src/textkit/__init__.py';
const PY_IMPORT = 'from textkit import acronym, collapse_whitespace, slugify, split_sentences, truncate, word_count, words, wrap';
const PY_TEST_END = `    assert acronym("Department of the Interior") == "DI"
`;
const PY_SOURCE_END = `    return re.sub(r"\\b(\\w+)(\\s+\\1\\b)+", r"\\1", text, flags=re.IGNORECASE)
`;

/**
 * Two TDD cycles on each shape, played as test/support/fixturePlans.ts plays the fixture projects: the Tester adds a
 * test to an existing test file with edit_file, the Implementer adds a function where the test reaches it — the root
 * `index.js` (and its exports), the long module (and the package's re-exports) — the simplest first, the general one
 * second. `sourcePath` is the file the Implementer changes that was not whole before.
 */
export const CONTEXT_SHAPE_PLANS: Record<ContextShape, FixturePlan> = {
  'js-root-index': {
    task: 'Add isDuration(text): whether a text is a duration that parse reads',
    testPath: JS_TEST,
    sourcePath: JS_SOURCE,
    cycles: [
      {
        tester: {
          edits: [
            edit(
              JS_TEST,
              [JS_IMPORT, "const { isDuration, parse, unitFor } = require('..');"],
              [
                JS_TEST_END,
                `${JS_TEST_END}\ntest('says that a text parse reads is a duration', () => {\n  assert.equal(isDuration('1h 30m'), true);\n});\n`,
              ],
            ),
          ],
          report: 'a text parse reads is a duration',
        },
        implementer: {
          edits: [
            edit(
              JS_SOURCE,
              [
                JS_EXPORTS,
                `/** Whether \`text\` is a duration that parse reads. */\nfunction isDuration(text) {\n  void text;\n  return true;\n}\n\n${JS_EXPORTS}`,
              ],
              ['  unitFor,\n};', '  unitFor,\n  isDuration,\n};'],
            ),
          ],
          report: 'every text is a duration for now',
        },
      },
      {
        tester: {
          edits: [
            edit(JS_TEST, [
              "  assert.equal(isDuration('1h 30m'), true);\n});\n",
              "  assert.equal(isDuration('1h 30m'), true);\n});\n\ntest('says that other texts are not durations', () => {\n  assert.equal(isDuration('soon'), false);\n});\n",
            ]),
          ],
          report: 'other texts are not durations',
        },
        implementer: {
          edits: [
            edit(JS_SOURCE, [
              '  void text;\n  return true;',
              '  try {\n    parse(text);\n    return true;\n  } catch {\n    return false;\n  }',
            ]),
          ],
          report: 'ask parse',
        },
      },
    ],
  },
  'py-long-module': {
    task: "Add initials(name): the initials of a person's name",
    testPath: PY_TEST,
    sourcePath: PY_SOURCE,
    cycles: [
      {
        tester: {
          edits: [
            edit(
              PY_TEST,
              [PY_IMPORT, PY_IMPORT.replace('collapse_whitespace, ', 'collapse_whitespace, initials, ')],
              [PY_TEST_END, `${PY_TEST_END}\n\ndef test_initials_of_a_name():\n    assert initials("Ada Lovelace") == "AL"\n`],
            ),
          ],
          report: 'the initials of a name',
        },
        implementer: {
          edits: [
            edit(
              PY_SOURCE,
              ['    "indent",\n', '    "indent",\n    "initials",\n'],
              [
                PY_SOURCE_END,
                `${PY_SOURCE_END}\n\ndef initials(name: str) -> str:\n    """The first letter of each word of a person's name."""\n    return "".join(part[0] for part in name.split())\n`,
              ],
            ),
            edit(PY_PACKAGE, ['    indent,\n', '    indent,\n    initials,\n']),
          ],
          report: 'first letters',
        },
      },
      {
        tester: {
          edits: [
            edit(PY_TEST, [
              '    assert initials("Ada Lovelace") == "AL"\n',
              '    assert initials("Ada Lovelace") == "AL"\n\n\ndef test_initials_are_capitals():\n    assert initials("grace brewster murray hopper") == "GBMH"\n',
            ]),
          ],
          report: 'initials are capitals',
        },
        implementer: {
          edits: [
            edit(PY_SOURCE, [
              '    return "".join(part[0] for part in name.split())',
              '    return "".join(part[0] for part in name.split()).upper()',
            ]),
          ],
          report: 'upper case',
        },
      },
    ],
  },
};
