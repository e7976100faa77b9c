/**
 * Proves the harness: a throwaway fixture extension in a real VS Code (code-server) driven through
 * headless Chromium — command palette, notification, status bar, webview view and a webview → host → webview
 * round trip, with the environment given to code-server visible in the extension host.
 */
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  findWebviewFrame,
  launchBrowser,
  openWorkbench,
  runCommand,
  screenshot,
  startCodeServer,
  statusBarText,
  waitForNotification,
  extensionHostLog,
  extensionOutputLog,
  eventually,
  type CodeServerHandle,
} from './lib';

const FIXTURE_ID = 'e2e-fixture.smoke-extension';

const FIXTURE = path.join(__dirname, 'fixtures', 'smoke-extension');

describe('e2e harness smoke (code-server + Chromium)', function () {
  let server: CodeServerHandle | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let workspace: string;
  const token = randomUUID().slice(0, 8);

  before(async function () {
    workspace = await fsp.mkdtemp(path.join(os.tmpdir(), 'e2e-smoke-ws-'));
    await fsp.writeFile(path.join(workspace, 'hello.txt'), 'hello from the smoke workspace\n');
    server = await startCodeServer({
      extensionDirs: [FIXTURE],
      workspace,
      env: { E2E_SMOKE_TOKEN: token },
      label: 'smoke',
    });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await openWorkbench(page, server.url);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page) {
      await screenshot(page, `smoke-failed-${this.currentTest.title}`).catch(() => undefined);
    }
  });

  after(async function () {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    if (workspace) await fsp.rm(workspace, { recursive: true, force: true });
  });

  it('opens the workspace folder in the explorer', async function () {
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'hello.txt' }).waitFor({ timeout: 30_000 });
  });

  it('runs a contributed command from the palette: notification + status bar, with env from code-server', async function () {
    await runCommand(page, 'Smoke: Hello');
    const toast = await waitForNotification(page, `Hello from smoke (token ${token})`);
    assert.match((await toast.textContent()) ?? '', new RegExp(token));
    const text = await statusBarText(page, `Smoke ready ${token}`);
    assert.equal(text, `Smoke ready ${token}`);
  });

  it('activated the fixture lazily on its command, and its LogOutputChannel is readable from disk', async function () {
    const hostLog = await eventually(() => extensionHostLog(server!), new RegExp(`_doActivateExtension ${FIXTURE_ID}`));
    assert.match(
      hostLog,
      new RegExp(`_doActivateExtension ${FIXTURE_ID}, startup: false, activationEvent: 'onCommand:smoke.hello'`),
    );
    const output = await eventually(() => extensionOutputLog(server!, FIXTURE_ID), /hello command ran/);
    assert.match(output, new RegExp(`\\[info\\] hello command ran with token ${token}`));
  });

  it('opens the webview view; a click inside it reaches the host and the host answers back', async function () {
    await runCommand(page, 'Smoke: Open View');
    const frame = await findWebviewFrame(page, '#smoke-ping');
    assert.equal((await frame.locator('#smoke-reply').textContent())?.trim(), 'no reply yet');

    await frame.locator('#smoke-ping').click();
    await waitForNotification(page, 'Host got ping 1');
    await frame.locator('#smoke-reply', { hasText: 'Host replied: pong 1' }).waitFor({ timeout: 15_000 });
    await statusBarText(page, 'Smoke pings 1');

    await frame.locator('#smoke-ping').click();
    await frame.locator('#smoke-reply', { hasText: 'Host replied: pong 2' }).waitFor({ timeout: 15_000 });
    await screenshot(page, 'smoke-webview-round-trip');
  });
});
