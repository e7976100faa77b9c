/**
 * What the extension's kata specs share: a git workspace holding the FizzBuzz kata, code-server with the
 * extension pointed at the loopback model server, and a loop that answers approval cards in the panel.
 * (Not a spec itself: run.sh only runs `*.e2e.ts`.)
 */
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Frame, Locator, Page } from 'playwright-core';
import { simpleGit } from 'simple-git';
import { startOpenAIServer, type OpenAITestServer } from '../support/openaiServer';
import { REPO_ROOT, launchBrowser, openWorkbench, screenshot, startCodeServer, type CodeServerHandle } from './lib';

/** The extension's id (publisher.name). */
export const EXTENSION_ID = 'tdd-agent.tdd-agent';
/** The unpacked extension under test: the repository (built by run.sh), or E2E_EXTENSION_DIR (e.g. an unzipped .vsix). */
export const EXTENSION_DIR = process.env.E2E_EXTENSION_DIR ?? REPO_ROOT;
/** A git identity for the workspace's commits and the session's. */
export const GIT_ENV = {
  GIT_AUTHOR_NAME: 'E2E Person',
  GIT_AUTHOR_EMAIL: 'e2e@example.invalid',
  GIT_COMMITTER_NAME: 'E2E Person',
  GIT_COMMITTER_EMAIL: 'e2e@example.invalid',
};

/** A git repository holding only the FizzBuzz kata, committed on `main`. */
export async function kataWorkspace(): Promise<string> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'e2e-kata-ws-'));
  await fsp.copyFile(path.join(REPO_ROOT, 'katas', 'fizzbuzz.md'), path.join(dir, 'fizzbuzz.kata.md'));
  const git = simpleGit(dir);
  await git.init(['--initial-branch=main']);
  await git.addConfig('user.name', GIT_ENV.GIT_AUTHOR_NAME).addConfig('user.email', GIT_ENV.GIT_AUTHOR_EMAIL);
  await git.add('.').commit('kata: FizzBuzz');
  return dir;
}

/**
 * Clicks "Always allow" on every approval card that shows up until the session header says the session
 * ended; `onTick` runs on each round (e.g. to read the status bar). Resolves to the final status text.
 */
export async function alwaysAllowUntilFinished(
  panel: Frame,
  onTick?: () => Promise<void>,
  timeoutMs = 240_000,
  onCard?: (card: Locator) => Promise<void>,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = (
      await panel
        .locator('#session-status')
        .innerText()
        .catch(() => '')
    ).trim();
    if (/Completed|Max cycles|Failed|Cancelled/.test(status)) return status;
    if (Date.now() > deadline) throw new Error(`the session did not finish in time (status "${status}")`);
    const pending = panel.locator('.approval-card button[data-decision="always"]:not([disabled])').first();
    if (await pending.isVisible().catch(() => false)) {
      if (onCard) await onCard(panel.locator('.approval-card:not(.is-settled)').first()).catch(() => undefined);
      await pending.click().catch(() => undefined);
    }
    await onTick?.();
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** The branches of the session (`tdd/…`) in the workspace's repository. */
export async function sessionBranches(workspace: string): Promise<string[]> {
  return (await simpleGit(workspace).branchLocal()).all.filter((b) => b.startsWith('tdd/'));
}

/** What one describe block's hooks set up: the loopback model, code-server with the extension, and a page on it. */
export interface Workbench {
  model: OpenAITestServer;
  server: CodeServerHandle;
  page: Page;
  workspace: string;
  /** Where session worktrees go (TDD_AGENT_CACHE_DIR of the extension host), removed afterwards. */
  cacheDir: string;
}

/**
 * Registers before/afterEach/after hooks that start the loopback model server, a workspace (the kata's unless
 * `makeWorkspace` makes another) and
 * code-server with the extension (settings pointing it at the model, `extraEnv` for its extension host),
 * open the workbench in Chromium, screenshot failures, and tear everything down. Returns the live
 * objects (filled in by `before`).
 */
export function useWorkbench(
  label: string,
  extraSettings: Record<string, unknown>,
  prepare?: (workspace: string) => Promise<void>,
  extraEnv: NodeJS.ProcessEnv = {},
  makeWorkspace: () => Promise<string> = kataWorkspace,
): Workbench {
  const live = {} as Workbench;
  let browser: Browser | undefined;
  before(async function () {
    live.model = await startOpenAIServer({ models: ['test-model'], ollama: false });
    live.workspace = await makeWorkspace();
    live.cacheDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'e2e-tdd-cache-'));
    await prepare?.(live.workspace);
    live.server = await startCodeServer({
      extensionDirs: [EXTENSION_DIR],
      workspace: live.workspace,
      label,
      env: {
        ...GIT_ENV,
        OPENAI_API_KEY: '',
        OPENAI_BASE_URL: '',
        OLLAMA_HOST: '',
        TDD_AGENT_CACHE_DIR: live.cacheDir,
        ...extraEnv,
      },
      settings: {
        'tddAgent.provider': 'openai',
        'tddAgent.baseUrl': live.model.baseURL,
        'tddAgent.model': 'test-model',
        'git.enabled': false,
        ...extraSettings,
      },
    });
    browser = await launchBrowser();
    live.page = await browser.newPage({ viewport: { width: 1500, height: 950 } });
    await openWorkbench(live.page, live.server.url);
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && live.page) {
      await screenshot(live.page, `${label}-failed-${this.currentTest.title}`).catch(() => undefined);
    }
  });
  after(async function () {
    await browser?.close().catch(() => undefined);
    await live.server?.stop();
    await live.model?.close();
    if (live.workspace) await fsp.rm(live.workspace, { recursive: true, force: true });
    if (live.cacheDir) await fsp.rm(live.cacheDir, { recursive: true, force: true });
  });
  return live;
}
