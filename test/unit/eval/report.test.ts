import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isAgentError } from '../../../src/core/errors/agentError';
import {
  acceptanceOf,
  costOf,
  loadEvalSet,
  median,
  noPriceHint,
  passAtK,
  renderMarkdown,
  replayCommand,
  selectExercises,
  summarize,
  type EvalReport,
  type EvalRunResult,
} from '../../../src/core/eval';
import { defaultConcurrency, greenCycles, isProviderFailure } from '../../../src/core/eval/runEval';
import { EVAL_USAGE } from '../../../src/cli/commands/eval';

const FIXTURE = resolve(__dirname, '..', '..', 'fixtures', 'eval-set');

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
    discipline: { overshoots: 0, violations: 0, reverted_refactors: 0, red_commits: 0, commits_checked: 3 },
    model_requests: 10,
    tokens: { prompt: 1000, completion: 200 },
    cost_usd: null,
    wall_ms: 1000 * n,
    session_ms: 900 * n,
    recording: `recordings/${kata}-javascript-${n}.json`,
    final_commit: 'abc',
    ...extra,
  };
}

/** A whole report of `runs` for rendering, its header fields overridable. */
function reportOf(runs: EvalRunResult[], header: Partial<EvalReport> = {}): EvalReport {
  return {
    format: 'tdd-agent-eval',
    version: 1,
    started_at: '2026-11-26T07:00:00.000Z',
    finished_at: '2026-11-26T07:01:00.000Z',
    interrupted: false,
    model: 'm',
    provider: 'openai',
    language: 'javascript',
    runs_per_kata: 1,
    concurrency: 1,
    tdd_agent: { version: '0.1.0', front_end: 'cli' },
    set: { name: 'katas/eval', bundled: true, digest: '0123456789abcdef', source_commits: [], katas: ['leap'] },
    price: null,
    machine: { sandbox: 'none', cpus: 1, node: '20', platform: 'linux-x64' },
    ...summarize(runs, 1, null),
    runs,
    ...header,
  };
}

describe('eval: pass@k, medians and the summary', () => {
  it('pass@k is the unbiased estimator: 1 − C(n−c, k)/C(n, k)', () => {
    assert.equal(passAtK(1, 1, 1), 1);
    assert.equal(passAtK(1, 0, 1), 0);
    assert.equal(passAtK(4, 1, 1), 0.25);
    assert.ok(Math.abs(passAtK(4, 1, 2)! - 0.5) < 1e-12); // 1 − C(3,2)/C(4,2) = 1 − 3/6
    assert.equal(passAtK(3, 0, 3), 0);
    assert.equal(passAtK(3, 1, 3), 1);
    assert.equal(passAtK(2, 1, 3), undefined, 'fewer runs than k: not known');
    assert.equal(passAtK(2, 3, 1), undefined);
  });

  it('median: the middle one, or the mean of the middle two', () => {
    assert.equal(median([]), undefined);
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 2, 3]), 2.5);
  });

  it('cost from the price table, or null (tokens only) without a price', () => {
    assert.equal(costOf({ prompt: 1_000_000, completion: 500_000 }, { input: 0.15, output: 0.6 }), 0.45);
    assert.equal(costOf({ prompt: 10, completion: 10 }, null), null);
  });

  it('summarize: pass@1 and pass@k per kata and over the set, green and acceptance rates, totals', () => {
    const runs = [
      run('leap', 1, true),
      run('leap', 2, false),
      run('raindrops', 1, false),
      run('raindrops', 2, false, { finished_green: false }),
    ];
    const { summary, katas } = summarize(runs, 2, null);
    assert.deepEqual(
      katas.map((k) => [k.kata, k.passed, k.green, k.pass_at_1, k.pass_at_k]),
      [
        ['leap', 1, 2, 0.5, 1],
        ['raindrops', 0, 1, 0, 0],
      ],
    );
    assert.equal(summary.pass_at_1, 0.25);
    assert.equal(summary.pass_at_k, 0.5);
    assert.equal(summary.green_rate, 0.75);
    assert.equal(summary.acceptance_rate, (9 + 7 + 7 + 7) / 36);
    assert.equal(summary.medians.wall_ms, 1500);
    assert.equal(summary.totals.model_requests, 40);
    assert.equal(summary.totals.cost_usd, null);
    assert.equal(summary.totals.tool_calls_from_text, undefined);
    const one = summarize([run('leap', 1, true, { tool_calls_from_text: 2 })], 1, { input: 1, output: 1 });
    assert.equal(one.summary.pass_at_k, undefined, 'one run per kata: pass@1 only');
    assert.equal(one.summary.totals.tool_calls_from_text, 2);
  });

  it('the Markdown report is tables a person reads, with pass@k, the optional column and cells kept in one line', () => {
    const runs = [
      run('leap', 1, true),
      run('leap', 2, false, { tool_calls_from_text: 1, error: { error_code: 'X', message: 'a | b\nc' } }),
    ];
    const { summary, katas } = summarize(runs, 2, null);
    const report: EvalReport = {
      format: 'tdd-agent-eval',
      version: 1,
      started_at: '2026-11-26T07:00:00.000Z',
      finished_at: '2026-11-26T07:01:00.000Z',
      interrupted: true,
      model: 'm',
      provider: 'openai',
      language: 'javascript',
      runs_per_kata: 2,
      concurrency: 1,
      tdd_agent: { version: '0.1.0', front_end: 'cli' },
      set: { name: 'katas/eval', bundled: true, digest: '0123456789abcdef', source_commits: ['03f83310ed05'], katas: ['leap'] },
      price: null,
      machine: { sandbox: 'bubblewrap', cpus: 2, node: '20', platform: 'linux-x64' },
      summary,
      katas,
      runs,
    };
    const md = renderMarkdown(report);
    assert.match(md, /^# TDD Agent eval: m \(openai\), javascript$/m);
    assert.match(md, /\*\*Interrupted \(Ctrl-C\): only the runs that finished are here\.\*\*/);
    assert.match(md, /^\| pass@2 \| 100 % \|$/m);
    assert.match(md, /\| calls from text \|/);
    assert.match(md, /^\| leap \| 2 \| completed \| yes .* \| 1 \| — \| 2\.0 s \|$/m);
    assert.match(md, /X: a \\\| b c/);
    assert.match(md, /No price is known for m: tokens only/);
    // Which set and which tdd-agent ran: what tells two shared reports apart, and no local path.
    assert.match(
      md,
      /^Set \*\*katas\/eval\*\* \(bundled\), digest `0123456789abcdef`, exercises from source commit 03f83310ed05; tdd-agent 0\.1\.0 \(CLI\)\.$/m,
    );
    assert.doesNotMatch(md, /\/set\b/);
  });
});

