import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { isolatedEnv, useCliSession } from './cliHarness';

const ROOT = resolve(__dirname, '..', '..', '..');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built `tdd-agent` (dist/cli.js) with `args` and returns its exit code and output. */
function tddAgent(args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [join(ROOT, 'dist', 'cli.js'), ...args],
      { env, cwd, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

describe('tdd-agent: flags that contradict each other, and negative numbers as flag values (built CLI)', function () {
  this.timeout(60_000);
  const session = useCliSession('cli-flags-', { bundle: true });

  describe('provider flags', () => {
    it('--provider ollama with --base-url is a usage error naming both flags and the flag Ollama takes', async () => {
      const before = session.server.requests.length;
      const r = await tddAgent(
        ['ask', '--provider', 'ollama', '--base-url', 'http://127.0.0.1:45999/v1', '--json', 'q'],
        isolatedEnv({ OLLAMA_HOST: session.server.url }),
      );
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /--provider ollama/);
      assert.match(r.stderr, /--base-url/);
      assert.match(r.stderr, /--ollama-host http:\/\/127\.0\.0\.1:45999/);
      assert.doesNotMatch(r.stderr, /PROVIDER_NOT_CONFIGURED/);
      assert.equal(JSON.parse(r.stdout).error.error_code, 'USAGE');
      assert.equal(session.server.requests.length, before, 'nothing was asked of any server');
    });

    it('--ollama-host with --provider openai, or with --base-url, is a usage error naming both flags', async () => {
      for (const args of [
        ['--provider', 'openai', '--ollama-host', session.server.url],
        ['--base-url', session.server.baseURL, '--ollama-host', session.server.url],
      ]) {
        const r = await tddAgent(['ask', ...args, '--model', 'test-model', 'q'], isolatedEnv());
        assert.equal(r.code, 2, r.stderr);
        assert.match(r.stderr, /--ollama-host/);
        assert.match(r.stderr, args[0] === '--provider' ? /--provider openai/ : /--base-url/);
      }
    });

    it('--provider ollama with --ollama-host still works (no conflict)', async () => {
      session.server.enqueue({ json: { answer: 'local', confidence: 0.5, reasoning: 'r' } });
      const r = await tddAgent(
        ['ask', '--provider', 'ollama', '--ollama-host', session.server.url, '--model', 'test-model', '--json', 'q'],
        isolatedEnv(),
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal(JSON.parse(r.stdout).answer, 'local');
    });
  });

  describe('negative numbers', () => {
    it('--timeout -5 gets the same message as --timeout=-5 (not "ambiguous")', async () => {
      const spaced = await tddAgent(['ask', '--timeout', '-5', 'q'], isolatedEnv());
      const joined = await tddAgent(['ask', '--timeout=-5', 'q'], isolatedEnv());
      assert.equal(spaced.code, 2);
      assert.match(spaced.stderr, /--timeout must be a positive whole number, got '-5'\./);
      assert.doesNotMatch(spaced.stderr, /ambiguous/);
      assert.equal(spaced.stderr, joined.stderr);
    });

    it('the same for the session flags (--max-cycles -1, --test-timeout -0.5)', async () => {
      const cycles = await tddAgent(['kata', 'fizzbuzz', '--workspace', session.dir, '--max-cycles', '-1'], isolatedEnv());
      assert.equal(cycles.code, 2, cycles.stderr);
      assert.match(cycles.stderr, /--max-cycles must be a positive whole number, got '-1'\./);
      const timeout = await tddAgent(['kata', 'fizzbuzz', '--workspace', session.dir, '--test-timeout', '-0.5'], isolatedEnv());
      assert.equal(timeout.code, 2, timeout.stderr);
      assert.match(timeout.stderr, /--test-timeout must be a positive whole number, got '-0\.5'\./);
    });

    it('a flag that takes no value is not given the number: -5 stays an unknown option', async () => {
      const r = await tddAgent(['ask', '--json', '-5', 'q'], isolatedEnv());
      assert.equal(r.code, 2);
      assert.match(r.stderr, /Unknown option '-5'/);
    });
  });

  describe('session flags', () => {
    for (const command of [
      ['kata', 'fizzbuzz'],
      ['task', 'Add a slugify helper'],
    ]) {
      it(`${command[0]}: --resume with --from-working-tree is a usage error naming both flags`, async () => {
        const r = await tddAgent([...command, '--workspace', session.dir, '--resume', '--from-working-tree'], isolatedEnv());
        assert.equal(r.code, 2, r.stderr);
        assert.match(r.stderr, /--resume/);
        assert.match(r.stderr, /--from-working-tree/);
        assert.doesNotMatch(r.stderr, /PROVIDER_NOT_CONFIGURED|No model provider/);
      });
    }
  });
});
