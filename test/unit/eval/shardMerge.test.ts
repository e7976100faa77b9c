import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { isAgentError } from '../../../src/core/errors/agentError';
import {
  compareModels,
  evalJobs,
  loadEvalSet,
  mergeEvalReports,
  parseShard,
  passAtKInterval,
  renderComparison,
  shardJobs,
  summarize,
  type EvalReport,
  type EvalRunResult,
} from '../../../src/core/eval';

const BUNDLED = resolve(__dirname, '..', '..', '..', 'katas', 'eval');

function run(kata: string, n: number, passed: boolean, extra: Partial<EvalRunResult> = {}): EvalRunResult {
  return {
    kata,
    title: kata,
    run: n,
    language: 'javascript',
    status: 'completed',
    finished_green: true,
    cycles: 3,
    acceptance: { passed: passed ? 9 : 7, total: 9, status: passed ? 'passed' : 'failed' },
    passed,
    scored: true,
    discipline: { overshoots: 1, violations: 0, reverted_refactors: 0, red_commits: 0, commits_checked: 3 },
    model_requests: 10,
    tokens: { prompt: 1000, completion: 200 },
    cost_usd: null,
    wall_ms: 1000,
    session_ms: 900,
    recording: `recordings/${kata}-javascript-${n}.json`,
    final_commit: 'abc',
    ...extra,
  };
}

function reportOf(runs: EvalRunResult[], header: Partial<EvalReport> = {}): EvalReport {
  const runsPerKata = header.runs_per_kata ?? 2;
  const { summary, katas } = summarize(runs, runsPerKata, null);
  return {
    format: 'tdd-agent-eval',
    version: 1,
    started_at: '2026-11-26T07:00:00.000Z',
    finished_at: '2026-11-26T07:01:00.000Z',
    interrupted: false,
    model: 'm',
    provider: 'openai',
    language: 'javascript',
    runs_per_kata: runsPerKata,
    concurrency: 1,
    tdd_agent: { version: '0.1.0', front_end: 'cli' },
    set: { name: 'katas/eval', bundled: true, digest: '0123456789abcdef', source_commits: [], katas: ['leap', 'wordy'] },
    price: null,
    machine: { sandbox: 'bubblewrap', cpus: 2, node: '20', platform: 'linux-x64' },
    options: { max_cycles: null, test_timeout_ms: null, model_timeout_ms: null, agents: 'bundled' },
    summary,
    katas,
    runs,
    ...header,
  };
}

const shardOf = (index: number, count: number, runs: EvalRunResult[]) => ({
  index,
  count,
  runs: runs.map((r) => ({ kata: r.kata, run: r.run })),
});

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(isAgentError(err) && err.error_code === 'CONFIG', String(err));
    return err.message;
  }
  assert.fail('not refused');
}

describe('eval --shard i/n: a deterministic split of the runs, balanced by expected cost', () => {
  it('every run in exactly one shard, the same split every time, the loads within one kata of each other', async () => {
    const set = await loadEvalSet(BUNDLED);
    const jobs = evalJobs(set.exercises, 3);
    for (const count of [1, 2, 3, 5, 7]) {
      const shards = Array.from({ length: count }, (_, i) => shardJobs(jobs, 'javascript', { index: i + 1, count }));
      const names = shards.flatMap((s) => s.map((j) => `${j.exercise.slug} ${j.run}`));
      assert.equal(names.length, jobs.length);
      assert.equal(new Set(names).size, jobs.length);
      assert.deepEqual(
        shards.map((s) => s.map((j) => `${j.exercise.slug} ${j.run}`)),
        Array.from({ length: count }, (_, i) =>
          shardJobs(evalJobs(set.exercises, 3), 'javascript', { index: i + 1, count }).map((j) => `${j.exercise.slug} ${j.run}`),
        ),
      );
      // in the report's order
      for (const s of shards)
        assert.deepEqual(
          s,
          [...s].sort((a, b) => jobs.indexOf(a) - jobs.indexOf(b)),
        );
      const hard = shards.map((s) => s.filter((j) => j.exercise.tags.includes('hard')).length);
      assert.ok(Math.max(...hard) - Math.min(...hard) <= 1, `hard runs spread: ${hard.join(',')}`);
    }
  });

  it('--shard takes i/n with 1 ≤ i ≤ n', () => {
    assert.deepEqual(parseShard('2/3'), { index: 2, count: 3 });
    for (const bad of ['0/3', '4/3', '1', 'a/b', '1/0', '-1/2'])
      assert.match(
        refusal(() => parseShard(bad)),
        /--shard takes i\/n with 1 ≤ i ≤ n \(e\.g\. 2\/3\)/,
      );
  });
});

