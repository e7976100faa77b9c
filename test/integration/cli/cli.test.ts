import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { simpleGit } from 'simple-git';
import { SessionSummarySchema } from '../../../src/core/tdd/sessionSummary';
import { FIZZBUZZ_WITHOUT_EXAMPLES, fizzbuzzJs } from '../../support/fizzbuzzPlans';
import { scriptedKataModel } from '../../support/scriptedKataModel';
import { cli, isolatedEnv, kataArgs, useCliSession } from './cliHarness';
import { ensureCliBundle } from '../../support/cliBundle';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '..', '..', '..');
const KEY = 'sk-cli-secret-key-abcdef123456';

describe('tdd-agent CLI', function () {
  this.timeout(120_000);
  const session = useCliSession('cli-');

  describe('ask and cot', () => {
    it('answers a question about some lines of a file through --base-url', async () => {
      await writeFile(join(session.dir, 'add.js'), 'function add(a, b) {\n  return a - b;\n}\n');
      session.server.enqueue({
        json: { answer: 'It subtracts instead of adding.', confidence: 0.9, reasoning: 'line 2 uses minus' },
      });
      const r = await cli(
        [
          'ask',
          '--base-url',
          session.server.baseURL,
          '--model',
          'test-model',
          '--file',
          join(session.dir, 'add.js'),
          '--lines',
          '1-2',
          'What is wrong?',
        ],
        isolatedEnv(),
      );
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /It subtracts instead of adding\./);
      assert.match(r.stdout, /confidence: 0\.90/);
      const user = String(session.server.chatRequests()[0]!.body.messages.at(-1).content);
      assert.match(user, /What is wrong\?/);
      assert.match(user, /1 \| function add/);
      assert.doesNotMatch(user, /3 \| \}/, 'only the chosen lines are sent');
    });

    it('shows control characters in an answer visibly instead of sending them to the terminal', async () => {
      session.server.enqueue({
        json: { answer: 'fine\u001b[1A\u001b[2K\u001b]0;owned\u0007', confidence: 0.5, reasoning: '\u009b31m' },
      });
      const r = await cli(['ask', '--base-url', session.server.baseURL, '--model', 'test-model', 'Is it fine?'], isolatedEnv());
      assert.equal(r.code, 0, r.stderr);
      // eslint-disable-next-line no-control-regex -- the test looks for terminal control characters
      assert.doesNotMatch(r.stdout, /[\u001b\u0007\u009b]/);
      assert.match(r.stdout, /fine\\x1b\[1A\\x1b\[2K\\x1b\]0;owned\\x07/);
    });

    it('honours OPENAI_BASE_URL and prints machine output with --json', async () => {
      session.server.enqueue({ json: { answer: '42', confidence: 1.7, reasoning: '' } });
      const r = await cli(
        ['ask', '--json', '--model', 'test-model', 'Meaning of life?'],
        isolatedEnv({ OPENAI_BASE_URL: session.server.baseURL }),
      );
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout);
      assert.equal(out.answer, '42');
      assert.equal(out.confidence, 1, 'confidence is clamped to 0..1');
      assert.equal(out.metadata.prompt, 'qa/v1');
    });

    it('explains step by step with the CoT agent', async () => {
      session.server.enqueue({
        json: {
          step1: 'Read the loop.',
          step2: 'i never changes.',
          step3: '',
          step4: '',
          step5: '',
          final_answer: 'Increment i.',
          confidence: 0.8,
        },
      });
      const r = await cli(['cot', '--base-url', session.server.baseURL, '--model', 'm', 'Why does it hang?'], isolatedEnv());
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /1\. Read the loop\.\n2\. i never changes\.\n\nAnswer: Increment i\./);
    });

    it('never prints the API key, also when the server rejects it', async () => {
      session.server.enqueue({
        error: {
          status: 401,
          type: 'invalid_request_error',
          code: 'invalid_api_key',
          message: `Incorrect API key provided: ${KEY}`,
        },
      });
      const r = await cli(
        ['ask', '--model', 'm', 'hello?'],
        isolatedEnv({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: session.server.baseURL }),
      );
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /AUTH/);
      assert.ok(!r.stderr.includes(KEY) && !r.stdout.includes(KEY), 'the key leaked into the output');
      assert.equal(session.server.chatRequests()[0]!.headers.authorization, `Bearer ${KEY}`, 'the key did reach the server');
    });
  });

  describe('usage and configuration errors exit 2 with one clear line', () => {
    const cases: Array<[string, string[], RegExp]> = [
      ['an unknown command', ['frobnicate'], /Unknown command 'frobnicate'/],
      ['an unknown flag', ['ask', '--nope', 'q'], /Unknown option '--nope'/],
      ['a bad line range', ['ask', '--file', 'x.js', '--lines', '9-3', 'q'], /must start at 1 or later and not run backwards/],
      ['no question', ['ask'], /Give a question/],
      ['a bad provider', ['kata', 'fizzbuzz', '--provider', 'magic'], /--provider must be one of auto, openai, ollama, replay/],
      ['replay without a cassette', ['kata', 'fizzbuzz', '--provider', 'replay'], /needs --cassette FILE/],
      ['an unknown kata', ['kata', 'no-such-kata', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm'], /no-such-kata/],
    ];
    for (const [what, argv, message] of cases) {
      it(what, async () => {
        const r = await cli(argv, isolatedEnv());
        assert.equal(r.code, 2, r.stderr);
        assert.match(r.stderr, message);
        assert.equal(r.stderr.trim().split('\n').length, 1, `one line, got: ${r.stderr}`);
        assert.equal(r.stdout, '', 'nothing on stdout without --json');
      });
      it(`${what}, with --json: one JSON error object on stdout`, async () => {
        const r = await cli([...argv, '--json'], isolatedEnv());
        assert.equal(r.code, 2, r.stderr);
        const out = JSON.parse(r.stdout);
        assert.deepEqual(Object.keys(out), ['status', 'error']);
        assert.equal(out.status, 'error');
        assert.match(out.error.error_code, /^(USAGE|CONFIG|VALIDATION)$/);
        assert.match(out.error.message, message);
      });
    }

    it('no provider anywhere names every way to configure one', async () => {
      const r = await cli(['ask', 'hello?'], isolatedEnv());
      assert.equal(r.code, 2);
      assert.match(r.stderr, /PROVIDER_NOT_CONFIGURED/);
      assert.match(r.stderr, /OPENAI_API_KEY/);
      assert.match(r.stderr, /--base-url/);
      assert.match(r.stderr, /OLLAMA_HOST/);
    });
  });

  describe('kata', () => {
    it('runs a session, prints progress on stderr and exactly one JSON summary on stdout', async () => {
      session.server.setFallback(scriptedKataModel({ cycles: fizzbuzzJs(2) }).reply);
      const r = await cli(
        [...kataArgs(FIZZBUZZ_WITHOUT_EXAMPLES, session.dir, session.server.baseURL), '--yes', '--json'],
        isolatedEnv(),
      );
      assert.equal(r.code, 0, r.stderr);
      const summary = SessionSummarySchema.parse(JSON.parse(r.stdout));
      assert.equal(summary.status, 'completed');
      assert.equal(summary.totals.commits, 2);
      assert.match(r.stderr, /Cycle 1\n {2}red: Tester/);
      assert.match(r.stderr, /commit [0-9a-f]{7} feat: returns the number itself for 1/);
      assert.equal(r.stdout.trim().split('\n').length, 1);
    });

    it('without --yes and without a terminal, denies writes and says why', async () => {
      session.server.setFallback(scriptedKataModel({ cycles: fizzbuzzJs(1) }).reply);
      const r = await cli(
        [...kataArgs('fizzbuzz', session.dir, session.server.baseURL), '--max-cycles', '1', '--json'],
        isolatedEnv(),
      );
      assert.equal(r.code, 1);
      const toolMessages = session.server
        .chatRequests()
        .flatMap((q) => q.body.messages)
        .filter((m: { role: string }) => m.role === 'tool');
      assert.ok(
        toolMessages.some((m: { content: string }) => /Nothing was executed or changed/i.test(m.content)),
        'the model is told nothing changed',
      );
    });
  });

  describe('the built binary', () => {
    before(async function () {
      this.timeout(60_000);
      await ensureCliBundle();
    });

    it('`demo` replays the bundled FizzBuzz session into a fresh workspace with green commits', async () => {
      const { stdout, stderr } = await run('node', [join(ROOT, 'dist', 'cli.js'), 'demo', '--workspace', session.dir, '--json'], {
        env: isolatedEnv(),
        timeout: 110_000,
      });
      const summary = SessionSummarySchema.parse(JSON.parse(stdout));
      assert.equal(summary.status, 'completed');
      assert.match(stderr, new RegExp(`Demo workspace: ${session.dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      const log = await simpleGit(session.dir).log([summary.branch]);
      assert.ok(log.all.filter((c) => c.message.startsWith('feat:')).length >= 4);
    });

    it('prints usage with --help and exits 2 without a command', async () => {
      const help = await run('node', [join(ROOT, 'dist', 'cli.js'), '--help']);
      assert.match(help.stdout, /tdd-agent kata <kata\.md\|name>/);
      await assert.rejects(run('node', [join(ROOT, 'dist', 'cli.js')]), (e: { code?: number }) => e.code === 2);
    });
  });
});
