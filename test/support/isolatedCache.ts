import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import './pytestWithoutPlugins';
import './quickNodeStart';
import './workerCoverage';

// Loaded by mocha before any test (`require` in .mocharc*.json; in `--parallel` runs, once in every worker):
// session worktrees go to a temp folder of this process instead of the machine's cache folder, and are
// removed with it. Each worker has its own folder, so parallel files never share one.
const cache = mkdtempSync(join(tmpdir(), 'tdd-agent-cache-'));
process.env.TDD_AGENT_CACHE_DIR = cache;

/**
 * Root hooks. A serial run calls them once; a parallel run calls them around every file its worker takes,
 * so the folder is made again before the next file of the same worker and removed after each.
 */
export const mochaHooks = {
  beforeAll(): void {
    mkdirSync(cache, { recursive: true });
    process.env.TDD_AGENT_CACHE_DIR = cache;
  },
  afterAll(): void {
    rmSync(cache, { recursive: true, force: true });
  },
};
