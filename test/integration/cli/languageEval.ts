import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EvalReport } from '../../../src/core/eval';
import { acceptanceLanguages } from '../../../src/core/eval/acceptanceRuns';
import { LANGUAGES } from '../../../src/core/vocabulary';
import type { EvalPlayer } from '../../support/evalPlayers';
import { startOpenAIServer, type OpenAITestServer } from '../../support/openaiServer';
import { wholeSetPlayer, type WholeSetLanguage } from '../../support/wholeSetPlayers';
import { requireBubblewrap } from '../osSandbox/fixture';
import { cli, isolatedEnv } from './cliHarness';

/** What tells one language's eval apart: its toolchain, its runner's words, and how a held-back case is named. */
export interface LanguageEval {
  language: WholeSetLanguage;
  /** The runner, as the suite's title and messages say it ("the real go toolchain"). */
  runner: string;
  /** Skips (or on CI fails) when the toolchain is missing. */
  requireToolchain: (context: Mocha.Context) => void;
  /** How a failing held-back case is named: by its canonical case, ending with the case's UUID. */
  failingCase: RegExp;
}

// The generic players of test/support/wholeSetPlayers.ts on three katas — a boolean (leap), an error for bad input
// (hamming), a map (word-count) — through the built CLI and the language's real runner in the sandbox.
const KATAS = ['leap', 'hamming', 'word-count'];
const CASES: Record<string, number> = { leap: 9, hamming: 9, 'word-count': 14 };
// What a refusal lists: every language with a row of ACCEPTANCE_RUNS, in LANGUAGES' order, the last after 'and'.
const withEval = acceptanceLanguages();
const LANGUAGES_WITH_EVAL = `The eval set has them in ${withEval.slice(0, -1).join(', ')} and ${withEval[withEval.length - 1]}.`;
/** A language of the product with no eval set yet, if one is left. */
const WITHOUT_EVAL = LANGUAGES.find((l) => !withEval.includes(l));

/** The eval of a language other than JavaScript and Python: the disciplined player passes, the hard-coder does not. */
export function describeLanguageEval({ language, runner, requireToolchain, failingCase }: LanguageEval): void {
  describe(`tdd-agent eval --language ${language}: the bundled set with ${runner}`, function () {
    this.timeout(600_000);
    let server: OpenAITestServer;
    let dir: string;

    before(async function () {
      requireToolchain(this);
      await requireBubblewrap(this);
      server = await startOpenAIServer();
      dir = await mkdtemp(join(tmpdir(), `cli-eval-${language}-`));
    });
    after(async () => {
      await server?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    async function evaluate(player: EvalPlayer): Promise<EvalReport> {
      server.setFallback(wholeSetPlayer(player, language));
      const args = ['eval', '--language', language, '--katas', KATAS.join(','), '--out', join(dir, player)];
      const model = ['--base-url', server.baseURL, '--model', 'test-model'];
      const result = await cli([...args, '--concurrency', '2', '--json', ...model], isolatedEnv());
      assert.equal(result.code, 0, result.stderr);
      const report = JSON.parse(result.stdout) as EvalReport;
      assert.equal(report.language, language);
      assert.deepEqual(report.runs.map((r) => r.kata).sort(), [...KATAS].sort());
      return report;
    }

    const line = (run: EvalReport['runs'][number]): string =>
      `${run.kata}: ${JSON.stringify(run.error)} ${run.status} ${run.cycles} ${JSON.stringify(run.discipline)} ` +
      `${run.acceptance.passed}/${run.acceptance.total} ${run.acceptance.reason ?? ''}`;

    it('disciplined: every session green, every held-back case passed, counted by test identity', async () => {
      const report = await evaluate('disciplined');
      for (const run of report.runs) {
        assert.equal(run.finished_green, true, line(run));
        // Each canonical case once: what holds the cases (a table test, a data provider) is no case, and the
        // session's own tests are not counted.
        assert.deepEqual([run.acceptance.passed, run.acceptance.total], [CASES[run.kata], CASES[run.kata]], line(run));
        assert.equal(run.acceptance.status, 'passed');
        assert.equal(run.acceptance.failing, undefined);
        assert.equal(run.discipline.violations, 0);
        assert.equal(run.discipline.red_commits, 0, `each commit passes with ${runner} again on a checkout of it`);
        assert.ok(run.discipline.commits_checked >= 1);
        assert.equal(run.passed, true);
      }
      assert.equal(report.summary.pass_at_1, 1);
    });

    it('hard-coder: every session green, yet the held-back cases fail, each named', async () => {
      const report = await evaluate('hardcoder');
      for (const run of report.runs) {
        assert.equal(run.finished_green, true, line(run));
        assert.equal(run.discipline.violations, 0);
        assert.equal(run.acceptance.status, 'failed', line(run));
        assert.equal(run.acceptance.total, CASES[run.kata]);
        assert.ok(run.acceptance.passed < run.acceptance.total, line(run));
        const failing = run.acceptance.failing ?? [];
        assert.equal(failing.length, run.acceptance.total - run.acceptance.passed, line(run));
        for (const name of failing) assert.match(name, failingCase);
        assert.equal(run.passed, false);
      }
      assert.equal(report.summary.green_rate, 1);
      assert.equal(report.summary.pass_at_1, 0);
    });

    it(`--list --json shows ${language} for the katas that have its acceptance tests; bowling, which has none, is refused`, async () => {
      const list = await cli(['eval', '--list', '--json'], isolatedEnv());
      assert.equal(list.code, 0, list.stderr);
      const exercises = (JSON.parse(list.stdout) as { exercises: Array<{ slug: string; languages: string[] }> }).exercises;
      const inLanguage = exercises.filter((e) => e.languages.includes(language)).map((e) => e.slug);
      assert.ok(inLanguage.length >= 12, inLanguage.join(', '));
      for (const slug of KATAS) assert.ok(inLanguage.includes(slug));
      assert.ok(!inLanguage.includes('bowling'));

      const model = ['--base-url', server.baseURL, '--model', 'test-model'];
      const bowling = await cli(['eval', '--language', language, '--katas', 'bowling', ...model], isolatedEnv());
      assert.equal(bowling.code, 2, bowling.stderr);
      assert.match(bowling.stderr, new RegExp(`None of the selected exercises has acceptance tests in ${language}\\.`));
      assert.ok(bowling.stderr.includes(LANGUAGES_WITH_EVAL), bowling.stderr);
      // A language without an eval set at all is refused the same way.
      if (!WITHOUT_EVAL) return;
      const none = await cli(['eval', '--language', WITHOUT_EVAL, ...model], isolatedEnv());
      assert.equal(none.code, 2, none.stderr);
      assert.ok(none.stderr.includes(`None of the selected exercises has acceptance tests in ${WITHOUT_EVAL}.`), none.stderr);
      assert.ok(none.stderr.includes(LANGUAGES_WITH_EVAL), none.stderr);
    });
  });
}
