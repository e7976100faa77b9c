/**
 * "TDD Agent: Evaluate the configured model…", its handler run with a double of VS Code's calls (the
 * `EvaluationUi` the command gives it) on a real eval: the loopback model server, the disciplined scripted player,
 * real sessions with real test runs. The progress notification counts the runs, its Cancel stops the eval and keeps
 * what finished, and the report opens as the Markdown preview (report.md, a table), not as JSON. Its refusals are
 * unit-tested in test/unit/vscode/evaluateModel.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readSettings } from '../../../src/vscode/config/settings';
import { runEvaluation } from '../../../src/vscode/commands/evaluation';
import { EVAL_FIXTURE_SET, evalPlayer } from '../../support/evalPlayers';
import { FakeEvaluationUi } from '../../support/fakeEvaluationUi';
import { startOpenAIServer, type OpenAITestServer } from '../../support/openaiServer';

const SET = resolve(__dirname, '..', '..', '..', EVAL_FIXTURE_SET);

describe('TDD Agent: Evaluate the configured model… (the command’s handler)', function () {
  this.timeout(120_000);
  let server: OpenAITestServer;
  let storage: string;
  let cancelled: () => void;
  let isCancelled: Promise<void>;

  beforeEach(async () => {
    server = await startOpenAIServer();
    storage = await mkdtemp(join(tmpdir(), 'vscode-eval-'));
    isCancelled = new Promise<void>((res) => (cancelled = res));
    const player = evalPlayer('disciplined');
    // Raindrops' requests wait for the Cancel, then get no answer: however many sessions run at once, raindrops is
    // still under way when Cancel comes, and leap (answered at once) is the run that finished.
    server.setFallback(async (req) => {
      if (!JSON.stringify(req.body?.messages ?? []).includes('Raindrops')) return player(req);
      await isCancelled;
      return { hang: true };
    });
  });
  afterEach(async () => {
    cancelled();
    await server.close();
    await rm(storage, { recursive: true, force: true });
  });

  const deps = (ui: FakeEvaluationUi) => ({
    settings: () => readSettings((key) => ({ provider: 'openai', baseUrl: server.baseURL, model: 'test-model' })[key]),
    apiKey: () => Promise.resolve(undefined),
    log: { info: () => undefined },
    storage,
    extensionPath: resolve(__dirname, '..', '..', '..'),
    ui,
    env: { OLLAMA_HOST: 'http://127.0.0.1:9' },
    setDir: SET,
  });

  it('reports progress per run; Cancel stops the eval and keeps what finished; the report opens as the Markdown preview', async () => {
    const ui = new FakeEvaluationUi();
    ui.onProgress = (value) => {
      if (value.message?.startsWith('1 of 2 runs')) {
        cancelled();
        ui.cancel(); // the notification's Cancel, once the first run is counted
      }
    };
    const outcome = await runEvaluation(deps(ui));
    assert.ok(outcome);

    assert.deepEqual(ui.titles, ['TDD Agent: evaluating test-model']);
    assert.equal(ui.progress.length, 2);
    assert.deepEqual(ui.progress[0], { message: '0 of 2 runs' });
    // The progress figure: runs done / total, passing so far, the time left.
    assert.match(ui.progress[1]?.message ?? '', /^1 of 2 runs \(leap: passed\); 1 passing so far, ~\d+ (s|min) left$/);
    assert.equal(ui.progress[1]?.increment, 50);

    // Cancel stopped it: the finished run is kept, the one under way is not (nor its recording), nothing else started.
    const { report } = outcome;
    assert.equal(report.interrupted, true);
    assert.deepEqual(
      report.runs.map((r) => [r.kata, r.passed]),
      [['leap', true]],
    );
    assert.deepEqual(await readdir(join(storage, 'eval', (await readdir(join(storage, 'eval')))[0]!, 'recordings')), [
      'leap-javascript-1.json',
    ]);
    assert.equal(report.tdd_agent.front_end, 'vscode');

    // The report opens as VS Code's Markdown preview of report.md: a table a person reads, not the JSON.
    assert.deepEqual(ui.previews, [outcome.markdownPath]);
    assert.match(outcome.markdownPath, /[\\/]eval[\\/]\d{8}-\d{4}[\\/]report\.md$/);
    assert.ok(outcome.markdownPath.startsWith(storage));
    const markdown = await readFile(outcome.markdownPath, 'utf8');
    assert.match(markdown, /^# TDD Agent eval: test-model \(openai\), javascript$/m);
    assert.match(markdown, /^\| kata \| run \| status \| green \|/m);
    assert.match(markdown, /Interrupted/);
    assert.match(markdown, /add it to the `tddAgent\.modelPrices` setting/, 'VS Code’s way to give a price');

    assert.deepEqual(ui.calls, ['askScope conditionals,easy,strings', 'withProgress', 'openMarkdownPreview', 'inform']);
    assert.deepEqual(ui.informed, [
      'TDD Agent: test-model passed 100 % of 1 run(s) (stopped: the report keeps the runs that finished).',
    ]);
    await new Promise((res) => setImmediate(res));
    assert.deepEqual(ui.revealed, [outcome.markdownPath], '"Reveal the report folder" reveals it');
  });
});
