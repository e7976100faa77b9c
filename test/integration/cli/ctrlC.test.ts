import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { execFile } from 'node:child_process';
import { simpleGit } from 'simple-git';
import { fizzbuzzJs, JS_TEST_PATH } from '../../support/fizzbuzzPlans';
import { startOpenAIServer, type OpenAITestServer } from '../../support/openaiServer';
import { scriptedKataModel } from '../../support/scriptedKataModel';
import { isolatedEnv } from './cliHarness';

const ROOT = resolve(__dirname, '..', '..', '..');

describe('tdd-agent kata: Ctrl-C', function () {
  this.timeout(120_000);
  let server: OpenAITestServer;
  let dir: string;
  before(async () => {
    await promisify(execFile)('node', ['esbuild.config.mjs', '--only=cli'], { cwd: ROOT });
  });
  beforeEach(async () => {
    server = await startOpenAIServer();
    dir = await mkdtemp(join(tmpdir(), 'cli-sigint-'));
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('stops mid-cycle, leaves the tree at the last green commit, and exits 1 with a resumable session', async () => {
    const script = scriptedKataModel({ cycles: fizzbuzzJs(3) });
    let signalled: () => void = () => undefined;
    const implementerOfCycle2 = new Promise<void>((res) => (signalled = res));
    // The model answers normally until cycle 2's implementer asks; that request is held until Ctrl-C.
    server.setFallback(async (req) => {
      const user = String(req.body.messages.find((m: { role: string }) => m.role === 'user')?.content ?? '');
      if (String(req.body.messages[0].content).startsWith('agent: implementer/v1') && /- cycle: 2 /.test(user)) {
        signalled();
        await new Promise((res) => setTimeout(res, 30_000));
      }
      return script.reply(req);
    });

    const child = spawn('node', [join(ROOT, 'dist', 'cli.js'), 'kata', 'fizzbuzz', '--workspace', dir, '--base-url', server.baseURL, '--model', 'm', '--yes', '--json'], {
      env: isolatedEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));

    await implementerOfCycle2;
    assert.ok((await readFile(join(dir, JS_TEST_PATH), 'utf8')).includes('Fizz'), 'the red test of cycle 2 is on disk when Ctrl-C comes');
    child.kill('SIGINT');
    const code = await exited;

    assert.equal(code, 1, stderr);
    assert.match(stderr, /Stopping after the current step/);
    const summary = JSON.parse(stdout);
    assert.equal(summary.status, 'cancelled');
    assert.deepEqual(summary.cycles.map((c: { outcome: string }) => c.outcome), ['green', 'cancelled']);

    const git = simpleGit(dir);
    assert.equal((await git.status()).isClean(), true, 'no half-done work left behind');
    assert.equal((await git.revparse(['--abbrev-ref', 'HEAD'])).trim(), summary.branch, 'a repository the session created stays on the session branch');
    assert.doesNotMatch(await readFile(join(dir, JS_TEST_PATH), 'utf8'), /Fizz/, 'the red test of the cancelled cycle is gone');
    const saved = JSON.parse(await readFile(join(dir, '.tdd', 'session.json'), 'utf8'));
    assert.equal(saved.status, 'cancelled');
  });
});
