import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createProcessSandbox, type ProcessSandbox } from '../../../src/core/osSandbox';
import { runProcess } from '../../../src/core/process/runProcess';
import { createWorktree, hostProcesses, requireBubblewrap, type WorktreeFixture } from './fixture';

/** A `sleep` argument no other process on the host has. */
const uniqueSleep = (): string => `${400 + Math.floor(Math.random() * 1000)}.${process.pid}${Math.floor(Math.random() * 1000)}`;
/**
 * Host processes whose command line holds `marker`, once the kernel has finished tearing down the sandbox's
 * PID namespace: its processes are killed when the sandbox exits, but a loaded machine (npm test runs files
 * side by side) may still list one for a moment. Looks again for up to 3 s while any is listed.
 */
async function survivors(marker: string): Promise<string[]> {
  const deadline = Date.now() + 3000;
  for (;;) {
    const left = hostProcesses().filter((line) => line.includes(marker));
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('OS sandbox (real bubblewrap): nothing outlives a run', function () {
  this.timeout(60_000); // real processes on a shared machine, under coverage in npm test
  let fx: WorktreeFixture;
  let sandbox: ProcessSandbox;

  before(async function () {
    await requireBubblewrap(this);
    fx = createWorktree();
    sandbox = await createProcessSandbox('auto', fx.policy);
  });
  after(() => fx?.cleanup());

  it('ends a background process when the command exits', async () => {
    const sleep = uniqueSleep();
    const r = await runProcess({
      cwd: fx.worktree,
      command: `sleep ${sleep} >/dev/null 2>&1 & echo $! > bg.pid; echo started`,
      shell: true,
      sandbox,
    });
    assert.equal(r.exitCode, 0, r.output);
    assert.equal(r.stdout, 'started\n');
    assert.ok(existsSync(join(fx.worktree, 'bg.pid')));
    assert.deepEqual(await survivors(`sleep ${sleep}`), []);
  });

  it('kills the whole sandbox on timeout: the loop, its background child and bubblewrap', async () => {
    const sleep = uniqueSleep();
    const r = await runProcess({
      cwd: fx.worktree,
      command: `sleep ${sleep} & while :; do :; done`,
      shell: true,
      timeoutMs: 1500,
      sandbox,
    });
    assert.equal(r.timedOut, true);
    assert.deepEqual(await survivors(`sleep ${sleep}`), []);
    assert.deepEqual(await survivors(sleep), [], 'bubblewrap (its command line holds the same marker) is still running');
  });

  it('kills the whole sandbox on abort', async () => {
    const sleep = uniqueSleep();
    const controller = new AbortController();
    const marker = join(fx.worktree, 'started.txt');
    // Abort once the command has started its background child (the marker exists).
    const poll = setInterval(() => existsSync(marker) && controller.abort(), 20);
    const r = await runProcess({
      cwd: fx.worktree,
      command: `sleep ${sleep} & touch started.txt; wait`,
      shell: true,
      signal: controller.signal,
      sandbox,
    });
    clearInterval(poll);
    assert.equal(r.cancelled, true);
    assert.deepEqual(await survivors(sleep), []);
  });

  it("reports the command's exit code and output through the sandbox", async () => {
    const r = await runProcess({ cwd: fx.worktree, command: 'sh', args: ['-c', 'echo out; echo err >&2; exit 7'], sandbox });
    assert.equal(r.exitCode, 7);
    assert.equal(r.stdout, 'out\n');
    assert.equal(r.stderr, 'err\n');
  });
});
