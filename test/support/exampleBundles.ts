/**
 * The programs in examples/, compiled once per test run so each example test starts plain `node` instead of
 * `node --import tsx` (≈ 0.5 CPU-seconds against ≈ 2: tsx's loader thread and its transform of every core file,
 * in each of a dozen example runs). It is the transform tsx applies (esbuild, the repository's tsconfig, so
 * `tdd-agent/core` is the core's sources), bundled into one CommonJS file per example; the packages stay in
 * node_modules. `__dirname` is the examples folder, as it is under tsx: json-agent.ts finds its agent
 * config there, and the core finds `config/agents` and `katas/` walking up from it.
 *
 * Built once per test run (buildOnce.ts), like the CLI bundle.
 */
import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import { buildOncePerRun } from './buildOnce';

const ROOT = join(__dirname, '..', '..');
const EXAMPLES = join(ROOT, 'examples');
/** Inside node_modules, so the bundles resolve the packages they leave out from the project's node_modules. */
export const EXAMPLE_BUNDLES = join(ROOT, 'node_modules', '.cache', 'tdd-agent-tests', 'examples');

/** The bundle of `examples/<file>` (`qa.ts` → `…/qa.cjs`). */
export function exampleBundle(file: string): string {
  return join(EXAMPLE_BUNDLES, file.replace(/\.ts$/, '.cjs'));
}

/** Compiles every examples/*.ts (esbuild, well under a second), unless this test run did already. */
export function ensureExampleBundles(): Promise<void> {
  return buildOncePerRun('TDD_AGENT_TEST_EXAMPLES_BUILT', async () => {
    // Imported here: every worker loads the global fixture's file (mocha's `require`), but only the main process builds.
    const { build } = await import('esbuild');
    await build({
      entryPoints: readdirSync(EXAMPLES)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => join(EXAMPLES, f)),
      outdir: EXAMPLE_BUNDLES,
      outExtension: { '.js': '.cjs' },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      packages: 'external',
      tsconfig: join(ROOT, 'tsconfig.json'),
      define: { __dirname: JSON.stringify(EXAMPLES) },
      logLevel: 'error',
    });
  });
}
