import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createProcessSandbox, type ProcessSandbox, type SandboxLimits } from '../../../src/core/osSandbox';
import { pidsCgroupBase } from '../../../src/core/osSandbox/pidsCgroup';
import { runProcess } from '../../../src/core/process/runProcess';
import { createWorktree, hostProcesses, requireBubblewrap, type WorktreeFixture } from './fixture';

const MIB = 1024 ** 2;

/**
 * Each launch is bounded: processes (a pids cgroup per launch, or RLIMIT_NPROC where it binds), file size
 * (RLIMIT_FSIZE), data per process (RLIMIT_DATA) and the private /tmp (a sized tmpfs). Small limits, passed as the
 * policy's options, keep every case short and harmless on a shared 2-core machine; each run ends failed, with the
 * limit named in `limitHit` and in a line of its output.
 */
describe('OS sandbox (real bubblewrap): limits of a launch', function () {
  this.timeout(60_000);
  let fx: WorktreeFixture;
  const sandboxWith = (limits: Partial<SandboxLimits>): Promise<ProcessSandbox> =>
    createProcessSandbox('auto', { ...fx.policy, limits });

  before(async function () {
    await requireBubblewrap(this);
    fx = createWorktree();
  });
  after(() => fx?.cleanup());

  it('a fork loop stops at the process limit, and nothing of it is left on the host', async function () {
    if (process.getuid?.() === 0 && !pidsCgroupBase()) {
      process.stderr.write('  skipping: root, and no writable pids cgroup (RLIMIT_NPROC does not bind root)\n');
      this.skip();
    }
    const marker = '31.4159'; // a sleep nobody else runs, to find survivors
    const sandbox = await sandboxWith({ processes: 48 });
    // At most 2000 iterations, each a short sleep: even unbounded, the loop ends by itself.
    const r = await runProcess({
      cwd: fx.worktree,
      command: `i=0; while [ $i -lt 2000 ]; do sleep ${marker} & i=$((i+1)); done; echo "started all $i"`,
      shell: true,
      sandbox,
      timeoutMs: 30_000,
    });
    assert.notEqual(r.exitCode, 0, r.output);
    assert.doesNotMatch(r.output, /started all 2000/);
    assert.match(r.output, /Cannot fork|Resource temporarily unavailable/);
    assert.equal(r.limitHit, "the sandbox's process limit (48 processes and threads)");
    assert.match(r.output, /\[tdd-agent\] the run hit the sandbox's process limit \(48 processes and threads\)\n$/);
    assert.deepEqual(
      hostProcesses().filter((line) => line.includes(`sleep ${marker}`)),
      [],
      'no sleep of the loop outlives the run',
    );
    assert.match(sandbox.description, /at most 48 processes/);
    const base = pidsCgroupBase();
    if (base)
      assert.deepEqual(
        readdirSync(base).filter((name) => name.startsWith(`tdd-agent-${process.pid}-`)),
        [],
        'the cgroup is gone',
      );
  });

  it('a launcher killed with SIGKILL mid-run leaves a cgroup that the next start sweeps away', async function () {
    const base = pidsCgroupBase();
    if (!base) {
      process.stderr.write('  skipping: no writable pids cgroup here\n');
      this.skip();
    }
    // A second process runs a long sandboxed sleep, and is killed with SIGKILL while its cgroup exists.
    const core = join(process.cwd(), 'src/core');
    const program = `
      const load = async (path) => { const m = await import(path); return m.default ?? m; };
      const { createProcessSandbox } = await load(${JSON.stringify(join(core, 'osSandbox/index.ts'))});
      const { runProcess } = await load(${JSON.stringify(join(core, 'process/runProcess.ts'))});
      const sandbox = await createProcessSandbox('auto', JSON.parse(process.env.POLICY));
      await runProcess({ cwd: process.env.CWD, command: 'sleep 271.828', shell: true, sandbox });`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], {
      env: { ...process.env, POLICY: JSON.stringify(fx.policy), CWD: fx.worktree },
      stdio: 'ignore',
    });
    const own = () => readdirSync(base!).filter((name) => name.startsWith(`tdd-agent-${child.pid}-`));
    for (let i = 0; i < 600 && own().length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(own().length, 1, 'the run got a cgroup of its own');
    const ended = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await ended;
    assert.equal(own().length, 1, 'a launcher killed at once cannot remove its cgroup');
    // The next start: a fresh process looks for the pids hierarchy, and sweeps on the way.
    const next = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(join(core, 'osSandbox/pidsCgroup.ts'))}); console.log((m.default ?? m).pidsCgroupBase());`,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(next.stdout.trim(), base, next.stderr);
    assert.deepEqual(own(), [], 'the next start removed it');
    assert.deepEqual(
      hostProcesses().filter((line) => line.includes('sleep 271.828')),
      [],
      'nothing of the run is left',
    );
  });

  it('a file written past the file-size limit is stopped there', async () => {
    const sandbox = await sandboxWith({ fileSizeBytes: MIB });
    const r = await runProcess({ cwd: fx.worktree, command: 'head -c 4194304 /dev/zero > big.bin', shell: true, sandbox });
    assert.notEqual(r.exitCode, 0, r.output);
    assert.equal(statSync(join(fx.worktree, 'big.bin')).size, MIB);
    assert.equal(r.limitHit, "the sandbox's file-size limit (1 MiB per file)");
    assert.match(r.output, /\[tdd-agent\] the run hit the sandbox's file-size limit \(1 MiB per file\)\n$/);
    // Node ignores SIGXFSZ: its write fails with EFBIG instead, and the run is recognised the same way.
    const node = await runProcess({
      cwd: fx.worktree,
      command: process.execPath,
      args: ['-e', "require('fs').writeFileSync('big2.bin', Buffer.alloc(4 * 1024 * 1024))"],
      sandbox,
    });
    assert.notEqual(node.exitCode, 0, node.output);
    assert.match(node.output, /EFBIG/);
    assert.equal(node.limitHit, "the sandbox's file-size limit (1 MiB per file)");
  });

  it('filling the private /tmp past its size fails with ENOSPC', async () => {
    const sandbox = await sandboxWith({ tmpBytes: 2 * MIB, fileSizeBytes: 64 * MIB });
    const r = await runProcess({
      cwd: fx.worktree,
      command: 'df -k /tmp | tail -1; head -c 8388608 /dev/zero > /tmp/fill; echo "exit $?"; ls -l /tmp/fill; exit 1',
      shell: true,
      sandbox,
    });
    assert.match(r.output, /No space left on device/);
    assert.match(r.output, /\s2048\s/, 'df shows a 2 MiB /tmp');
    assert.equal(r.limitHit, "the sandbox's /tmp size limit (2 MiB), or a full disk: no space left on device");
    assert.match(r.output, /\[tdd-agent\] the run hit the sandbox's \/tmp size limit \(2 MiB\)/);
  });

  it('bounds each process to the data limit with prlimit, while Node still starts under the default', async () => {
    const sandbox = await sandboxWith({});
    const r = await runProcess({
      cwd: fx.worktree,
      command: `grep -E "Max (file size|data size)" /proc/self/limits && "${process.execPath}" -e "console.log('node ran')"`,
      shell: true,
      sandbox,
    });
    assert.equal(r.exitCode, 0, r.output);
    assert.match(r.output, /Max file size\s+1073741824\s+1073741824/);
    assert.match(r.output, /Max data size\s+4294967296\s+4294967296/);
    assert.match(r.output, /node ran/);
    assert.equal(r.limitHit, undefined);
  });

  it('a run that passes or fails for its own reasons gets no note', async () => {
    const sandbox = await sandboxWith({});
    const r = await runProcess({ cwd: fx.worktree, command: 'echo failing; exit 3', shell: true, sandbox });
    assert.equal(r.exitCode, 3);
    assert.equal(r.limitHit, undefined);
    assert.equal(r.output, 'failing\n');
  });

  it('refuses a limit that is not a positive whole number, as a CONFIG error', async () => {
    await assert.rejects(sandboxWith({ processes: 0 }), (e: unknown) => {
      assert.equal((e as { error_code?: string }).error_code, 'CONFIG');
      assert.match((e as Error).message, /sandbox limit 'processes' must be a positive whole number, not 0/);
      return true;
    });
  });
});
