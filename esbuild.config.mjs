// Builds the bundles: the extension host (cjs, `vscode` external), the panel (browser), the CLI, and the
// library (`tdd-agent/core`, `tdd-agent/tdd`, `tdd-agent/testing`; ESM and CJS, dependencies left to npm).
// `--production` minifies; every build writes source maps.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
// `--only=cli` (or a comma list of extension, webview, cli) builds just those bundles: `npm run demo` needs only the CLI.
const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');

/**
 * The tokenizer's 2.4 MB of ranks (gpt-tokenizer, o200k_base) are their own bundle, `dist/tokenizer.js`, loaded by the
 * host and the CLI on first use (`import()` in llm/tokenCount.ts): parsing them on every host load cost about 130 ms.
 */
const tokenizerOutside = {
  name: 'tokenizer-outside',
  setup(build) {
    build.onResolve({ filter: /^gpt-tokenizer\/encoding\/o200k_base$/ }, () => ({ path: './tokenizer.js', external: true }));
  },
};

/**
 * The library's entry points (package.json `exports`): `tdd-agent/<name>` is built from `source`. Each exports its
 * names one by one; their lists are the public API (api/*.api.md, docs/api-*.md).
 */
const LIBRARY_ENTRY_POINTS = [
  { name: 'core', source: 'src/core/index.ts' },
  { name: 'tdd', source: 'src/core/tddApi.ts' },
  { name: 'testing', source: 'src/core/testingApi.ts' },
];

const common = {
  bundle: true,
  sourcemap: true,
  minify: production,
  logLevel: 'info',
  legalComments: 'none',
};

/** The library builds: Node, dependencies left to npm, readable. */
const lib = { ...common, platform: 'node', target: 'node20', packages: 'external', minify: false };

/** @type {Array<import('esbuild').BuildOptions & { name: string }>} */
const all = [
  {
    ...common,
    name: 'extension',
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // The host (and the whole core under it) is its own bundle, required on first use: VS Code then
    // loads only a few kilobytes before activate() runs.
    external: ['vscode', './extensionHost'],
  },
  {
    ...common,
    name: 'extension',
    entryPoints: ['src/vscode/extensionHost.ts'],
    outfile: 'dist/extensionHost.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [tokenizerOutside],
  },
  {
    ...common,
    name: 'tokenizer',
    entryPoints: ['node_modules/gpt-tokenizer/cjs/encoding/o200k_base.js'],
    outfile: 'dist/tokenizer.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: false,
  },
  {
    ...common,
    name: 'webview',
    entryPoints: ['webview/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    // markdown-it's entity tables (~75 KB) replaced by the browser's own decoder.
    alias: { entities: './webview/entitiesShim.ts' },
    format: 'iife',
    target: 'es2022',
  },
  {
    ...common,
    name: 'cli',
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    define: { TDD_AGENT_VERSION: JSON.stringify(process.env.npm_package_version ?? 'dev') },
    plugins: [tokenizerOutside],
  },
  // The library: one ESM build whose entry points share their code in chunks (dist/lib/), and one CJS bundle of all
  // three (dist/lib/index.cjs) that each entry point's CJS file takes its part of. So `tdd-agent/core` and
  // `tdd-agent/tdd` are one copy of the code: one logger, one secret registry, and `instanceof AgentError` holds for
  // an error either of them throws.
  {
    ...lib,
    name: 'lib',
    entryPoints: Object.fromEntries(LIBRARY_ENTRY_POINTS.map(({ name, source }) => [`${name}/index`, source])),
    outdir: 'dist',
    outExtension: { '.js': '.mjs' },
    chunkNames: 'lib/[name]-[hash]',
    splitting: true,
    format: 'esm',
    // The core finds its bundled katas and agent configs walking up from its own folder.
    banner: {
      js: "import { fileURLToPath as __tddFileURL } from 'node:url'; import { dirname as __tddDirname } from 'node:path'; const __filename = __tddFileURL(import.meta.url); const __dirname = __tddDirname(__filename);",
    },
  },
  {
    ...lib,
    name: 'lib',
    stdin: {
      contents: LIBRARY_ENTRY_POINTS.map(({ name, source }) => `export * as ${name} from './${source}';`).join('\n'),
      resolveDir: '.',
      sourcefile: 'library.ts',
      loader: 'ts',
    },
    outfile: 'dist/lib/index.cjs',
    format: 'cjs',
  },
];
// The tokenizer bundle goes with the host and the CLI, which load it.
const wanted = (name) =>
  !only || only.includes(name) || (name === 'tokenizer' && (only.includes('cli') || only.includes('extension')));
const builds = all.filter((b) => wanted(b.name)).map(({ name: _name, ...options }) => options);

if (wanted('lib')) {
  // The chunks' names change with their contents: last build's must not stay (npm pack would ship them).
  rmSync('dist/lib', { recursive: true, force: true });
  // Each entry point's CJS file is its part of the one CJS bundle.
  for (const { name } of LIBRARY_ENTRY_POINTS) {
    mkdirSync(`dist/${name}`, { recursive: true });
    writeFileSync(
      `dist/${name}/index.cjs`,
      `'use strict';\n// tdd-agent/${name}: its part of the library's one CJS bundle.\nmodule.exports = require('../lib/index.cjs').${name};\n`,
    );
  }
}

if (watch) {
  for (const options of builds) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  }
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
