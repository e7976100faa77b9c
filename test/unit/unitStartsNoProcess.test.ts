/** The unit tier's guard (`test/support/unitStartsNoProcess.ts`, a root hook of every mocha config) fails a unit test that starts a process. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mochaHooks } from '../support/unitStartsNoProcess';

/** The guard's hooks around a test of `file` that tries to start `command` (none exists: no process starts). */
async function guarded(file: string, command: string): Promise<void> {
  const context = { currentTest: { file, fullTitle: () => 'a test' } } as unknown as Mocha.Context;
  mochaHooks.beforeEach.call(context);
  const child = spawn(command, ['--flag']);
  await once(child, 'error');
  mochaHooks.afterEach.call(context);
}

describe('the unit tier starts no process', () => {
  it('a test under test/unit/ that starts one fails, naming the command and where the test belongs', async () => {
    await assert.rejects(
      guarded('/repo/test/unit/a.test.ts', 'tdd-agent-no-such-command'),
      /"a test" started 1 process\(es\) \(tdd-agent-no-such-command --flag\): a unit test starts none; move it to test\/integration\//,
    );
  });

  it('a test under test/integration/ may', async () => {
    await guarded('/repo/test/integration/a.test.ts', 'tdd-agent-no-such-command');
  });
});
