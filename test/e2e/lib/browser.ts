/**
 * Launches Debian's headless Chromium through playwright-core (Playwright's own browser downloads are not
 * reachable on these machines).
 */
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';
import * as fs from 'node:fs';
import { CHROMIUM_PATH } from './paths';

/** Flags that keep Chromium quiet and runnable as root in a container. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Launches headless Chromium (`/usr/bin/chromium`, or CHROMIUM_PATH). Set E2E_HEADED=1 to watch it
 * when a display is available.
 * @throws Error naming the installer when the binary is missing.
 */
export async function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `e2e: ${CHROMIUM_PATH} is missing; run \`bash scripts/e2e/install-code-server.sh\` (installs Debian's chromium).`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: !process.env.E2E_HEADED,
    ...options,
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
  });
}
