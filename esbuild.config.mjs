// Builds the bundles: the extension host (cjs, `vscode` external), the panel (browser), the CLI, and the
// core as a library (`tdd-agent/core`, ESM and CJS, dependencies left to npm).
// `--production` minifies; every build writes source maps.
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

const common = {
  bundle: true,
  sourcemap: true,
  minify: production,
  logLevel: 'info',
  legalComments: 'none',
};

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
  ...['cjs', 'esm'].map((format) => ({
    ...common,
    name: 'lib',
    entryPoints: ['src/core/index.ts'],
    outfile: `dist/core/index.${format === 'esm' ? 'mjs' : 'cjs'}`,
    platform: 'node',
    format,
    target: 'node20',
    packages: 'external',
    minify: false,
    // The core finds its bundled katas and agent configs from its own folder.
    ...(format === 'esm'
      ? {
          banner: {
            js: "import { fileURLToPath as __tddFileURL } from 'node:url'; import { dirname as __tddDirname } from 'node:path'; const __filename = __tddFileURL(import.meta.url); const __dirname = __tddDirname(__filename);",
          },
        }
      : {}),
  })),
];
// The tokenizer bundle goes with the host and the CLI, which load it.
const wanted = (name) =>
  !only || only.includes(name) || (name === 'tokenizer' && (only.includes('cli') || only.includes('extension')));
const builds = all.filter((b) => wanted(b.name)).map(({ name: _name, ...options }) => options);

if (watch) {
  for (const options of builds) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  }
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