describe('eval merge: the parts of one eval into one report, refusals in one line naming the file', () => {
  const all = [run('leap', 1, true), run('leap', 2, false), run('wordy', 1, true), run('wordy', 2, true)];
  const a = all.slice(0, 3);
  const b = all.slice(3);
  const partA = { file: '/p/a/report.json', report: reportOf(a, { shard: shardOf(1, 2, a) }) };
  const partB = {
    file: '/p/b/report.json',
    report: reportOf(b, {
      shard: shardOf(2, 2, b),
      started_at: '2026-11-26T06:00:00.000Z',
      finished_at: '2026-11-26T08:00:00.000Z',
    }),
  };

  it('the merged report is the whole eval’s: runs in order, figures over all of them, no shard', () => {
    const [merged] = mergeEvalReports([partB, partA]);
    const whole = reportOf(all);
    assert.deepEqual(merged!.report, {
      ...whole,
      started_at: '2026-11-26T06:00:00.000Z',
      finished_at: '2026-11-26T08:00:00.000Z',
    });
  });

  it('refuses another eval, the same shard twice, a run in two parts, a missing shard and an unfinished one', () => {
    const other = { file: '/p/c/report.json', report: { ...partB.report, options: { ...partB.report.options!, max_cycles: 4 } } };
    assert.equal(
      refusal(() => mergeEvalReports([partA, other])),
      '/p/c/report.json is not a part of the same eval as /p/a/report.json: options {"max_cycles":4,"test_timeout_ms":null,"model_timeout_ms":null,"agents":"bundled"}, not {"max_cycles":null,"test_timeout_ms":null,"model_timeout_ms":null,"agents":"bundled"}.',
    );
    const priced = { file: '/p/d/report.json', report: { ...partB.report, price: { input: 1, output: 2 } } };
    assert.match(
      refusal(() => mergeEvalReports([partA, priced])),
      /^\/p\/d\/report\.json .*: price \{"input":1,"output":2\}, not null\.$/,
    );
    assert.equal(
      refusal(() => mergeEvalReports([partA, { ...partA, file: '/p/a2/report.json' }])),
      '/p/a2/report.json and /p/a/report.json are both shard 1/2: merge each shard once.',
    );
    assert.equal(
      refusal(() => mergeEvalReports([partA])),
      'Shard 2/2 missing (wordy run 2): none of /p/a/report.json is it.',
    );
    const cut = { file: '/p/e/report.json', report: reportOf(a.slice(0, 2), { shard: shardOf(1, 2, a) }) };
    assert.equal(
      refusal(() => mergeEvalReports([cut, partB])),
      '/p/e/report.json (shard 1/2) lacks wordy run 1: it did not finish; run it again with tdd-agent eval --resume <its folder>, then merge.',
    );
    const wholeReport = { file: '/p/w/report.json', report: reportOf(all) };
    assert.equal(
      refusal(() => mergeEvalReports([wholeReport, partB])),
      '/p/b/report.json (shard 2/2) and /p/w/report.json (a whole eval) both hold wordy run 2: overlapping parts.',
    );
  });

  it('several models: a merged report each, and a comparison with pass@k and its 95 % interval', () => {
    const other = all.map((r) => ({ ...r, passed: r.kata === 'leap', cycles: 2, tokens: { prompt: 500, completion: 100 } }));
    const second = { file: '/p/m2/report.json', report: reportOf(other, { model: 'm2' }) };
    const merged = mergeEvalReports([partA, second, partB]);
    assert.deepEqual(
      merged.map((m) => [m.report.model, m.parts.map((p) => p.file)]),
      [
        ['m', ['/p/a/report.json', '/p/b/report.json']],
        ['m2', ['/p/m2/report.json']],
      ],
    );
    const comparison = compareModels(merged.map((m, i) => ({ report: m.report, folder: `model-${i}` })));
    const [first, two] = comparison.models;
    assert.equal(first!.pass_at_k, 1);
    assert.equal(first!.pass_at_1, 0.75);
    assert.equal(first!.green_commits, 12);
    assert.equal(first!.discipline_per_green_commit, 4 / 12);
    assert.equal(first!.tokens_per_green_commit, 4800 / 12);
    assert.equal(first!.cost_usd_per_green_commit, null, 'no price');
    assert.equal(two!.pass_at_k, 0.5);
    assert.ok(first!.interval_95[0] <= first!.pass_at_k && first!.pass_at_k <= first!.interval_95[1]);
    assert.deepEqual(compareModels(merged.map((m, i) => ({ report: m.report, folder: `model-${i}` }))), comparison, 'seeded');
    const md = renderComparison(comparison);
    assert.match(md, /^\| model \| runs \| pass@1 \| pass@2 \| 95 % interval of pass@2 \|/m);
    assert.match(
      md,
      /^\| \[m\]\(model-0\/report\.md\) \(openai\) \| 4 \| 75 % \| 100 % \| 50 % – 100 % \| 12 \| 0\.33 \| 400 \| — \| 0\.3 s \|$/m,
    );
    assert.match(
      refusal(() => mergeEvalReports([partA, { ...second, report: { ...second.report, language: 'python' } }])),
      /language python, not javascript/,
    );
  });

  it('the interval narrows with more katas and covers the estimate', () => {
    const few = passAtKInterval(
      [
        { runs: 3, passed: 1 },
        { runs: 3, passed: 2 },
      ],
      1,
    );
    const many = passAtKInterval(
      Array.from({ length: 40 }, (_, i) => ({ runs: 3, passed: i % 3 })),
      1,
    );
    assert.ok(few[1] - few[0] > many[1] - many[0], `${few.join('–')} vs ${many.join('–')}`);
    assert.ok(many[0] < 1 / 3 && 1 / 3 < many[1]);
  });
});
