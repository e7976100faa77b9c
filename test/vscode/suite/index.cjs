// Entry point @vscode/test-electron loads inside the VS Code extension host: runs mocha over the
// in-editor checks below (they use the `vscode` API directly). DRAFT — see ../runTest.mjs.
'use strict';
const assert = require('node:assert/strict');
// mocha 12 is an ES module; require() of it (Node >= 20.19) yields its namespace.
const { Mocha } = require('mocha');

const EXTENSION_ID = 'tdd-agent.tdd-agent';

/** Called by VS Code's test runner; resolves when every test passed. */
exports.run = function run() {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: true });
  mocha.suite.emit('pre-require', global, 'suite', mocha);

  describe('TDD Agent in a real VS Code (test-electron)', () => {
    const vscode = require('vscode');

    it('is installed and activates on its "Open panel" command', async () => {
      const extension = vscode.extensions.getExtension(EXTENSION_ID);
      assert.ok(extension, `${EXTENSION_ID} is not installed in the test instance`);
      const commands = (extension.packageJSON.contributes?.commands ?? []).map((c) => c.command);
      const open = commands.find((id) => /open/i.test(id) && /panel/i.test(id));
      assert.ok(open, `no "Open panel" command among ${commands.join(', ')}`);
      await vscode.commands.executeCommand(open);
      assert.equal(extension.isActive, true);
    });
  });

  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures ? reject(new Error(`${failures} test(s) failed`)) : resolve()));
  });
};