describe('eval: replaying a shared report, one command everywhere', () => {
  const command = replayCommand('leap', 'python', 'recordings/leap-python-2.json');

  it('runs in the report folder, into a new temporary workspace (never the report folder itself)', () => {
    assert.equal(
      command,
      'tdd-agent kata katas/leap.md --language python --provider replay --cassette recordings/leap-python-2.json --yes --workspace "$(mktemp -d)"',
    );
  });

  it('report.md, the README and tdd-agent eval --help print that command', () => {
    const readme = readFileSync(resolve(__dirname, '..', '..', '..', 'README.md'), 'utf8');
    const generic = replayCommand('<kata>', '<lang>', 'recordings/<kata>-<lang>-<n>.json');
    assert.ok(readme.includes(generic), `README.md shows: ${generic}`);
    assert.ok(EVAL_USAGE.includes(replayCommand('<kata>', 'LANG', 'recordings/<kata>-LANG-<n>.json')), EVAL_USAGE);
    const md = renderMarkdown(
      reportOf([], {
        language: 'python',
        tdd_agent: { version: '0.1.0', front_end: 'vscode' },
        set: { name: 'my-set', bundled: false, digest: 'fedcba9876543210', source_commits: [], katas: ['leap'] },
      }),
    );
    assert.ok(md.includes(replayCommand('<kata>', 'python', 'recordings/<kata>-python-<n>.json')), md);
    assert.match(md, /^Set \*\*my-set\*\*, digest `fedcba9876543210`; tdd-agent 0\.1\.0 \(VS Code\)\.$/m);
  });
});

