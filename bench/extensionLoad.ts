/**
 * What VS Code pays before `activate()` runs: evaluating `dist/extension.js`, compared in the same run
 * with `dist/extensionHost.js` (the host and core, loaded on first use; before the split, this was all in
 * the entry bundle). Each sample is a fresh Node process that requires a bundle with a stub `vscode`
 * module, alternating the two. Run after a production build: `npm run build && npx tsx bench/extensionLoad.ts [samples]`.
 */
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';

const samples = Number(process.argv[2] ?? 15);
const probe = (bundle: string): string => `
const Module = require('module');
const load = Module._load;
Module._load = function (request, ...rest) { return request === 'vscode' ? {} : load.call(this, request, ...rest); };
const start = process.hrtime.bigint();
require(${JSON.stringify(bundle)});
process.stdout.write(String(Number(process.hrtime.bigint() - start) / 1e6));
`;

function loadTime(bundle: string): number {
  return Number(execFileSync(process.execPath, ['-e', probe(bundle)], { encoding: 'utf8' }));
}

const bundles = ['extension.js', 'extensionHost.js'].map((name) => resolve(__dirname, '..', 'dist', name));
const times: number[][] = bundles.map(() => []);
for (let i = 0; i < samples; i++) bundles.forEach((bundle, b) => times[b]!.push(loadTime(bundle)));

bundles.forEach((bundle, b) => {
  const sorted = times[b]!.sort((x, y) => x - y);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  process.stdout.write(
    `${bundle.slice(bundle.lastIndexOf('dist'))} (${(statSync(bundle).size / 1024).toFixed(1)} KB): load median ${median.toFixed(2)} ms, min ${sorted[0]!.toFixed(2)}, max ${sorted.at(-1)!.toFixed(2)} over ${samples} fresh processes (Node ${process.version})\n`,
  );
});
