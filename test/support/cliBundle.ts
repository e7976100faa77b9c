/** The CLI bundle (`dist/cli.js`) the tests that start the built binary run, built once per test run (buildOnce.ts). */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildOncePerRun } from './buildOnce';
import { toolEnv } from './toolEnv';

const ROOT = join(__dirname, '..', '..');

/** Builds `dist/cli.js` (esbuild, about a second), unless this test run built it already. */
export function ensureCliBundle(): Promise<void> {
  return buildOncePerRun('TDD_AGENT_TEST_CLI_BUILT', () =>
    promisify(execFile)(process.execPath, ['esbuild.config.mjs', '--only=cli'], { cwd: ROOT, env: toolEnv() }),
  );
}
