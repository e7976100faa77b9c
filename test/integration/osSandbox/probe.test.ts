import { strict as assert } from 'node:assert';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAgentError } from '../../../src/core/errors/agentError';
import { BWRAP_MISSING, BWRAP_PATH_VARIABLE, createProcessSandbox, probeSandbox } from '../../../src/core/osSandbox';
import { runProcess } from '../../../src/core/process/runProcess';
import { createWorktree, requireBubblewrap, type WorktreeFixture } from './fixture';

const policy = { writableRoots: ['/nonexistent-worktree'] };

describe('OS sandbox: probe and modes', function () {
  let dir: string;
  before(function () {
    if (process.platform !== 'linux') this.skip(); // the probe's Linux paths (bubblewrap) are what is tested here
    dir = mkdtempSync(join(tmpdir(), 'os-sandbox-probe-'));
  });
  after(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('starts a real bubblewrap sandbox and says it works (cached until refresh)', async function () {
    await requireBubblewrap(this);
    const probe = await probeSandbox({ refresh: true });
    assert.deepEqual({ available: probe.available, kind: probe.kind }, { available: true, kind: 'bubblewrap' });
    assert.match(probe.reason, /bwrap\) works/);
    assert.equal(await probeSandbox(), await probeSandbox(), 'the second call returns the cached probe');
  });

  it('reports a missing bubblewrap and how to install it; auto mode then refuses', async () => {
    const missing = join(dir, 'no-such-bwrap');
    const probe = await probeSandbox({ refresh: true, bwrapPath: missing });
    assert.equal(probe.available, false);
    assert.equal(probe.kind, 'bubblewrap');
    assert.ok(probe.reason.startsWith(BWRAP_MISSING), probe.reason);
    await assert.rejects(createProcessSandbox('auto', policy, { bwrapPath: missing }), (e: unknown) => {
      assert.ok(isAgentError(e));
      assert.equal(e.error_code, 'SANDBOX_UNAVAILABLE');
      assert.match(e.message, /^No OS sandbox is available here \(bubblewrap is not installed \(apt-get install bubblewrap\)/);
      assert.match(e.message, /Code the agents write would run unconfined; turn the sandbox off explicitly to accept that\.$/);
      assert.equal(e.details.kind, 'bubblewrap');
      return true;
    });
  });

  it(`honours ${BWRAP_PATH_VARIABLE} (how hosts and tests simulate a machine without bubblewrap)`, async () => {
    const saved = process.env[BWRAP_PATH_VARIABLE];
    process.env[BWRAP_PATH_VARIABLE] = join(dir, 'also-missing');
    try {
      await assert.rejects(
        createProcessSandbox('auto', policy),
        (e: unknown) => isAgentError(e) && e.error_code === 'SANDBOX_UNAVAILABLE',
      );
    } finally {
      if (saved === undefined) delete process.env[BWRAP_PATH_VARIABLE];
      else process.env[BWRAP_PATH_VARIABLE] = saved;
    }
  });

  it("passes on bubblewrap's own reason when it cannot start (e.g. user namespaces restricted)", async () => {
    const fake = join(dir, 'bwrap');
    writeFileSync(fake, '#!/bin/sh\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n');
    chmodSync(fake, 0o755);
    const probe = await probeSandbox({ refresh: true, bwrapPath: fake });
    assert.equal(probe.available, false);
    assert.match(probe.reason, /cannot start a sandbox here: bwrap: setting up uid map: Permission denied/);
    // Which failure mode it is depends on this machine's kernel settings: AppArmor's restriction, or a container.
    assert.ok(['apparmor_userns', 'container'].includes(probe.diagnosis?.kind ?? ''), JSON.stringify(probe.diagnosis));
    assert.ok(probe.diagnosis!.fixes.length > 0);
    await assert.rejects(
      createProcessSandbox('auto', policy, { bwrapPath: fake }),
      /No OS sandbox is available here \(.*setting up uid map: Permission denied\)/,
    );
  });

  describe("mode 'off'", () => {
    let fx: WorktreeFixture;
    before(() => (fx = createWorktree()));
    after(() => fx.cleanup());

    it('passes launches through unchanged and says that nothing is confined', async () => {
      const sandbox = await createProcessSandbox('off', fx.policy, { bwrapPath: join(dir, 'irrelevant') });
      assert.equal(sandbox.kind, 'none');
      assert.match(sandbox.description, /no OS sandbox \(turned off\).*unconfined/);
      const launch = { command: 'echo', args: ['a'], shell: true, cwd: fx.worktree, env: { PATH: '/usr/bin' } };
      assert.deepEqual(sandbox.wrap(launch), { command: 'echo', args: ['a'], shell: true, env: launch.env });
      const hook = join(fx.commonDir, 'hooks', 'pre-commit');
      const r = await runProcess({ cwd: fx.worktree, command: `echo x > ${hook}`, shell: true, sandbox });
      assert.equal(r.exitCode, 0, r.output);
      assert.equal(existsSync(hook), true, 'unconfined: the write outside the worktree goes through');
    });
  });
});
