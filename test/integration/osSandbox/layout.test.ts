import { strict as assert } from 'node:assert';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bubblewrapArgs, createProcessSandbox } from '../../../src/core/osSandbox';
import { runProcess } from '../../../src/core/process/runProcess';
import { createWorktree, requireBubblewrap } from './fixture';

describe('OS sandbox (real bubblewrap): where the worktree may lie', function () {
  this.timeout(60_000); // real processes on a shared machine, under coverage in npm test
  before(async function () {
    await requireBubblewrap(this);
  });

  it('mounts the policy roots after the private /tmp and the empty HOME, and the read-only paths last', () => {
    const args = bubblewrapArgs({
      policy: { writableRoots: ['/tmp/s/wt'], readOnlyPaths: ['/tmp/s/wt/.git'], readableRoots: ['/tmp/s/repo/.git'] },
      cwd: '/tmp/s/wt',
      home: '/home/me',
    });
    const at = (flag: string, path: string) => args.findIndex((a, i) => a === flag && args[i + 1] === path);
    assert.ok(at('--tmpfs', '/tmp') < at('--tmpfs', '/home/me'));
    assert.ok(at('--tmpfs', '/home/me') < at('--ro-bind-try', '/tmp/s/repo/.git'));
    assert.ok(at('--ro-bind-try', '/tmp/s/repo/.git') < at('--bind', '/tmp/s/wt'));
    assert.ok(at('--bind', '/tmp/s/wt') < at('--ro-bind-try', '/tmp/s/wt/.git'));
    assert.equal(args.at(-1), '--');
  });

  it('with the network: no --unshare-net; sized tmpfs get --size first; overlays are mounted last', () => {
    const layout = {
      policy: { writableRoots: ['/w'], readOnlyPaths: ['/w/.git'], readableRoots: ['/r/.git'] },
      cwd: '/w',
      home: '/home/me',
      tmpBytes: 1024,
      homeBytes: 2048,
      overlays: [{ source: '/private/config-1', target: '/r/.git/config', content: '' }],
    };
    const closed = bubblewrapArgs(layout);
    const open = bubblewrapArgs({ ...layout, network: true });
    assert.ok(closed.includes('--unshare-net'));
    assert.ok(!open.includes('--unshare-net'));
    assert.deepEqual(closed.slice(closed.indexOf('/tmp') - 3, closed.indexOf('/tmp') + 1), ['--size', '1024', '--tmpfs', '/tmp']);
    assert.deepEqual(closed.slice(closed.indexOf('/home/me') - 3, closed.indexOf('/home/me') + 1), [
      '--size',
      '2048',
      '--tmpfs',
      '/home/me',
    ]);
    const overlay = closed.indexOf('/private/config-1');
    assert.equal(closed[overlay - 1], '--ro-bind');
    assert.ok(overlay > closed.lastIndexOf('/w/.git'), 'the overlay covers the read-only paths and roots');
  });

  it('works with the worktree under /tmp: writable, and git can read its history', async () => {
    const fx = createWorktree(mkdtempSync(join(tmpdir(), 'os-sandbox-tmp-')));
    try {
      const sandbox = await createProcessSandbox('auto', fx.policy);
      const r = await runProcess({
        cwd: fx.worktree,
        command: 'echo hello > note.txt && git log --format=%s -1 && git status --short',
        shell: true,
        sandbox,
      });
      assert.equal(r.exitCode, 0, r.output);
      assert.match(r.stdout, /^init\n/);
      assert.equal(readFileSync(join(fx.worktree, 'note.txt'), 'utf8'), 'hello\n');
    } finally {
      fx.cleanup();
    }
  });

  it('works with the worktree under HOME, and the rest of HOME stays hidden', async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'os-sandbox-home-')));
    const fx = createWorktree(join(home, 'code'));
    mkdirSync(join(home, '.aws'));
    try {
      const sandbox = await createProcessSandbox('auto', fx.policy);
      const r = await runProcess({
        cwd: fx.worktree,
        command:
          'echo hello > note.txt && ls -A "$HOME" && echo --- && ls -A "$HOME/code" && echo --- && ls -A "$HOME/code/repo"',
        shell: true,
        env: { ...process.env, HOME: home },
        sandbox,
      });
      assert.equal(r.exitCode, 0, r.output);
      // Only the folders leading to the mounted roots: no .aws, no fake home, no README of the repository.
      assert.equal(r.stdout, 'code\n---\nrepo\nworktree\n---\n.git\n');
      assert.equal(readFileSync(join(fx.worktree, 'note.txt'), 'utf8'), 'hello\n');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('a CA bundle under the hidden HOME (NODE_EXTRA_CA_CERTS) does not put a warning in every Node run', async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'os-sandbox-certs-')));
    const fx = createWorktree(mkdtempSync(join(tmpdir(), 'os-sandbox-certs-wt-')));
    const bundle = join(home, 'corp-ca.pem');
    writeFileSync(bundle, ''); // Node warns only when the file cannot be read
    const command = `"${process.execPath}" -e "console.log('ran')"`;
    const env = { ...process.env, HOME: home, NODE_EXTRA_CA_CERTS: bundle };
    try {
      // Outside the sandbox the bundle loads; inside, HOME is hidden and Node would warn at every start.
      const plain = await runProcess({ cwd: fx.worktree, command, shell: true, env });
      assert.equal(plain.output.trim(), 'ran', plain.output);
      const sandbox = await createProcessSandbox('auto', fx.policy);
      const r = await runProcess({ cwd: fx.worktree, command, shell: true, env, sandbox });
      assert.equal(r.exitCode, 0, r.output);
      assert.equal(r.output.trim(), 'ran', 'no "Ignoring extra certs" warning');
      const seen = await runProcess({ cwd: fx.worktree, command: 'echo "[$NODE_EXTRA_CA_CERTS]"', shell: true, env, sandbox });
      assert.equal(seen.stdout, '[]\n', 'the variable is not passed into the sandbox (no network there)');
    } finally {
      fx.cleanup();
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('keeps a toolchain on PATH under HOME (nvm-style) visible read-only, and the rest of HOME hidden', async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'os-sandbox-nvm-')));
    const fx = createWorktree(join(home, 'code'));
    const bin = join(home, '.nvm', 'versions', 'node', 'v0', 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'kata-tool'), '#!/bin/sh\necho tool ran\n');
    chmodSync(join(bin, 'kata-tool'), 0o755);
    mkdirSync(join(home, '.local', 'bin'), { recursive: true });
    mkdirSync(join(home, '.local', 'share', 'keyrings'), { recursive: true });
    writeFileSync(join(home, '.local', 'share', 'keyrings', 'login.keyring'), 'secret');
    mkdirSync(join(home, '.aws'));
    writeFileSync(join(home, '.aws', 'credentials'), 'secret');
    try {
      const sandbox = await createProcessSandbox('auto', fx.policy);
      const r = await runProcess({
        cwd: fx.worktree,
        command: [
          'kata-tool',
          'touch "$HOME/.nvm/versions/node/v0/x" 2>/dev/null || echo toolchain read-only',
          'cat "$HOME/.aws/credentials" 2>/dev/null || echo no aws',
          'cat "$HOME/.local/share/keyrings/login.keyring" 2>/dev/null || echo no keyring',
        ].join('; '),
        shell: true,
        env: { ...process.env, HOME: home, PATH: `${bin}:${join(home, '.local', 'bin')}:${process.env.PATH}` },
        sandbox,
      });
      assert.equal(r.stdout, 'tool ran\ntoolchain read-only\nno aws\nno keyring\n', r.output);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
