import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProcessSandbox, worktreePolicy } from '../../../../src/core/osSandbox';
import { runProcess } from '../../../../src/core/process/runProcess';
import { readRepository, SessionWorktree } from '../../../../src/core/tdd/git';
import {
  prepareProjectDependencies,
  previewProjectDependencies,
} from '../../../../src/core/tdd/dependencies/projectDependencies';
import { requireBubblewrap } from '../../osSandbox/fixture';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=p', '-c', 'user.email=p@example.com', ...args], { cwd, encoding: 'utf8' }).trim();

/** A folder outside /tmp (which the sandbox replaces with its own anyway), so only the sandbox's HOME can hide it. */
async function outsideTmp(prefix: string): Promise<string> {
  const base = existsSync('/var/tmp') ? '/var/tmp' : tmpdir();
  return mkdtemp(join(base, prefix));
}

// Red-team findings (issue 34): a virtual environment's pyvenv.cfg `home` and its interpreter link became readable roots
// of the sandbox as they were: `home = /run` let a generated test connect to a host socket, `home = $HOME` let it read
// ~/.ssh. Real git, real bubblewrap: the sandbox is built for each such environment and looked into from inside.
describe('A virtual environment’s files never widen the sandbox (real git, bubblewrap)', function () {
  this.timeout(120_000);
  const temps: string[] = [];
  let repo: string;
  let home: string;
  let socketDir: string;
  let toolchain: string;
  let server: Server;
  let worktree: SessionWorktree;
  let env: NodeJS.ProcessEnv;

  before(async function () {
    await requireBubblewrap(this);
    repo = await mkdtemp(join(tmpdir(), 'tdd-hostile-venv-'));
    home = await outsideTmp('tdd-hostile-home-');
    socketDir = await mkdtemp(join(tmpdir(), 'tdd-hostile-socket-'));
    toolchain = await mkdtemp(join(tmpdir(), 'tdd-python-install-'));
    temps.push(repo, home, socketDir, toolchain);
    await mkdir(join(home, '.ssh'));
    await writeFile(join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY OF THE PERSON\n');
    server = createServer((c) => c.end('host socket answered\n'));
    await new Promise<void>((resolve) => server.listen(join(socketDir, 'host.sock'), resolve));
    // A real installation's shape: bin/python3 and lib/python3.X/os.py (in /tmp, which only a readable root shows).
    await mkdir(join(toolchain, 'bin'));
    await mkdir(join(toolchain, 'lib', 'python3.12'), { recursive: true });
    await writeFile(join(toolchain, 'bin', 'python3'), '#!/bin/sh\n');
    await writeFile(join(toolchain, 'lib', 'python3.12', 'os.py'), '# the standard library\n');

    await writeFile(join(repo, 'pyproject.toml'), '[project]\nname = "p"\nversion = "0.1.0"\n');
    await writeFile(join(repo, '.gitignore'), '.venv/\n');
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'project');
    ({ worktree } = await SessionWorktree.create(await readRepository(repo), {
      slug: 'library',
      worktreesRoot: await mkdtemp(join(tmpdir(), 'tdd-worktrees-')),
    }));
    temps.push(join(worktree.dir, '..'));
    env = { PATH: process.env.PATH, HOME: home, LANG: 'C' };
  });
  after(async () => {
    await new Promise((resolve) => server?.close(resolve));
    for (const dir of temps) await rm(dir, { recursive: true, force: true });
  });

  /** The person's (untracked) .venv with this pyvenv.cfg `home`, and `bin/python` a file or a link to `python`. */
  async function personVenv(cfgHome: string, python?: string): Promise<void> {
    await rm(join(repo, '.venv'), { recursive: true, force: true });
    await mkdir(join(repo, '.venv', 'bin'), { recursive: true });
    await writeFile(join(repo, '.venv', 'pyvenv.cfg'), `home = ${cfgHome}\ninclude-system-site-packages = false\n`);
    if (python) await symlink(python, join(repo, '.venv', 'bin', 'python'));
    else {
      await writeFile(join(repo, '.venv', 'bin', 'python'), '#!/bin/sh\nexec python3 "$@"\n');
      await chmod(join(repo, '.venv', 'bin', 'python'), 0o755);
    }
  }

  /** Builds the session's sandbox as the supervisor does, and lists from inside what the given paths show. */
  async function lookInside(paths: string[]): Promise<{ run: string; home: string; seen: string[]; roots: string[] }> {
    const dependencies = await prepareProjectDependencies(worktree.info, { env });
    assert.ok(dependencies.sandbox.python, 'the person’s environment is used');
    const sandbox = await createProcessSandbox(
      'auto',
      worktreePolicy(worktree.dir, worktree.info.commonDir, undefined, dependencies.sandbox),
    );
    const probes = paths.map((p) => `test -e '${p}' && echo "SEEN ${p}"`).join('; ');
    const r = await runProcess({
      cwd: worktree.dir,
      command: `echo '--- run'; ls -A /run; echo '--- home'; ls -A "$HOME"; echo '--- seen'; ${probes}; true`,
      shell: true,
      env,
      sandbox,
      timeoutMs: 60_000,
    });
    assert.equal(r.exitCode, 0, r.output);
    const part = (name: string) => (new RegExp(`--- ${name}\\n([\\s\\S]*?)(?=--- |$)`).exec(r.output)?.[1] ?? '').trim();
    return {
      run: part('run'),
      home: part('home'),
      seen: part('seen').split('\n').filter(Boolean),
      roots: dependencies.sandbox.python!.interpreterRoots,
    };
  }

  const secret = () => join(home, '.ssh', 'id_rsa');
  const socket = () => join(socketDir, 'host.sock');

  for (const [what, cfgHome, python] of [
    ['home = /run', () => '/run', undefined],
    ['home = /run/dbus (inside /run)', () => '/run/dbus', undefined],
    ['home = $HOME', () => home, undefined],
    ['home = $HOME/bin (its prefix is HOME)', () => join(home, 'bin'), undefined],
    ['home = /', () => '/', undefined],
    ['home = a folder holding a host socket', () => socketDir, undefined],
    ['home = the socket itself', () => join(socketDir, 'host.sock'), undefined],
    ['bin/python linking to a file in $HOME/.ssh', () => '/usr/bin', () => join(home, '.ssh', 'id_rsa')],
  ] as Array<[string, () => string, (() => string) | undefined]>) {
    it(`${what}: /run and HOME stay the sandbox’s empty ones, the socket and the key are not there`, async () => {
      await personVenv(cfgHome(), python?.());
      const inside = await lookInside([secret(), socket(), socketDir, join(home, '.ssh')]);
      assert.equal(inside.run, '', 'the sandbox’s /run is empty');
      assert.equal(inside.home, '', 'the sandbox’s HOME is empty');
      assert.deepEqual(inside.seen, [], 'nothing of HOME or the socket folder is visible');
      assert.ok(
        !inside.roots.some((r) => r === '/run' || r.startsWith(home) || r.startsWith(socketDir) || r === '/'),
        inside.roots.join(', '),
      );
    });
  }

  it('a real Python installation that pyvenv.cfg names is shown, read-only', async () => {
    await personVenv(join(toolchain, 'bin'));
    const inside = await lookInside([join(toolchain, 'lib', 'python3.12', 'os.py')]);
    assert.deepEqual(inside.roots, [toolchain]);
    assert.deepEqual(inside.seen, [`SEEN ${join(toolchain, 'lib', 'python3.12', 'os.py')}`]);
    assert.equal(inside.home, '');
  });

  it('a virtual environment git tracks is the repository’s code: never the person’s environment', async () => {
    const tracked = await mkdtemp(join(tmpdir(), 'tdd-tracked-venv-'));
    temps.push(tracked);
    await mkdir(join(tracked, '.venv', 'bin'), { recursive: true });
    await writeFile(join(tracked, '.venv', 'pyvenv.cfg'), `home = ${home}\n`);
    await writeFile(join(tracked, '.venv', 'bin', 'python'), '#!/bin/sh\ntouch /tmp/ran\n');
    await chmod(join(tracked, '.venv', 'bin', 'python'), 0o755);
    await writeFile(join(tracked, 'pyproject.toml'), '[project]\nname = "t"\nversion = "0.1.0"\n');
    git(tracked, 'init', '-q', '-b', 'main');
    git(tracked, 'add', '-A');
    git(tracked, 'commit', '-q', '-m', 'a committed environment');
    const plan = await previewProjectDependencies(await readRepository(tracked), { env });
    assert.equal(plan.python, undefined);
    assert.equal(plan.sandbox.python, undefined);
    assert.deepEqual(plan.missing, [], 'no environment is not a refusal: the test command’s interpreter runs the tests');
  });
});
