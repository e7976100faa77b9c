import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { EvalReport } from '../../../src/core/eval';
import { EVAL_FIXTURE_SET, evalPlayer } from '../../support/evalPlayers';
import { startOpenAIServer, type OpenAITestServer } from '../../support/openaiServer';
import { cli, isolatedEnv } from '../cli/cliHarness';

const SET = resolve(__dirname, '..', '..', '..', EVAL_FIXTURE_SET);

describe('tdd-agent eval --prices FILE: a price for a model the table lacks', function () {
  this.timeout(120_000);
  let server: OpenAITestServer;
  let dir: string;
  before(async () => {
    server = await startOpenAIServer();
    server.setFallback(evalPlayer('disciplined'));
    dir = await mkdtemp(join(tmpdir(), 'eval-prices-'));
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  const base = () => ['eval', '--set', SET, '--katas', 'leap', '--base-url', server.baseURL, '--model', 'test-model'];

  it('prices the run from the file (the shape of tddAgent.modelPrices): a cost per run and in total, no "No price" line', async () => {
    const prices = join(dir, 'prices.json');
    await writeFile(prices, JSON.stringify({ 'test-model': { input: 2, output: 8 }, other: { input: 1, output: 1 } }));
    const out = join(dir, 'priced');
    const result = await cli([...base(), '--prices', prices, '--out', out, '--json'], isolatedEnv());
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as EvalReport;
    assert.deepEqual(report.price, { input: 2, output: 8 });
    const [run] = report.runs;
    assert.ok(run && run.tokens.prompt > 0);
    assert.equal(run.cost_usd, (run.tokens.prompt * 2 + run.tokens.completion * 8) / 1_000_000);
    assert.equal(report.summary.totals.cost_usd, run.cost_usd);
    const markdown = await readFile(join(out, 'report.md'), 'utf8');
    assert.doesNotMatch(markdown, /No price is known/);
    assert.doesNotMatch(result.stderr, /no price known/);
  });

  it('without a price, report.md tells the CLI’s way to give one (--prices), not a VS Code setting', async () => {
    const out = join(dir, 'unpriced');
    const result = await cli([...base(), '--out', out], isolatedEnv());
    assert.equal(result.code, 0, result.stderr);
    const markdown = await readFile(join(out, 'report.md'), 'utf8');
    assert.match(
      markdown,
      /No price is known for test-model: tokens only\. To estimate the cost, run `tdd-agent eval` with `--prices FILE`/,
    );
    assert.doesNotMatch(markdown, /tddAgent\.modelPrices/);
  });

  it('a file that cannot be used is a usage error (exit 2) saying what is wrong and the shape, before any run', async () => {
    const cases: Array<[string, string | undefined, RegExp]> = [
      ['missing.json', undefined, /--prices .*missing\.json does not exist\./],
      ['bad.json', '{ "m": ', /--prices .*bad\.json is not valid JSON/],
      [
        'negative.json',
        JSON.stringify({ 'test-model': { input: -1, output: 1 }, m: { input: 1 } }),
        /--prices .*negative\.json must be a JSON object \{ "<model id>": \{ "input": <USD per million prompt tokens>, "output": <USD per million completion tokens> \} \}:\n {2}- test-model\.input: .*\n {2}- m\.output: /,
      ],
      ['list.json', '[]', /must be a JSON object/],
    ];
    for (const [name, content, expected] of cases) {
      const file = join(dir, name);
      if (content !== undefined) await writeFile(file, content);
      const out = join(dir, `out-${name}`);
      const result = await cli([...base(), '--prices', file, '--out', out], isolatedEnv());
      assert.equal(result.code, 2, `${name}: ${result.stderr}`);
      assert.match(result.stderr, expected, name);
      assert.equal(existsSync(out), false, `${name}: nothing ran`);
    }
  });

  it('--help documents --prices', async () => {
    const help = await cli(['eval', '--help'], isolatedEnv());
    assert.match(help.stdout, /--prices FILE +model prices for the estimated cost/);
  });
});
