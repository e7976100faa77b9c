import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { EvalReport } from '../../../src/core/eval';
import { EVAL_FIXTURE_SET, evalPlayer } from '../../support/evalPlayers';
import { startOpenAIServer, type OpenAITestServer } from '../../support/openaiServer';
import { cli, isolatedEnv } from '../cli/cliHarness';

const SET = resolve(__dirname, '..', '..', '..', EVAL_FIXTURE_SET);

// The model server dies mid-eval: the runs it ends are the provider's failure, not the model's. They must not be
// scored as the model's failures (pass@1 dropping, acceptance 0/N, exit 0), and the eval must not go on launching
// runs against a dead server.
describe('tdd-agent eval: the model server goes away mid-eval', function () {
  this.timeout(180_000);
  let server: OpenAITestServer;
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'eval-provider-'));
  });
  after(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('the run it ends is not scored (listed with the reason), no new run starts, the CLI says so and exits 1', async () => {
    const out = join(dir, 'report');
    server = await startOpenAIServer();
    const player = evalPlayer('disciplined');
    // Once the first run is in the report, the server closes (refusing every connection from then on) on the next
    // request: leap's second run.
    server.setFallback((req) => {
      if (!existsSync(join(out, 'report.json'))) return player(req);
      void server.close();
      return { hang: true };
    });
    const args = ['eval', '--set', SET, '--runs', '2', '--concurrency', '1', '--out', out, '--json'];
    const result = await cli([...args, '--base-url', server.baseURL, '--model', 'test-model'], isolatedEnv());

    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /\[1\/4\] PASS leap run 1/);
    assert.match(
      result.stderr,
      /\[2\/4\] NOT SCORED leap run 2 \([0-9.]+ s\): the model provider failed — CONNECTION: .*Could not reach the model server/,
    );
    assert.match(
      result.stderr,
      /Stopping: the model provider failed on leap run 2 \(CONNECTION\)\. That is not the model's doing/,
    );
    assert.match(result.stderr, /Stopped after a failure of the model provider: 1 run\(s\) not scored, 2 not started\./);
    assert.doesNotMatch(result.stderr, /raindrops/, 'no raindrops run started');

    const report = JSON.parse(result.stdout) as EvalReport;
    assert.deepEqual(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')), report);
    assert.deepEqual(
      report.runs.map((r) => [r.kata, r.run, r.scored, r.passed, r.error?.error_code]),
      [
        ['leap', 1, true, true, undefined],
        ['leap', 2, false, false, 'CONNECTION'],
      ],
    );
    assert.equal(report.interrupted, false);
    assert.deepEqual(
      { ...report.stopped, message: undefined },
      { kata: 'leap', run: 2, error_code: 'CONNECTION', message: undefined, not_started: 2 },
    );
    // Left out of pass@k, medians and totals: the figures are leap run 1's alone.
    const [first] = report.runs;
    const s = report.summary;
    assert.deepEqual([s.runs, s.not_scored, s.katas, s.pass_at_1, s.green_rate, s.acceptance_rate], [1, 1, 1, 1, 1, 1]);
    assert.equal(s.totals.model_requests, first!.model_requests);
    assert.equal(s.medians.model_requests, first!.model_requests);
    assert.equal(s.totals.wall_ms, first!.wall_ms);
    assert.deepEqual(
      report.katas.map((k) => [k.kata, k.runs, k.passed]),
      [['leap', 1, 1]],
    );

    const markdown = await readFile(join(out, 'report.md'), 'utf8');
    assert.match(
      markdown,
      /\*\*Stopped after a failure of the model provider\*\* \(CONNECTION on leap run 2\): not the model's doing, so that run is not scored and no new run started \(2 not started\)\./,
    );
    assert.match(
      markdown,
      /\| not scored \(the model provider failed, not the model; left out of every figure\) \| 1 run\(s\) \|/,
    );
    assert.match(
      markdown,
      /## Not scored\n\nThese runs ended on a failure of the model provider, not of the model:\n\n- \*\*leap run 2\*\*: CONNECTION: .*Could not reach/,
    );
    assert.doesNotMatch(markdown, /^\| leap \| 2 \|/m, 'not in the per-run table');
  });
});