describe('eval: acceptance counts', () => {
  const base = { output: '', command: 'node --test', exitCode: 1, durationMs: 1 };
  it('counts each test from the report, skipped ones left out, names of the failing ones kept', () => {
    const result = acceptanceOf(
      {
        ...base,
        status: 'failed',
        passed: 1,
        failed: 1,
        total: 3,
        tests: [
          { id: 'a', name: 'a [1]', outcome: 'passed' },
          { id: 'b', name: 'b [2]', outcome: 'failed' },
          { id: 'c', name: 'c [3]', outcome: 'skipped' },
        ],
      },
      2,
    );
    assert.deepEqual([result.passed, result.total, result.failing], [1, 2, ['b [2]']]);
  });
  it("Go: a table test's subtests are the cases, not the test that holds them; only the file's own tests count", () => {
    // As go test -json names them (test/integration/cli/evalGo.test.ts runs the real thing): the session's own
    // TestIsLeap ran too, and is not a case of the acceptance file.
    const result = acceptanceOf(
      {
        ...base,
        status: 'failed',
        passed: 3,
        failed: 2,
        total: 5,
        tests: [
          { id: 'l1', name: 'TestAcceptanceIsLeap > year_2015_[1]', outcome: 'passed' },
          { id: 'l2', name: 'TestAcceptanceIsLeap > year_1900_[2]', outcome: 'failed' },
          { id: 'l', name: 'TestAcceptanceIsLeap', outcome: 'failed' },
          { id: 'o1', name: 'TestIsLeap > year_2015_[1]', outcome: 'passed' },
          { id: 'o', name: 'TestIsLeap', outcome: 'passed' },
        ],
      },
      2,
      /^TestAcceptance\w*( > |$)/,
    );
    assert.deepEqual([result.passed, result.total, result.failing], [1, 2, ['TestAcceptanceIsLeap > year_1900_[2]']]);
  });
  it('a file that could not load counts every case as failed', () => {
    const result = acceptanceOf(
      { ...base, status: 'error', passed: 0, failed: 0, total: 0, reason: 'Cannot find module src/leap.js' },
      9,
    );
    assert.deepEqual([result.passed, result.total, result.reason], [0, 9, 'Cannot find module src/leap.js']);
  });
});

describe('eval: the set', () => {
  it('loads the fixture set and selects by name or tag, only exercises with tests in the language', async () => {
    const set = await loadEvalSet(FIXTURE);
    assert.deepEqual(
      set.exercises.map((e) => e.slug),
      ['leap', 'raindrops'],
    );
    assert.deepEqual(
      selectExercises(set, [], 'python').map((e) => e.slug),
      ['leap', 'raindrops'],
    );
    assert.deepEqual(
      selectExercises(set, ['strings'], 'javascript').map((e) => e.slug),
      ['raindrops'],
    );
    assert.deepEqual(
      selectExercises(set, ['leap,strings'], 'javascript').map((e) => e.slug),
      ['leap', 'raindrops'],
    );
    assert.deepEqual(
      selectExercises(set, ['leap'], 'typescript').map((e) => e.slug),
      ['leap'],
      'TypeScript: the JavaScript tests',
    );
    assert.throws(() => selectExercises(set, ['nope'], 'javascript'), /No exercise of the eval set is named or tagged 'nope'/);
    assert.throws(
      () => selectExercises(set, [], 'go'),
      /None of the selected exercises has acceptance tests in go\. The eval set has them in javascript, typescript and python\./,
    );
  });

  it('a broken set is a CONFIG error naming the file and what is wrong', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'eval-set-'));
    try {
      await writeFile(join(dir, 'set.json'), JSON.stringify([{ slug: 'x', title: 'X', languages: { cobol: {} } }]));
      await assert.rejects(
        loadEvalSet(dir),
        (err) => isAgentError(err) && err.error_code === 'CONFIG' && /set\.json is invalid at/.test(err.message),
      );
      const entry = { module: 'x', exports: ['x'], acceptance: 'acceptance/x.test.js', cases: 1 };
      await writeFile(join(dir, 'set.json'), JSON.stringify([{ slug: 'x', title: 'X', languages: { javascript: entry } }]));
      await assert.rejects(loadEvalSet(dir), /'x' names missing files: .*x\.md, .*x\.test\.js/);
      await assert.rejects(loadEvalSet(join(dir, 'none')), /Cannot read the eval set/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the default concurrency: half the CPUs, between 1 and 4', () => {
    assert.deepEqual([1, 2, 3, 8, 64].map(defaultConcurrency), [1, 1, 1, 4, 4]);
  });
});

