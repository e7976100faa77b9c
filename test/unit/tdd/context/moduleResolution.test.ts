import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { exportedSymbols } from '../../../../src/core/tdd/context/exportedSymbols';
import { importStatements, resolvedImports } from '../../../../src/core/tdd/context/importedFiles';
import { ModuleResolver, readProjectManifests } from '../../../../src/core/tdd/context/moduleResolution';
import { listWorkspaceFiles } from '../../../../src/core/tdd/context/workspaceSnapshot';

const json = (value: unknown) => JSON.stringify(value, null, 2);

// Issue 35: the code a test reaches, resolved as its runtime resolves it, from real files in a temp folder: what the
// role that edits it next is shown whole.
describe('role context: the files an import reaches, resolved as the runtime does', () => {
  const roots: string[] = [];
  after(() => Promise.all(roots.map((r) => rm(r, { recursive: true, force: true }))));

  /** Writes `files` into a fresh folder; returns what `from`'s imports resolve to (sorted), names dropped. */
  async function reached(files: Record<string, string>, from: string): Promise<string[]> {
    return (await resolved(files, from)).map((r) => r.file).sort();
  }

  async function resolved(files: Record<string, string>, from: string) {
    const root = await mkdtemp(join(tmpdir(), 'module-resolution-'));
    roots.push(root);
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
    const paths = (await listWorkspaceFiles(root)).map((f) => f.path);
    const resolver = new ModuleResolver(new Set(paths), await readProjectManifests(root, paths));
    return resolvedImports(from, files[from]!, resolver);
  }

  describe('JavaScript and TypeScript', () => {
    it("require('..') reaches the root file package.json's main names", async () => {
      const files = {
        'package.json': json({ name: 'duration-lite', main: 'index.js' }),
        'index.js': 'module.exports = { parse };\n',
        'test/parse.test.js': "const { parse } = require('..');\n",
      };
      assert.deepEqual(await reached(files, 'test/parse.test.js'), ['index.js']);
      // main without its extension, and main naming a folder (its index file)
      assert.deepEqual(
        await reached({ ...files, 'package.json': json({ main: './lib/main' }), 'lib/main.js': '' }, 'test/parse.test.js'),
        ['lib/main.js'],
      );
      assert.deepEqual(
        await reached({ ...files, 'package.json': json({ main: 'lib' }), 'lib/index.js': '' }, 'test/parse.test.js'),
        ['lib/index.js'],
      );
    });

    it("require('..') with no main reaches the root's index file; require('.') the folder's own", async () => {
      assert.deepEqual(
        await reached(
          { 'package.json': json({ name: 'x' }), 'index.js': '', 'test/a.test.js': "const x = require('..');\n" },
          'test/a.test.js',
        ),
        ['index.js'],
      );
      assert.deepEqual(await reached({ 'lib/index.mjs': '', 'lib/a.mjs': "import { b } from '.';\n" }, 'lib/a.mjs'), [
        'lib/index.mjs',
      ]);
    });

    it("require('../lib') reaches lib/index.js, or what lib/package.json's main names", async () => {
      const files = { 'lib/index.js': '', 'lib/core.js': '', 'test/a.test.js': "const lib = require('../lib');\n" };
      assert.deepEqual(await reached(files, 'test/a.test.js'), ['lib/index.js']);
      assert.deepEqual(await reached({ ...files, 'lib/package.json': json({ main: 'core.js' }) }, 'test/a.test.js'), [
        'lib/core.js',
      ]);
    });

    it('index files of every extension (index.ts, index.mjs, index.tsx…) stand for their folder', async () => {
      for (const index of ['index.ts', 'index.tsx', 'index.mts', 'index.js', 'index.mjs', 'index.cjs']) {
        assert.deepEqual(
          await reached({ [`src/util/${index}`]: '', 'src/a.test.ts': "import * as util from './util';\n" }, 'src/a.test.ts'),
          [`src/util/${index}`],
          index,
        );
      }
    });

    it('extensionless imports, and .js/.mjs/.cjs/.jsx imports of their TypeScript sources', async () => {
      const files = {
        'src/units.ts': '',
        'src/rate.mts': '',
        'src/old.cts': '',
        'src/view.tsx': '',
        'src/plain.js': '',
        'src/a.test.ts': [
          "import { unitFor } from './units';",
          "import { rate } from './rate.mjs';",
          "import old = require('./old.cjs');",
          "import { View } from './view.jsx';",
          "import { plain } from './plain.js';",
          "import { gone } from './gone.js';",
          '',
        ].join('\n'),
      };
      assert.deepEqual(await reached(files, 'src/a.test.ts'), [
        'src/old.cts',
        'src/plain.js',
        'src/rate.mts',
        'src/units.ts',
        'src/view.tsx',
      ]);
    });

    it("a package's exports: a string, conditions in the package's order, subpaths and * patterns, by the package's own name", async () => {
      const base = {
        'package.json': json({
          name: '@acme/kit',
          exports: {
            '.': { types: './types/index.d.ts', import: './esm/index.mjs', require: './cjs/index.cjs' },
            './strings': './src/strings.js',
            './utils/*': './src/utils/*.js',
            './package.json': './package.json',
          },
        }),
        'esm/index.mjs': '',
        'cjs/index.cjs': '',
        'src/strings.js': '',
        'src/utils/pad.js': '',
        'test/a.test.js': [
          "import kit from '@acme/kit';",
          "import { upper } from '@acme/kit/strings';",
          "import { pad } from '@acme/kit/utils/pad';",
          "import other from '@acme/other';",
          '',
        ].join('\n'),
      };
      assert.deepEqual(await reached(base, 'test/a.test.js'), ['esm/index.mjs', 'src/strings.js', 'src/utils/pad.js']);
      assert.deepEqual(
        await reached({ ...base, 'package.json': json({ name: '@acme/kit', exports: './src/strings.js' }) }, 'test/a.test.js'),
        ['src/strings.js'],
        'a string exports is the package itself; its subpaths are not exported',
      );
    });

    it('a built file that is not in the workspace stands for its source: outDir → rootDir, types → sources', async () => {
      const files = {
        'package.json': json({ name: 'bytesize-kit', main: './dist/index.js', exports: { '.': { types: './dist/index.d.ts' } } }),
        'tsconfig.json': '{\n  // built by tsc\n  "compilerOptions": { "outDir": "dist", "rootDir": "src", },\n}\n',
        'src/index.ts': '',
        'test/a.test.ts': "import { formatBytes } from 'bytesize-kit';\nconst lib = require('..');\n",
      };
      assert.deepEqual(await reached(files, 'test/a.test.ts'), ['src/index.ts']);
    });

    it('a package of a monorepo by its name: its exports, else its main, else its index', async () => {
      const files = {
        'packages/width/package.json': json({ name: '@textkit/width', exports: './src/index.ts' }),
        'packages/width/src/index.ts': '',
        'packages/pad/package.json': json({ name: 'pad-kit', main: 'lib/pad.js' }),
        'packages/pad/lib/pad.js': '',
        'packages/plain/package.json': json({ name: 'plain-kit' }),
        'packages/plain/index.js': '',
        'packages/table/src/table.ts':
          "import { displayWidth } from '@textkit/width';\nimport pad from 'pad-kit';\nimport plain from 'plain-kit';\nimport stripAnsi from 'strip-ansi';\n",
      };
      assert.deepEqual(await reached(files, 'packages/table/src/table.ts'), [
        'packages/pad/lib/pad.js',
        'packages/plain/index.js',
        'packages/width/src/index.ts',
      ]);
    });

    it("tsconfig's paths (with *, against baseUrl or the config's folder) and baseUrl, an extended config's included", async () => {
      const files = {
        'tsconfig.base.json': json({
          compilerOptions: { baseUrl: '.', paths: { '@/*': ['src/*'], '#config': ['config/index.ts'] } },
        }),
        'tsconfig.json': json({ extends: './tsconfig.base.json', compilerOptions: { strict: true } }),
        'src/util/strings.ts': '',
        'src/lib/math.ts': '',
        'config/index.ts': '',
        'test/a.test.ts':
          "import { upper } from '@/util/strings';\nimport config from '#config';\nimport { add } from 'src/lib/math';\nimport { z } from 'zod';\n",
      };
      assert.deepEqual(await reached(files, 'test/a.test.ts'), ['config/index.ts', 'src/lib/math.ts', 'src/util/strings.ts']);
      // paths without baseUrl are relative to the config's folder; jsconfig.json reads the same; the nearest config wins
      assert.deepEqual(
        await reached(
          {
            'app/jsconfig.json': json({ compilerOptions: { paths: { '~/*': ['./lib/*'] } } }),
            'app/lib/db.js': '',
            'app/test/db.test.js': "import { open } from '~/db';\n",
          },
          'app/test/db.test.js',
        ),
        ['app/lib/db.js'],
      );
    });

    it('installed packages, builtins and paths out of the workspace reach nothing', async () => {
      assert.deepEqual(
        await reached(
          {
            'src/a.js':
              "import fs from 'node:fs';\nimport path from 'path';\nimport x from 'lodash';\nimport y from '../../outside.js';\n",
          },
          'src/a.js',
        ),
        [],
      );
    });

    it('reads the names each import takes (ESM, CommonJS, re-exports), and a namespace as the module whole', () => {
      const text = [
        "import def, { a, b as c, type T } from './one.js';",
        "import * as ns from './two.js';",
        "import './three.js';",
        "export { d, e as f } from './four.js';",
        "export * from './five.js';",
        "const { g, h: i } = require('./six');",
        "const seven = require('./seven');",
        "const k = require('./eight').k;",
        "const nine = await import('./nine.js');",
        '',
      ].join('\n');
      assert.deepEqual(importStatements('src/x.ts', text), [
        { specifier: './one.js', names: ['default', 'a', 'b', 'T'] },
        { specifier: './two.js' },
        { specifier: './three.js' },
        { specifier: './four.js', names: ['d', 'e'] },
        { specifier: './five.js' },
        { specifier: './six', names: ['g', 'h'] },
        { specifier: './seven' },
        { specifier: './eight', names: ['k'] },
        { specifier: './nine.js' },
      ]);
    });
  });

  // Generated code is hostile: a 250 KB file built to make an unbounded pattern quadratic is read in one pass (before
  // the bounds, 'import a' 25,000 times took 34 s, unclosed `export {` 28,000 times 10 s).
  it('reads the imports and exports of files built against its patterns: never stuck', () => {
    assert.deepEqual(importStatements('a.ts', 'import a\n'.repeat(25_000)), []);
    assert.deepEqual(importStatements('a.ts', 'export * as x\n'.repeat(18_000)), []);
    assert.deepEqual(importStatements('a.js', 'const { a = require\n'.repeat(12_000)), []);
    assert.deepEqual(importStatements('a.py', 'from x import (a\n'.repeat(15_000)).length, 1);
    assert.deepEqual(exportedSymbols('a.js', 'export {\n'.repeat(28_000)), []);
    assert.deepEqual(exportedSymbols('a.js', 'module.exports = {\n'.repeat(13_000)), []);
  });

  describe('Python', () => {
    const textkit = {
      'src/textkit/__init__.py': 'from .core import (\n    slugify,\n    truncate,  # cut\n)\nfrom .markup import escape_html\n',
      'src/textkit/core.py': 'def slugify(text):\n    pass\n',
      'src/textkit/markup.py': 'def escape_html(text):\n    pass\n',
      'src/textkit/util/__init__.py': '',
      'src/textkit/util/words.py': 'from .. import core\nfrom ..core import slugify\nfrom . import helpers\n',
      'src/textkit/util/helpers.py': '',
    };

    it('from pkg import x: the package’s __init__.py, from the root or the src layout; a submodule by its name', async () => {
      assert.deepEqual(
        await reached({ ...textkit, 'tests/test_core.py': 'from textkit import slugify, core\n' }, 'tests/test_core.py'),
        ['src/textkit/__init__.py', 'src/textkit/core.py'],
      );
      assert.deepEqual(
        await reached(
          { 'dateslice/__init__.py': '', 'tests/test_a.py': 'from dateslice import add_months\n' },
          'tests/test_a.py',
        ),
        ['dateslice/__init__.py'],
      );
    });

    it('import pkg.mod (as m) reaches the module; from pkg.mod import x too', async () => {
      const files = {
        ...textkit,
        'tests/test_a.py':
          'import textkit.core as core\nimport textkit.util.words, json\nfrom textkit.markup import escape_html\n',
      };
      assert.deepEqual(await reached(files, 'tests/test_a.py'), [
        'src/textkit/core.py',
        'src/textkit/markup.py',
        'src/textkit/util/words.py',
      ]);
    });

    it('relative imports from the file’s package: from .core, from .. import, from . import', async () => {
      assert.deepEqual(await reached(textkit, 'src/textkit/__init__.py'), ['src/textkit/core.py', 'src/textkit/markup.py']);
      assert.deepEqual(await reached(textkit, 'src/textkit/util/words.py'), [
        'src/textkit/__init__.py',
        'src/textkit/core.py',
        'src/textkit/util/__init__.py',
        'src/textkit/util/helpers.py',
      ]);
    });

    it("a test's own folder is on sys.path unless it is a package (pytest's rootdir insertion)", async () => {
      const files = { 'tests/helpers.py': '', 'tests/test_a.py': 'from helpers import make\n' };
      assert.deepEqual(await reached(files, 'tests/test_a.py'), ['tests/helpers.py']);
      assert.deepEqual(await reached({ ...files, 'tests/__init__.py': '' }, 'tests/test_a.py'), []);
    });

    it("the roots pyproject.toml and pytest.ini name (pytest's pythonpath, setuptools' where)", async () => {
      const test = { 'tests/test_a.py': 'from verbump import bump\n', 'lib/verbump/__init__.py': '' };
      assert.deepEqual(await reached(test, 'tests/test_a.py'), []);
      assert.deepEqual(
        await reached({ ...test, 'pyproject.toml': '[tool.pytest.ini_options]\npythonpath = ["lib"]\n' }, 'tests/test_a.py'),
        ['lib/verbump/__init__.py'],
      );
      assert.deepEqual(
        await reached({ ...test, 'pyproject.toml': '[tool.setuptools.packages.find]\nwhere = ["lib"]\n' }, 'tests/test_a.py'),
        ['lib/verbump/__init__.py'],
      );
      assert.deepEqual(await reached({ ...test, 'pytest.ini': '[pytest]\npythonpath = lib\n' }, 'tests/test_a.py'), [
        'lib/verbump/__init__.py',
      ]);
    });

    it('reads the names of a parenthesised, commented, multi-line import, and * as the module whole', async () => {
      assert.deepEqual(await resolved(textkit, 'src/textkit/__init__.py'), [
        { file: 'src/textkit/core.py', names: ['slugify', 'truncate'] },
        { file: 'src/textkit/markup.py', names: ['escape_html'] },
      ]);
      assert.deepEqual(importStatements('a.py', 'from .core import *\nimport os.path as p, sys\n'), [
        { specifier: '.core' },
        { specifier: 'os.path' },
        { specifier: 'sys' },
      ]);
    });
  });
});
