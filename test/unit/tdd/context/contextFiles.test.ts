import { strict as assert } from 'node:assert';
import { isLockFile, isProjectCode } from '../../../../src/core/tdd/context/codeFiles';
import { exportedSymbols, mapEntry } from '../../../../src/core/tdd/context/exportedSymbols';
import { importedFiles } from '../../../../src/core/tdd/context/importedFiles';
import { ModuleResolver } from '../../../../src/core/tdd/context/moduleResolution';
import { testTitlesIn } from '../../../../src/core/testRunners/testTitles';

const files = (...paths: string[]) => new Set(paths);

describe('role context: which files are code, what they import and export', () => {
  it('code is source by extension, outside docs, examples, CI and editor folders, and not a tool config', () => {
    for (const path of [
      'src/a.ts',
      'lib/b.mjs',
      'src/verbump/bump.py',
      'tests/test_bump.py',
      '__tests__/x.test.js',
      'conftest.py',
    ])
      assert.ok(isProjectCode(path), path);
    for (const path of [
      'docs/conf.py',
      'docs/Makefile',
      'README.md',
      'LICENSE',
      '.github/workflows/ci.yml',
      'vitest.config.ts',
      'setup.py',
      'examples/demo.js',
      'package.json',
    ])
      assert.ok(!isProjectCode(path), path);
    assert.ok(isLockFile('pnpm-lock.yaml') && isLockFile('sub/package-lock.json') && !isLockFile('lock.ts'));
  });

  it('follows relative JS/TS imports, with .js standing for .ts and folders for their index', () => {
    const all = files('src/units.ts', 'src/parse.ts', 'src/lib/index.ts', 'src/helper.js', 'test/x.test.ts');
    const test = `import { describe } from 'vitest';\nimport { unitFor } from '../src/units.js';\nimport * as lib from '../src/lib';\nconst h = require('../src/helper');\nexport { parse } from "../src/parse";\n`;
    assert.deepEqual(importedFiles('test/x.test.ts', test, new ModuleResolver(all)).sort(), [
      'src/helper.js',
      'src/lib/index.ts',
      'src/parse.ts',
      'src/units.ts',
    ]);
    assert.deepEqual(
      importedFiles('src/units.ts', "import fs from 'node:fs';\nimport x from 'lodash';\n", new ModuleResolver(all)),
      [],
      'packages are not project files',
    );
  });

  it('resolves Python modules from the root and from src/, relative imports and submodules imported by name', () => {
    const all = files(
      'src/verbump/__init__.py',
      'src/verbump/bump.py',
      'src/verbump/cli.py',
      'src/verbump/util.py',
      'tests/test_bump.py',
      'app.py',
    );
    assert.deepEqual(
      importedFiles(
        'tests/test_bump.py',
        'import pytest\n\nfrom verbump import Part, bump\nimport app\n',
        new ModuleResolver(all),
      ).sort(),
      ['app.py', 'src/verbump/__init__.py', 'src/verbump/bump.py'],
    );
    assert.deepEqual(
      importedFiles('src/verbump/cli.py', 'from .util import helper\nfrom . import bump\n', new ModuleResolver(all)).sort(),
      ['src/verbump/__init__.py', 'src/verbump/bump.py', 'src/verbump/util.py'],
    );
  });

  it('maps a module by its exported names (ESM, CommonJS, Python public top level) and a test file by its test count', () => {
    assert.deepEqual(
      exportedSymbols(
        'a.ts',
        'export function parse() {}\nexport const A = 1;\nexport default class Thing {}\nexport type T = 1;\nfunction hidden() {}\nexport { x as y, z };\n',
      ),
      ['parse', 'A', 'Thing', 'T', 'y', 'z'],
    );
    assert.deepEqual(
      exportedSymbols('b.js', 'function expand() {}\nmodule.exports = { expand, listReferences: list };\nexports.other = 1;\n'),
      ['expand', 'listReferences', 'other'],
    );
    assert.deepEqual(
      exportedSymbols('c.py', 'def bump(v):\n    def inner(): pass\n\nclass Part:\n    pass\n\ndef _private():\n    pass\n'),
      ['bump', 'Part'],
    );
    assert.equal(
      mapEntry('t.test.ts', "it('one', () => {});\ntest.each([1])('two %s', () => {});\nit('three', () => {});\n", true),
      '2 tests',
    );
  });

  it('reads test titles from source: it/test with their variants in JS/TS, def test_ in Python', () => {
    assert.deepEqual(
      testTitlesIn('x.test.ts', "it('says \\'hi\\'', () => {});\ntest.only(\"second\", () => {});\nit(`third`, () => {});\n"),
      ["says 'hi'", 'second', 'third'],
    );
    assert.deepEqual(
      testTitlesIn('test_x.py', 'def test_one():\n    pass\n\nasync def test_two():\n    pass\n\ndef helper():\n    pass\n'),
      ['test_one', 'test_two'],
    );
  });
});
