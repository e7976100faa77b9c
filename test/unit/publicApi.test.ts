import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as core from '../../src/core';
import * as tdd from '../../src/core/tddApi';
import * as testing from '../../src/core/testingApi';

const ROOT = join(__dirname, '..', '..');

/**
 * The library's entry points, each with the number of runtime names (values: classes, functions, constants,
 * schemas) it exports. The numbers are deliberate: changing one means changing the export list on purpose, its
 * api-extractor report (`npm run api:update`) and its page in docs/, which states the same number.
 */
const ENTRY_POINTS = {
  core: { module: core, source: 'src/core/index.ts', types: 'index', page: 'docs/api-core.md', runtimeNames: 109 },
  tdd: { module: tdd, source: 'src/core/tddApi.ts', types: 'tddApi', page: 'docs/api-tdd.md', runtimeNames: 89 },
  testing: {
    module: testing,
    source: 'src/core/testingApi.ts',
    types: 'testingApi',
    page: 'docs/api-testing.md',
    runtimeNames: 8,
  },
} as const;
type EntryPoint = keyof typeof ENTRY_POINTS;

const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

/** Every value (not `type`) name imported from `tdd-agent/<entry>` in `source`, with its entry point. */
function importedNames(source: string): Array<{ entry: string; name: string }> {
  return [...source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'tdd-agent\/([a-z]+)'/g)].flatMap((m) =>
    m[1]!
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name && !name.startsWith('type '))
      .map((name) => ({ entry: m[2]!, name })),
  );
}

/** The programs and documents that show the library to a person: examples/*.ts, the README and docs/*.md. */
function showcases(): Array<{ file: string; source: string }> {
  const files = [
    ...readdirSync(join(ROOT, 'examples'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => `examples/${f}`),
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  return files.map((file) => ({ file, source: read(file) }));
}

// The public entry points (`tdd-agent/core`, `/tdd`, `/testing`) as a person imports them: every name the examples
// and the docs import is there and is a real value. (The examples run as programs in the integration tier; these
// are the entry points themselves, in process.)
describe('the public API: tdd-agent/core, tdd-agent/tdd, tdd-agent/testing', () => {
  it('exports every name the examples, the README and docs/ import from it', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const { file, source } of showcases()) {
      for (const { entry, name } of importedNames(source)) {
        checked++;
        const module = ENTRY_POINTS[entry as EntryPoint]?.module as Record<string, unknown> | undefined;
        if (module?.[name] === undefined) missing.push(`${file}: ${name} from tdd-agent/${entry}`);
      }
    }
    assert.ok(checked >= 20, `only ${checked} imports found: the pattern no longer matches the examples`);
    assert.deepEqual(missing, []);
  });

  it('the entry points a session needs are functions and classes', () => {
    for (const name of ['createAgentRuntime', 'createOpenAIClient', 'QAAgent', 'CoTAgent', 'ReActAgent', 'ToolExecutor']) {
      assert.equal(typeof (core as Record<string, unknown>)[name], 'function', name);
    }
    assert.equal(typeof tdd.runKataSession, 'function');
    assert.equal(typeof testing.createScriptedLlmClient, 'function');
  });

  for (const [entry, { module, page, runtimeNames }] of Object.entries(ENTRY_POINTS)) {
    it(`tdd-agent/${entry} exports ${runtimeNames} runtime names, the number and the names its page (${page}) gives`, () => {
      const names = Object.keys(module).sort();
      assert.equal(
        names.length,
        runtimeNames,
        `tdd-agent/${entry} now exports ${names.length} runtime names: if that is on purpose, update ENTRY_POINTS here, ` +
          `${page} and the report (npm run api:update)`,
      );
      const text = read(page);
      assert.match(text, new RegExp(`\\*\\*${runtimeNames} runtime names\\*\\*`), `${page} states the count`);
      const unlisted = names.filter((name) => !text.includes(`\`${name}\``));
      assert.deepEqual(unlisted, [], `names ${page} does not list`);
      const row = read('docs/api-core.md')
        .split('\n')
        .find((line) => line.startsWith(`| \`tdd-agent/${entry}\` |`));
      assert.equal(row?.split('|')[3]?.trim(), String(runtimeNames), `the table of entry points in docs/api-core.md`);
    });
  }

  it('the three entry points share no runtime name (each name has one home)', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [entry, { module }] of Object.entries(ENTRY_POINTS)) {
      for (const name of Object.keys(module)) {
        if (seen.has(name)) twice.push(`${name}: ${seen.get(name)} and ${entry}`);
        seen.set(name, entry);
      }
    }
    assert.deepEqual(twice, []);
  });

  it('package.json, tsconfig paths, typedoc and api-extractor name the same entry points', () => {
    const pkg = JSON.parse(read('package.json')) as { exports: Record<string, { types?: string }> };
    const tsconfig = read('tsconfig.json');
    const typedoc = read('typedoc.json');
    for (const [entry, { source, types }] of Object.entries(ENTRY_POINTS)) {
      assert.equal(pkg.exports[`./${entry}`]?.types, `./dist/types/core/${types}.d.ts`, `package.json exports ./${entry}`);
      assert.ok(tsconfig.includes(`"tdd-agent/${entry}": ["./${source}"]`), `tsconfig.json paths: tdd-agent/${entry}`);
      assert.ok(typedoc.includes(`"${source}"`), `typedoc.json entryPoints: ${source}`);
      assert.ok(
        read(`api/${entry}.api-extractor.json`).includes(`/dist/types/core/${types}.d.ts`),
        `api/${entry}.api-extractor.json`,
      );
    }
    assert.deepEqual(Object.keys(pkg.exports).sort(), ['./core', './package.json', './tdd', './testing']);
  });
});
