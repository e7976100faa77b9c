/**
 * The CLI bundle (`dist/cli.js`) the tests that start the built binary run. `npm test` and
 * `npm run test:integration` build it once, in mocha's main process before any worker starts
 * (`mochaGlobalSetup`, this file is in their `require`), and say so to the workers in the environment; a
 * focused run of one file builds it in that file's `before` hook. Building once also means no test rewrites
 * the bundle while another worker is starting it.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { toolEnv } from './toolEnv';

const ROOT = join(__dirname, '..', '..');
const BUILT = 'TDD_AGENT_TEST_CLI_BUILT';

/** Builds `dist/cli.js` (esbuild, about a second), unless this test run built it already. */
export async function ensureCliBundle(): Promise<void> {
  if (process.env[BUILT] === '1') return;
  await promisify(execFile)(process.execPath, ['esbuild.config.mjs', '--only=cli'], { cwd: ROOT, env: toolEnv() });
  process.env[BUILT] = '1';
}

/** Mocha global fixture: runs once in the main process, before the parallel workers (which inherit the variable). */
export async function mochaGlobalSetup(): Promise<void> {
  await ensureCliBundle();
}
