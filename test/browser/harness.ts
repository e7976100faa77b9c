/**
 * The panel harness: builds the real webview bundle with esbuild, serves it on 127.0.0.1 inside the
 * HTML that `renderPanelHtml` produces (the same document the extension host serves, plus a theme
 * stylesheet and a fake `acquireVsCodeApi`), and drives Debian's Chromium with playwright-core.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { createNonce, PANEL_RESOURCES, renderPanelHtml } from '../../src/shared/panelHtml';
import type { PanelMessage } from '../../src/shared/panelProtocol';

const REPO = path.resolve(__dirname, '../..');

/** Where Debian installs Chromium (`apt-get install -y chromium`); override with CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags that keep headless Chromium quiet and offline on CI machines. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** A running harness: its origin, the browser, and a way to shut everything down. */
export interface PanelHarness {
  origin: string;
  browser: Browser;
  close(): Promise<void>;
}

/** Builds `webview/main.ts` exactly as esbuild.config.mjs does (browser, iife) into `outDir`. */
async function buildBundle(outDir: string): Promise<string> {
  const outfile = path.join(outDir, 'webview.js');
  await esbuild.build({
    entryPoints: [path.join(REPO, 'webview/main.ts')],
    outfile,
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    alias: { entities: path.join(REPO, 'webview/entitiesShim.ts') },
    sourcemap: 'inline',
    logLevel: 'silent',
  });
  return outfile;
}

/** The themes of `test/browser/themes/` (VS Code's Light/Dark Modern and its two high-contrast themes). */
export const THEMES = ['dark', 'light', 'hc-dark', 'hc-light'] as const;
/** One harness theme. */
export type Theme = (typeof THEMES)[number];

/** The harness page: the real panel document with the theme and the fake API inserted. */
function harnessPage(origin: string, requested: string): string {
  const theme = (THEMES as readonly string[]).includes(requested) ? requested : 'dark';
  const nonce = createNonce();
  const html = renderPanelHtml({
    cspSource: origin,
    nonce,
    scriptUri: `${origin}/${PANEL_RESOURCES.script}`,
    styleUri: `${origin}/${PANEL_RESOURCES.style}`,
  });
  const themeLink = `<link rel="stylesheet" href="${origin}/themes/${theme}.css">\n`;
  const fakeApi = `<script nonce="${nonce}" src="${origin}/fake-vscode-api.js"></script>\n`;
  return html
    .replace('<link rel="stylesheet"', `${themeLink}<link rel="stylesheet"`)
    .replace('<script nonce=', `${fakeApi}<script nonce=`);
}

/** Builds the bundle, starts the loopback server and launches headless Chromium. */
export async function startHarness(): Promise<PanelHarness> {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'panel-harness-'));
  const bundle = await buildBundle(outDir);
  const files: Record<string, { file: string; type: string }> = {
    [`/${PANEL_RESOURCES.script}`]: { file: bundle, type: 'text/javascript' },
    [`/${PANEL_RESOURCES.style}`]: { file: path.join(REPO, PANEL_RESOURCES.style), type: 'text/css' },
    ...Object.fromEntries(
      THEMES.map((theme) => [`/themes/${theme}.css`, { file: path.join(__dirname, `themes/${theme}.css`), type: 'text/css' }]),
    ),
    '/fake-vscode-api.js': { file: path.join(__dirname, 'fakeVsCodeApi.js'), type: 'text/javascript' },
  };
  let origin = '';
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin);
    if (url.pathname === '/panel.html') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(harnessPage(origin, url.searchParams.get('theme') ?? 'dark'));
      return;
    }
    const entry = files[url.pathname];
    if (url.pathname === '/favicon.ico') {
      response.writeHead(204).end();
      return;
    }
    if (!entry) {
      response.writeHead(404).end();
      return;
    }
    readFile(entry.file).then(
      (body) => response.writeHead(200, { 'content-type': entry.type, 'cache-control': 'no-store' }).end(body),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  } catch (error) {
    server.close();
    await rm(outDir, { recursive: true, force: true });
    throw new Error(
      `Could not start Chromium at ${CHROMIUM_PATH} (install it with: apt-get install -y chromium): ${String(error)}`,
      { cause: error },
    );
  }
  return {
    origin,
    browser,
    async close() {
      await browser.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(outDir, { recursive: true, force: true });
    },
  };
}

// The root tsconfig has no DOM lib, so code run in the page reads globals through this shape.
// (page.evaluate also takes expression strings; waitForFunction cannot — the CSP forbids eval.)
/** The page globals the tests read: the fake host's records and a little of the DOM. */
export interface PageGlobals {
  __panelTest: { posted: unknown[]; cspViolations: string[] };
  document: { querySelector(selector: string): { textContent: string | null } | null };
}

/** Sends a host message to the panel the way VS Code delivers it (a window `message` event). */
export async function sendToPanel(page: Page, message: unknown): Promise<void> {
  await page.evaluate(`window.postMessage(${JSON.stringify(message)}, '*')`);
}

/** Everything the panel posted to the (fake) host so far. */
export async function postedMessages(page: Page): Promise<PanelMessage[]> {
  return (await page.evaluate('window.__panelTest.posted.slice()')) as PanelMessage[];
}

/** CSP violations the page reported. */
export async function cspViolations(page: Page): Promise<string[]> {
  return (await page.evaluate('window.__panelTest.cspViolations.slice()')) as string[];
}

/** Waits until the panel has posted `count` messages (the fake host records them synchronously). */
export async function waitForPosted(page: Page, count: number): Promise<PanelMessage[]> {
  await page.waitForFunction((n) => (globalThis as unknown as PageGlobals).__panelTest.posted.length >= n, count);
  return postedMessages(page);
}

/**
 * A new page on the panel, loaded and ready (its `ready` posted), in a browser context of its own with `viewport`
 * (and `deviceScaleFactor`) and the theme; with `state`, that snapshot sent to it.
 */
export async function openPanel(
  harness: PanelHarness,
  options: { viewport: { width: number; height: number }; theme?: Theme; deviceScaleFactor?: number; state?: unknown },
): Promise<Page> {
  const context = await harness.browser.newContext({
    viewport: options.viewport,
    ...(options.deviceScaleFactor ? { deviceScaleFactor: options.deviceScaleFactor } : {}),
  });
  const page = await context.newPage();
  await page.goto(`${harness.origin}/panel.html?theme=${options.theme ?? 'dark'}`);
  await waitForPosted(page, 1);
  if (options.state !== undefined) await sendToPanel(page, options.state);
  return page;
}

/**
 * The mocha hooks of a spec of panel pages: one harness for the spec and, after each test, a check that the page it
 * opened saw no Content-Security-Policy violation, then that page's context closed. `open` opens the test's page.
 */
export function usePanelPages(): { open(options: Parameters<typeof openPanel>[1]): Promise<Page> } {
  let harness: PanelHarness | undefined;
  let page: Page | undefined;
  before(async () => {
    harness = await startHarness();
  });
  after(async () => {
    await harness?.close();
  });
  afterEach(async () => {
    const opened = page;
    page = undefined;
    if (!opened) return;
    assert.deepEqual(await cspViolations(opened), [], 'no Content-Security-Policy violations');
    await opened.context().close();
  });
  return { open: async (options) => (page = await openPanel(harness!, options)) };
}

/** Whether a <details> element is open. */
export async function isOpen(details: Locator): Promise<boolean> {
  return (await details.getAttribute('open')) !== null;
}

/** The aria-label of the focused element. */
export async function focusedLabel(page: Page): Promise<string | null> {
  return page.locator(':focus').getAttribute('aria-label');
}
