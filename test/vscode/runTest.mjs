// `npm run test:vscode`: runs test/vscode/suite in a downloaded VS Code (Electron) via @vscode/test-electron.
// DRAFT for machines that can download VS Code from update.code.visualstudio.com — it cannot run on the
// offline CI machines (use `npm run test:e2e`, code-server in Chromium, there). Build first: `npm run build`.
import { runTests } from '@vscode/test-electron';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tdd-agent-vscode-'));
fs.writeFileSync(path.join(workspace, 'README.md'), '# scratch workspace for test:vscode\n');

try {
  await runTests({
    version: process.env.VSCODE_TEST_VERSION ?? 'stable',
    extensionDevelopmentPath: root,
    extensionTestsPath: path.join(root, 'test', 'vscode', 'suite', 'index.cjs'),
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
  });
} catch (error) {
  console.error('test:vscode failed:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  fs.rmSync(workspace, { recursive: true, force: true });
}
