import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureCliBundle } from '../../support/cliBundle';
import { makeFifo, releaseFifo } from '../../support/specialFiles';
import { cli, isolatedEnv } from './cliHarness';

const ROOT = resolve(__dirname, '..', '..', '..');

// A red team's `tdd-agent eval --prices <a FIFO>` hung: every path a person names on the command line is read as a
// bounded regular file, and anything else is a usage error (exit 2) at once, naming the flag and the path. A CLI
// that waits on the FIFO fails by the test's timeout (no timing assertion).
describe('tdd-agent: a FIFO, a device or a folder named on the command line is exit 2 at once, naming it', function () {
  this.timeout(60_000);
  let dir: string;
  let fifo: string;
  const children: ChildProcess[] = [];

  before(async () => {
    await ensureCliBundle();
  });
  beforeEach(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'cli-named-')));
    fifo = makeFifo(join(dir, 'named.json'));
  });
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await releaseFifo(fifo);
    await rm(dir, { recursive: true, force: true });
  });

  /** Runs the built CLI (`dist/cli.js`) in a child process with no provider configured. */
  function builtCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli.js'), ...args], {
      cwd: dir,
      env: isolatedEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += String(d)));
    child.stderr!.on('data', (d) => (stderr += String(d)));
    return new Promise((res, rej) => {
      child.once('error', rej);
      child.once('close', (code) => res({ code, stdout, stderr }));
    });
  }

  it('tdd-agent eval --prices <fifo>: exit 2, "--prices <fifo> is a FIFO", no report folder', async () => {
    const out = join(dir, 'report');
    const result = await builtCli(['eval', '--prices', fifo, '--out', out, '--base-url', 'http://127.0.0.1:9', '--model', 'm']);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stderr, `tdd-agent: --prices ${fifo} is a FIFO (named pipe), not a file.\n`);
    assert.equal(existsSync(out), false, 'nothing ran');
  });

  it('tdd-agent kata <fifo>: exit 2, the kata file named as a FIFO, nothing made in the workspace', async () => {
    const workspace = join(dir, 'ws');
    await mkdir(workspace);
    const result = await builtCli(['kata', fifo, '--workspace', workspace, '--base-url', 'http://127.0.0.1:9', '--model', 'm']);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stderr, `tdd-agent: VALIDATION: Kata file ${fifo} is a FIFO (named pipe), not a file.\n`);
    assert.equal(existsSync(join(workspace, '.git')), false, 'no repository was made');
  });

  it('--prices /dev/zero and --prices <folder>: a device and a folder, said so (in process)', async () => {
    const folder = join(dir, 'prices');
    await mkdir(folder);
    for (const [file, what] of [
      ['/dev/zero', 'is a device, not a file'],
      [folder, 'is a folder, not a file'],
    ]) {
      const result = await cli(['eval', '--prices', file!, '--out', join(dir, 'out')], isolatedEnv());
      assert.equal(result.code, 2, result.stderr);
      assert.equal(result.stderr, `tdd-agent: --prices ${file} ${what}.\n`);
    }
  });

  it('--mcp-config, --cassette and ask --file <fifo>: each names its flag (in process)', async () => {
    const kata = join(dir, 'kata.md');
    await writeFile(kata, '# Kata\n\nBuild it.\n');
    const runs: Array<[string[], string]> = [
      [['kata', kata, '--workspace', join(dir, 'ws'), '--mcp-config', fifo], '--mcp-config'],
      [['kata', kata, '--workspace', join(dir, 'ws'), '--provider', 'replay', '--cassette', fifo], '--cassette'],
      [['ask', '--file', fifo, '--base-url', 'http://127.0.0.1:9', '--model', 'm', 'what is it?'], '--file'],
    ];
    for (const [args, flag] of runs) {
      const result = await cli(args, isolatedEnv());
      assert.equal(result.code, 2, `${flag}: ${result.stderr}`);
      assert.equal(result.stderr, `tdd-agent: ${flag} ${fifo} is a FIFO (named pipe), not a file.\n`);
    }
  });
});
