/**
 * Drives VS Code's workbench (as served by code-server) the way a person does: command palette, status
 * bar, notifications and webview views.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { RESULTS_DIR } from './paths';

/** Default wait for workbench UI to appear. */
const DEFAULT_TIMEOUT_MS = 30_000;

/** Either an exact substring or a pattern. */
export type TextMatcher = string | RegExp;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Opens the workbench at `url` and waits until it is usable: the workbench, its status bar and the
 * explorer of the opened folder are rendered (the extension host starts in parallel; extensions activate
 * lazily on their activation events).
 */
export async function openWorkbench(page: Page, url: string, timeoutMs = 60_000): Promise<void> {
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: timeoutMs });
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: timeoutMs });
  await page.locator('.part.statusbar').waitFor({ state: 'visible', timeout: timeoutMs });
  await page.locator('.part.activitybar, .part.sidebar').first().waitFor({ state: 'visible', timeout: timeoutMs });
  // The explorer of the opened folder shows its tree once the file service and the workspace are ready.
  await page.locator('.explorer-folders-view, .explorer-viewlet').first().waitFor({ state: 'attached', timeout: timeoutMs });
}

/**
 * Runs a command from the palette by its full title as shown there (`Category: Title`): F1, type the
 * title, pick the row whose label is exactly that title. The palette lists the commands known when it
 * opens, and right after the workbench loads the extension host may still be registering contributions,
 * so it reopens the palette until the command shows up or `timeoutMs` passes.
 * @throws Error when no such command is listed in time (e.g. the extension was not loaded: check
 * `engines.vscode` and the exthost log).
 */
export async function runCommand(page: Page, title: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('.quick-input-box input');
  const row = widget
    .locator('.monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(title)}\\s*$`) }) })
    .first();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // F1 is lost while the workbench has no keyboard focus yet (a fresh window, the focus in a webview that is
    // going away): press it again every few seconds until the palette shows.
    for (;;) {
      if (!(await input.isVisible())) await page.keyboard.press('F1');
      try {
        await input.waitFor({ state: 'visible', timeout: 5000 });
        break;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await page
          .locator('.monaco-workbench')
          .first()
          .focus()
          .catch(() => undefined);
      }
    }
    await input.fill(`>${title}`);
    try {
      await row.waitFor({ state: 'visible', timeout: 2000 });
      break;
    } catch {
      if (Date.now() > deadline) {
        await page.keyboard.press('Escape');
        throw new Error(`e2e: command "${title}" is not in the command palette after ${timeoutMs} ms`);
      }
      await page.keyboard.press('Escape'); // close and reopen: the palette snapshots the command list
      await widget.waitFor({ state: 'hidden', timeout: 5000 }).catch(() => undefined);
      await page.waitForTimeout(500);
    }
  }
  await row.click();
  await widget.waitFor({ state: 'hidden', timeout: 5000 }).catch(() => undefined);
}

/** What identifies the webview frame: a CSS selector present in it, or an async predicate. */
export type FramePredicate = string | ((frame: Frame) => Promise<boolean>);

/**
 * Finds the frame holding a webview's content. VS Code nests it: workbench page → `iframe.webview`
 * (the host shim) → `iframe#active-frame` (the extension's HTML). This walks `page.frames()` (all levels)
 * until one satisfies `predicate` — pass a selector that only the wanted webview contains.
 * @throws Error after `timeoutMs` listing the frame URLs it saw.
 */
export async function findWebviewFrame(page: Page, predicate: FramePredicate, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<Frame> {
  const test = typeof predicate === 'string' ? async (frame: Frame) => (await frame.$(predicate)) !== null : predicate;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      if (frame === page.mainFrame() || frame.isDetached()) continue;
      if (await test(frame).catch(() => false)) return frame;
    }
    if (Date.now() > deadline) {
      const urls = page.frames().map((frame) => frame.url().slice(0, 120));
      throw new Error(`e2e: no webview frame matched ${String(predicate)} within ${timeoutMs} ms; frames: ${urls.join(' | ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Waits until the JavaScript `expression` is truthy in a webview `frame`, polling from here. Not
 * `frame.waitForFunction(string)`: that re-evaluates the string with `eval` inside the page, which the webview's
 * Content Security Policy forbids, so it fails as soon as its first answer is false; `frame.evaluate` goes through
 * the debugging protocol, which the policy does not govern.
 * @throws Error after `timeoutMs`, naming the expression.
 */
export async function waitInFrame(frame: Frame, expression: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await frame.evaluate(expression).catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`e2e: ${expression} was not true within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Opens a folded `<details>` as a person does, by a click on its summary; one already open is left as it is. */
export async function openDetails(details: Locator): Promise<void> {
  if (!(await details.evaluate((d) => (d as unknown as { open: boolean }).open)))
    await details.locator(':scope > summary').click();
}

/**
 * Waits for a status bar item whose text matches and returns that text (codicons such as `$(beaker)` are
 * rendered as icons, so they are not part of it).
 */
export async function statusBarText(page: Page, matcher: TextMatcher, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<string> {
  const item = page.locator('.part.statusbar .statusbar-item', { hasText: matcher }).first();
  await item.waitFor({ state: 'visible', timeout: timeoutMs });
  return ((await item.textContent()) ?? '').trim();
}

/** Waits for a notification toast whose message matches; returns the toast (buttons are inside it). */
export async function waitForNotification(page: Page, text: TextMatcher, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<Locator> {
  const toast = page
    .locator('.notifications-toasts .notification-toast', {
      has: page.locator('.notification-list-item-message', { hasText: text }),
    })
    .first();
  await toast.waitFor({ state: 'visible', timeout: timeoutMs });
  return toast;
}

/** Saves a full-page screenshot as `test-results/e2e/<name>.png` and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * Waits for an open quick pick (e.g. shown by a command) and picks the item whose label matches.
 * @throws a Playwright timeout error when no such item shows up.
 */
export async function pickQuickItem(page: Page, label: TextMatcher, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  const row = widget.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: label }) }).first();
  await row.waitFor({ state: 'visible', timeout: timeoutMs });
  await row.click();
}

/** Waits for an open input box (e.g. `showInputBox`), types `text` and presses Enter. */
export async function answerInputBox(page: Page, text: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<void> {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: timeoutMs });
  await input.fill(text);
  await input.press('Enter');
}