describe('eval: the README explains every column of the report', () => {
  const readme = readFileSync(resolve(__dirname, '..', '..', '..', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Which model should I use?'), readme.indexOf('## The command line'));
  /** The names in the first column of the README's table, each row's bold names split at commas. */
  const explained = new Set(
    [...section.matchAll(/^\| \*\*(.+?)\*\* \|/gm)].flatMap((m) => m[1]!.split(',').map((name) => name.trim())),
  );

  it('each column of the per-run table (the optional "calls from text" included) has a row', () => {
    const md = renderMarkdown(reportOf([run('leap', 1, true, { tool_calls_from_text: 2 })]));
    const header = md.split('\n').find((line) => line.startsWith('| kata | run | status |'))!;
    const columns = header
      .split('|')
      .map((c) => c.trim())
      .filter((c) => c && c !== 'kata' && c !== 'run');
    assert.ok(columns.includes('calls from text'), header);
    assert.deepEqual(
      columns.filter((c) => !explained.has(c)),
      [],
      `README rows: ${[...explained].join(', ')}`,
    );
  });

  it('cycles are green cycles: not a failed one, nor the closing KATA_COMPLETE turn; the README says why', () => {
    const cycle = (outcome: 'green' | 'failed' | 'kata_complete') => ({
      n: 1,
      outcome,
      commit: null,
      tests: { passed: 0, failed: 0 },
      phases: [],
    });
    assert.equal(greenCycles({ cycles: [cycle('green'), cycle('failed'), cycle('green'), cycle('kata_complete')] }), 2);
    assert.equal(greenCycles({ cycles: [cycle('failed'), cycle('failed')] }), 0);
    const row = section.split('\n').find((line) => line.startsWith('| **cycles** |'));
    assert.match(row ?? '', /green cycles/);
    assert.match(row ?? '', /KATA_COMPLETE/);
  });
});

describe('eval: a model without a price, said where the report is read', () => {
  it('the CLI’s report names --prices FILE, VS Code’s the tddAgent.modelPrices setting; each in the same shape', () => {
    const cli = noPriceHint({ model: 'qwen', tdd_agent: { version: '0.1.0', front_end: 'cli' } });
    assert.equal(
      cli,
      'No price is known for qwen: tokens only. To estimate the cost, run `tdd-agent eval` with `--prices FILE`: `{ "qwen": { "input": <USD per million prompt tokens>, "output": <USD per million completion tokens> } }`.',
    );
    assert.doesNotMatch(cli, /tddAgent\.modelPrices/, 'the CLI reads no VS Code setting');
    const vscode = noPriceHint({ model: 'qwen', tdd_agent: { version: '0.1.0', front_end: 'vscode' } });
    assert.match(vscode, /add it to the `tddAgent\.modelPrices` setting: `\{ "qwen": \{ "input"/);
    assert.doesNotMatch(vscode, /--prices/, 'VS Code passes no flag');
  });
});

describe('eval: a run the provider ended is not scored', () => {
  const server = { provider: 'openai', baseURL: 'http://127.0.0.1:9/v1', model: 'm', retries: 3 };

  it('the provider’s failures, not the model’s: connection, key, no provider; a model call’s timeout, rate limit or 5xx', () => {
    const yes = [
      { error_code: 'CONNECTION', details: server },
      { error_code: 'CONNECTION' },
      { error_code: 'AUTH', details: { ...server, status: 401 } },
      { error_code: 'PROVIDER_NOT_CONFIGURED' },
      { error_code: 'TIMEOUT', details: { ...server, timeoutMs: 120000 } },
      { error_code: 'RATE_LIMIT', details: { ...server, status: 429, reason: 'insufficient_quota' } },
      { error_code: 'UNKNOWN', details: { ...server, status: 502 } },
    ];
    for (const error of yes) assert.equal(isProviderFailure(error), true, JSON.stringify(error));
    const no = [
      undefined,
      { error_code: 'TIMEOUT', details: { cycle: 2 } }, // a test run that timed out: the model's code
      { error_code: 'CONTEXT_LENGTH', details: server },
      { error_code: 'RESPONSE_TOO_LARGE', details: server },
      { error_code: 'INVALID_REQUEST', details: { ...server, status: 400 } },
      { error_code: 'UNKNOWN', details: { ...server, reason: 'malformed_response' } },
      { error_code: 'GREEN_NOT_REACHED', details: { cycle: 2 } },
      { error_code: 'EXECUTION_FAILED' },
    ];
    for (const error of no) assert.equal(isProviderFailure(error), false, JSON.stringify(error));
  });

  it('summarize leaves it out of pass@k, the medians and the totals, and counts it apart', () => {
    const lost = run('leap', 2, false, {
      scored: false,
      finished_green: false,
      status: 'failed',
      model_requests: 99,
      wall_ms: 99_000,
      error: { error_code: 'CONNECTION', message: 'Could not reach the model server' },
    });
    const { summary, katas } = summarize([run('leap', 1, true), lost, run('raindrops', 1, true)], 1, null);
    assert.deepEqual([summary.runs, summary.not_scored, summary.pass_at_1, summary.green_rate], [2, 1, 1, 1]);
    assert.equal(summary.totals.model_requests, 20);
    assert.equal(summary.medians.wall_ms, 1000);
    assert.deepEqual(
      katas.map((k) => [k.kata, k.runs, k.passed]),
      [
        ['leap', 1, 1],
        ['raindrops', 1, 1],
      ],
    );
  });
});
