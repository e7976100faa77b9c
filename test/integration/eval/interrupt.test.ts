import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { EvalReport } from '../../../src/core/eval';
import { ensureCliBundle } from '../../support/cliBundle';
import { EVAL_FIXTURE_SET, evalPlayer } from '../../support/evalPlayers';
import { startOpenAIServer, type OpenAITestServer } from '../../support/openaiServer';
import { isolatedEnv } from '../cli/cliHarness';

const ROOT = resolve(__dirname, '..', '..', '..');
const SET = join(ROOT, EVAL_FIXTURE_SET);

// The built CLI in a child process, stopped by a real SIGINT while the second run is under way (one of its model
// exchanges already recorded): the report keeps the first run, and recordings/ holds exactly the runs it lists.
describe('tdd-agent eval: Ctrl-C leaves no recording of a run the report dropped', function () {
  this.timeout(180_000);
  let server: OpenAITestServer;
  let dir: string;
  before(async () => {
    await ensureCliBundle();
    server = await startOpenAIServer();
    dir = await mkdtemp(join(tmpdir(), 'eval-sigint-'));
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('SIGINT mid-run: exit 1, the finished run in the report and in recordings/, the cancelled one in neither', async () => {
    const out = join(dir, 'report');
    const player = evalPlayer('disciplined');
    let afterFirst = 0;
    let reached: () => void = () => undefined;
    const holding = new Promise<void>((res) => (reached = res));
    // Once leap's run is in the report: raindrops' first request is answered (and recorded), its second is held.
    server.setFallback((req) => {
      if (!existsSync(join(out, 'report.json')) || ++afterFirst === 1) return player(req);
      reached();
      return { hang: true };
    });
    const args = [
      'eval',
      '--set',
      SET,
      '--concurrency',
      '1',
      '--out',
      out,
      '--base-url',
      server.baseURL,
      '--model',
      'test-model',
    ];
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli.js'), ...args], {
      env: isolatedEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += String(d)));
    child.stdout!.resume();
    const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
    await Promise.race([holding, exited]);
    assert.ok(
      existsSync(join(out, 'recordings', 'raindrops-javascript-1.json')),
      `the second run had recorded an exchange before Ctrl-C\n${stderr}`,
    );

    child.kill('SIGINT');
    assert.equal(await exited, 1, stderr);
    assert.match(stderr, /Interrupted: the report keeps the runs that finished\./);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as EvalReport;
    assert.equal(report.interrupted, true);
    assert.deepEqual(
      report.runs.map((r) => [r.kata, r.passed, r.recording]),
      [['leap', true, 'recordings/leap-javascript-1.json']],
    );
    assert.deepEqual(await readdir(join(out, 'recordings')), ['leap-javascript-1.json'], 'recordings/ lists the report’s runs');
  });
});
