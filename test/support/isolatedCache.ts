import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Loaded by mocha before any test (.mocharc.json `require`): session worktrees go to a temp folder of this
// run instead of the machine's cache folder, and are removed with it.
const cache = mkdtempSync(join(tmpdir(), 'tdd-agent-cache-'));
process.env.TDD_AGENT_CACHE_DIR = cache;

/** Root hooks: remove the run's cache folder at the end. */
export const mochaHooks = {
  afterAll(): void {
    rmSync(cache, { recursive: true, force: true });
  },
};
