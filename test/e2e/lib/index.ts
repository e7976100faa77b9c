/** The e2e harness: a real VS Code (code-server) in headless Chromium. See test/e2e/README.md. */
export {
  startCodeServer,
  freePort,
  extensionHostLog,
  extensionOutputLog,
  type StartCodeServerOptions,
  type CodeServerHandle,
} from './codeServer';
export { launchBrowser, CHROMIUM_ARGS } from './browser';
export {
  openWorkbench,
  runCommand,
  findWebviewFrame,
  waitInFrame,
  openDetails,
  statusBarText,
  waitForNotification,
  screenshot,
  pickQuickItem,
  answerInputBox,
  type FramePredicate,
  type TextMatcher,
} from './workbench';
export {
  REPO_ROOT,
  RESULTS_DIR,
  E2E_CACHE_DIR,
  CODE_SERVER_VERSION,
  CHROMIUM_PATH,
  codeServerInstall,
  type CodeServerInstall,
} from './paths';
export { eventually } from './eventually';
