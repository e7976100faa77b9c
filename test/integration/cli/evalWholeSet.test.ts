import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { EvalReport } from '../../../src/core/eval';
import type { EvalPlayer } from '../../support/evalPlayers';
import { wholeSetPlayer } from '../../support/wholeSetPlayers';
import { cli, isolatedEnv, useCliSession } from './cliHarness';

// The generic players of the whole bundled set (test/support/wholeSetPlayers.ts) on three of its katas in JavaScript:
// a class (bowling), two exports (allergies), a parser that throws (wordy). bench/eval.ts runs them on all 16, in both
// languages.
const KATAS = ['bowling', 'allergies', 'wordy'];

describe('tdd-agent eval: the bundled set against the three generic players', function () {
  this.timeout(300_000);

  const session = useCliSession('cli-eval-whole-', { once: true });

  async function evaluate(player: EvalPlayer): Promise<EvalReport> {
    session.server.setFallback(wholeSetPlayer(player, 'javascript'));
    const args = [
      'eval',
      '--katas',
      KATAS.join(','),
      '--runs',
      '1',
      '--out',
      join(session.dir, player),
      '--concurrency',
      '2',
      '--json',
    ];
    const result = await cli([...args, '--base-url', session.server.baseURL, '--model', 'test-model'], isolatedEnv());
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as EvalReport;
    assert.deepEqual(report.runs.map((r) => r.kata).sort(), [...KATAS].sort());
    return report;
  }

  it('disciplined: every session green, every acceptance test passed', async () => {
    const report = await evaluate('disciplined');
    for (const run of report.runs) {
      assert.equal(
        run.finished_green,
        true,
        `${run.kata}: ${JSON.stringify(run.error)} ${run.status} ${run.cycles} ${JSON.stringify(run.discipline)} ${run.acceptance.passed}/${run.acceptance.total}`,
      );
      assert.equal(run.acceptance.passed, run.acceptance.total, `${run.kata}: ${run.acceptance.failing?.join('\n')}`);
      assert.ok(run.acceptance.total > 1);
      assert.equal(run.discipline.violations, 0);
      assert.equal(run.passed, true);
    }
    assert.equal(report.summary.pass_at_1, 1);
  });

  it('hard-coder: every session green, yet the acceptance tests fail', async () => {
    const report = await evaluate('hardcoder');
    for (const run of report.runs) {
      assert.equal(
        run.finished_green,
        true,
        `${run.kata}: ${JSON.stringify(run.error)} ${run.status} ${run.cycles} ${JSON.stringify(run.discipline)} ${run.acceptance.passed}/${run.acceptance.total}`,
      );
      assert.equal(run.discipline.violations, 0);
      assert.ok(run.acceptance.passed < run.acceptance.total, `${run.kata}: ${run.acceptance.passed}/${run.acceptance.total}`);
      assert.equal(run.passed, false);
    }
    assert.equal(report.summary.green_rate, 1);
    assert.equal(report.summary.pass_at_1, 0);
  });

  it('test-editor: its test edits refused by the role rules, never green', async () => {
    const report = await evaluate('testEditor');
    for (const run of report.runs) {
      assert.equal(run.discipline.violations, 0, `${run.kata}: a refused write is no violation`);
      assert.equal(run.finished_green, false);
      assert.equal(run.passed, false);
      assert.equal(run.discipline.red_commits, 0);
    }
    assert.equal(report.summary.pass_at_1, 0);
  });
});
