import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as core from '../../src/core';
import * as tdd from '../../src/core/tddApi';

const ROOT = join(__dirname, '..', '..');

/** Every value (not `type`) name imported from `tdd-agent/core` in `source`. */
function importedNames(source: string): string[] {
  return [...source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'tdd-agent\/core'/g)].flatMap((m) =>
    m[1]!
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name && !name.startsWith('type ')),
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
  return files.map((file) => ({ file, source: readFileSync(join(ROOT, file), 'utf8') }));
}

// The public barrel (`tdd-agent/core` = src/core/index.ts) as a person imports it: every name the examples and
// the docs import from it is there, and is a real value. (The examples run as programs in the integration tier;
// this is the barrel itself, in process.)
describe('the public API: tdd-agent/core', () => {
  it('exports every name the examples, the README and docs/ import from it', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const { file, source } of showcases()) {
      for (const name of importedNames(source)) {
        checked++;
        if ((core as Record<string, unknown>)[name] === undefined) missing.push(`${file}: ${name}`);
      }
    }
    assert.ok(checked >= 20, `only ${checked} imports found: the pattern no longer matches the examples`);
    assert.deepEqual(missing, []);
  });

  it('the entry points a session needs are functions and classes', () => {
    for (const name of ['createAgentRuntime', 'createOpenAIClient', 'QAAgent', 'CoTAgent', 'ReActAgent']) {
      assert.equal(typeof (core as Record<string, unknown>)[name], 'function', name);
    }
    assert.equal(typeof tdd.runKataSession, 'function');
  });
});
