import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProcessSandbox, type ProcessSandbox } from '../../../src/core/osSandbox';
import { detectTestRunner } from '../../../src/core/testRunners/detectTestRunner';
import {
  ESCAPE_REPORT,
  ESCAPE_TARGETS,
  ESCAPE_TEST_FILE,
  ESCAPE_TEST_SOURCE,
  type EscapeReport,
  type EscapeTargets,
} from './escapeSuite';
import { createWorktree, hostProcesses, requireBubblewrap, type WorktreeFixture } from './fixture';

/**
 * A generated `node --test` file, run by the real test runner in a real `git worktree add` worktree,
 * tries to write outside the worktree, read a secret from any process's environment, reach a loopback
 * server or a host service's Unix socket, plant a git hook, rewrite the worktree's `.git` file, look into HOME and leave a process
 * behind. Inside bubblewrap none of it gets through and the run still completes and reports; the same
 * file without the sandbox gets all of it, which shows each attempt is real.
 */
describe('OS sandbox (real bubblewrap): generated tests cannot get out of the worktree', function () {
  this.timeout(60_000); // real processes on a shared machine, under coverage in npm test
  const secret = `sk-test-${randomUUID()}`;
  let savedKey: string | undefined;
  let server: http.Server;
  let requests = 0;
  let decoy: ChildProcess;
  let socketDir: string;
  let socketServer: net.Server;
  let socketConnections = 0;

  before(async function () {
    await requireBubblewrap(this);
    // The parent holds a key, as the CLI does; the child's environment is scrubbed, and bubblewrap
    // itself must be started with that scrubbed environment (its PID 1 keeps what it was given).
    savedKey = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = secret;
    server = http.createServer((_req, res) => {
      requests++;
      res.end('reached');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    // A host service on a Unix socket, where such services live (/run when writable, e.g. as root).
    socketDir = [
      () => mkdtempSync('/run/os-sandbox-'),
      () => mkdtempSync(join(process.env.XDG_RUNTIME_DIR ?? '/nonexistent', 'os-sandbox-')),
      () => mkdtempSync(join(tmpdir(), 'os-sandbox-sock-')),
    ]
      .map((make) => {
        try {
          return make();
        } catch {
          return undefined;
        }
      })
      .find((dir) => dir !== undefined)!;
    socketServer = net.createServer((socket) => {
      socketConnections++;
      socket.end('service reached\n');
    });
    await new Promise<void>((resolve) => socketServer.listen(join(socketDir, 'service.sock'), resolve));
    // A host process started with the secret in its environment: its /proc/<pid>/environ holds it.
    decoy = spawn('sleep', ['600'], { env: { PATH: process.env.PATH, OPENAI_API_KEY: secret }, stdio: 'ignore' });
  });

  after(async () => {
    if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = savedKey;
    decoy?.kill('SIGKILL');
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await new Promise((resolve) => (socketServer ? socketServer.close(resolve) : resolve(undefined)));
    if (socketDir) rmSync(socketDir, { recursive: true, force: true });
  });

  /** Runs the escape suite in a fresh worktree through detectTestRunner + CommandTestRunner. */
  async function runEscapeSuite(fx: WorktreeFixture, sandbox: ProcessSandbox | undefined, backgroundSleep: string) {
    const targets: EscapeTargets = {
      outsideFiles: [join(fx.repo, 'escaped.txt'), join(tmpdir(), `escaped-${randomUUID()}.txt`), join(fx.home, 'escaped.txt')],
      secret,
      hostPids: [process.pid, decoy.pid!],
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
      hookFile: join(fx.commonDir, 'hooks', 'post-checkout'),
      homeSecretFile: join(fx.home, '.ssh', 'id_ed25519'),
      unixSocket: join(socketDir, 'service.sock'),
      backgroundSleep,
    };
    writeFileSync(join(fx.worktree, ESCAPE_TARGETS), JSON.stringify(targets));
    writeFileSync(join(fx.worktree, ESCAPE_TEST_FILE), ESCAPE_TEST_SOURCE);
    const runner = await detectTestRunner(fx.worktree, { testCommand: 'node --test', env: { HOME: fx.home }, sandbox });
    const result = await runner.run({ timeoutMs: 60_000 });
    const report = JSON.parse(readFileSync(join(fx.worktree, ESCAPE_REPORT), 'utf8')) as EscapeReport;
    return { targets, result, report };
  }

  it('stops every escape while the run completes and reports', async () => {
    const fx = createWorktree();
    try {
      const hooksBefore = readdirSync(join(fx.commonDir, 'hooks')).sort();
      const gitFileBefore = readFileSync(join(fx.worktree, '.git'), 'utf8');
      const sandbox = await createProcessSandbox('auto', fx.policy);
      assert.equal(sandbox.kind, 'bubblewrap');
      const sleepArgs = `${300 + Math.floor(Math.random() * 1000)}.${process.pid}`;

      const { targets, result, report } = await runEscapeSuite(fx, sandbox, sleepArgs);

      assert.equal(result.status, 'passed', result.output);
      assert.equal(result.total, 7, result.output);
      // writes: only inside the worktree
      for (const file of targets.outsideFiles)
        assert.equal(existsSync(file), false, `${file} was written (${report.writes[file]})`);
      assert.equal(report.insideWrite, 'written inside');
      assert.equal(readFileSync(join(fx.worktree, 'inside.txt'), 'utf8'), 'written inside');
      // the secret is in no environment the sandbox can read, and host processes are invisible
      assert.ok(report.environFilesRead > 0, 'the suite read no environ at all');
      assert.deepEqual(report.environHits, []);
      assert.deepEqual(report.hostPidEnviron, { [process.pid]: 'missing', [decoy.pid!]: 'missing' });
      // network
      assert.match(report.network, /^blocked/);
      assert.equal(requests, 0);
      assert.match(report.unixSocket, /^blocked/);
      assert.equal(socketConnections, 0);
      // git internals
      assert.match(report.hook, /^blocked: EROFS/);
      assert.match(report.gitFileRewrite, /^blocked/);
      assert.match(report.gitFileRemove, /^blocked/);
      assert.deepEqual(readdirSync(join(fx.commonDir, 'hooks')).sort(), hooksBefore);
      assert.equal(readFileSync(join(fx.worktree, '.git'), 'utf8'), gitFileBefore);
      // HOME
      assert.deepEqual(report.homeEntries, []);
      assert.match(report.homeSecret, /^blocked: ENOENT/);
      // no survivor: the background sleep was alive when the suite ended, and is gone now
      assert.equal(report.background?.aliveAtEnd, true);
      assert.ok(Number(readFileSync(join(fx.worktree, 'background.pid'), 'utf8')) > 0);
      assert.deepEqual(
        hostProcesses().filter((line) => line.includes(`sleep ${sleepArgs}`)),
        [],
      );
    } finally {
      fx.cleanup();
    }
  });

  it('without the sandbox the same suite gets through (control: each attempt is real)', async () => {
    const fx = createWorktree();
    const gitFile = readFileSync(join(fx.worktree, '.git'), 'utf8');
    const sandbox = await createProcessSandbox('off', fx.policy);
    const requestsBefore = requests;
    const { targets, result, report } = await runEscapeSuite(fx, sandbox, '');
    try {
      assert.equal(result.status, 'passed', result.output);
      for (const file of targets.outsideFiles)
        assert.equal(existsSync(file), true, `${file} was not written (${report.writes[file]})`);
      assert.ok(report.environHits.includes(String(decoy.pid)), `the decoy's environ was not found: ${JSON.stringify(report)}`);
      assert.match(report.network, /^connected: 200/);
      assert.ok(requests > requestsBefore);
      assert.equal(report.unixSocket, 'connected: service reached');
      assert.equal(report.hook, 'ok');
      assert.ok(report.homeEntries.includes('.ssh'));
      assert.match(report.homeSecret, /PRIVATE KEY/);
    } finally {
      for (const file of targets.outsideFiles) rmSync(file, { force: true });
      writeFileSync(join(fx.worktree, '.git'), gitFile);
      fx.cleanup();
    }
  });
});
