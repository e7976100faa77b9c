import { strict as assert } from 'node:assert';
import { createProcessSandbox, SANDBOX_ENV_VARIABLE } from '../../../src/core/osSandbox';
import { runProcess } from '../../../src/core/process/runProcess';
import { createWorktree, requireBubblewrap, type WorktreeFixture } from './fixture';

/** What a host might hold that is no credential by name yet must not reach generated code. */
const HOST_ONLY = {
  DATABASE_URL: 'postgres://ada:hunter2@db.internal/prod',
  AWS_ACCESS_KEY_ID: 'AKIAEXAMPLEEXAMPLE',
  SENTRY_DSN: 'https://abc123@o1.ingest.sentry.io/1',
  KUBECONFIG: '/root/.kube/config',
};

/** `env` and bubblewrap's own PID 1 environment, as `NAME=value` lines, from inside the sandbox. */
const SHOW_ENVIRONMENTS = 'env; echo ---; tr "\\0" "\\n" < /proc/1/environ';

/**
 * A sandboxed process starts with an allow-list of the host's environment (PATH, HOME, locale, terminal, CI and
 * runner settings), plus what the person names in TDD_AGENT_SANDBOX_ENV; bubblewrap itself is started with the
 * same environment, so its PID 1 holds nothing more. Unconfined (mode 'off'), only credential-like names go.
 */
describe('OS sandbox (real bubblewrap): the environment inside is an allow-list', function () {
  this.timeout(60_000);
  let fx: WorktreeFixture;
  const env = {
    ...process.env,
    ...HOST_ONLY,
    OPENAI_API_KEY: 'sk-never',
    MYAPP_MODE: 'test',
    MYAPP_TOKEN: 'tok-prefix-only',
    DEPLOY_TOKEN: 'tok-exact',
    LC_TIME: 'C',
    CI: 'true',
    PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1',
  };

  before(async function () {
    await requireBubblewrap(this);
    fx = createWorktree();
  });
  after(() => fx?.cleanup());

  it('passes the base names only: no DATABASE_URL, AWS key or Sentry DSN, in the process or in /proc/1/environ', async () => {
    const sandbox = await createProcessSandbox('auto', fx.policy, { passEnvironment: [] });
    const r = await runProcess({ cwd: fx.worktree, command: SHOW_ENVIRONMENTS, shell: true, env, sandbox });
    assert.equal(r.exitCode, 0, r.output);
    const [inside, pid1] = r.stdout.split('---\n') as [string, string];
    for (const text of [inside, pid1]) {
      for (const [name, value] of Object.entries(HOST_ONLY)) {
        assert.ok(!text.includes(`${name}=`), `${name} got in:\n${text}`);
        assert.ok(!text.includes(value), `the value of ${name} got in`);
      }
      assert.ok(!text.includes('sk-never') && !text.includes('tok-'), text);
      assert.match(text, /^PATH=/m);
      assert.match(text, /^LC_TIME=C$/m);
      assert.match(text, /^CI=true$/m);
      assert.match(text, /^PYTEST_DISABLE_PLUGIN_AUTOLOAD=1$/m);
      assert.doesNotMatch(text, /^MYAPP_MODE=/m);
    }
  });

  it(`passes what the person names in ${SANDBOX_ENV_VARIABLE}: a credential-like name only when named exactly`, async () => {
    const saved = process.env[SANDBOX_ENV_VARIABLE];
    process.env[SANDBOX_ENV_VARIABLE] = ' DATABASE_URL, MYAPP_*, DEPLOY_TOKEN,OPENAI_API_KEY ';
    try {
      const sandbox = await createProcessSandbox('auto', fx.policy);
      const r = await runProcess({ cwd: fx.worktree, command: 'env', shell: true, env, sandbox });
      assert.equal(r.exitCode, 0, r.output);
      assert.match(r.stdout, /^DATABASE_URL=postgres:\/\/ada:hunter2@db\.internal\/prod$/m);
      assert.match(r.stdout, /^MYAPP_MODE=test$/m, 'a prefix lets ordinary names through');
      assert.doesNotMatch(r.stdout, /MYAPP_TOKEN/, 'a prefix never lets a credential-like name through');
      assert.match(r.stdout, /^DEPLOY_TOKEN=tok-exact$/m, 'named exactly, it passes');
      assert.doesNotMatch(r.stdout, /OPENAI_API_KEY|sk-never/, "the product's own key never passes");
      assert.doesNotMatch(r.stdout, /AWS_ACCESS_KEY_ID|SENTRY_DSN/);
    } finally {
      if (saved === undefined) delete process.env[SANDBOX_ENV_VARIABLE];
      else process.env[SANDBOX_ENV_VARIABLE] = saved;
    }
  });

  it("mode 'off' keeps today's environment: everything but credential-like names", async () => {
    const sandbox = await createProcessSandbox('off', fx.policy);
    const r = await runProcess({ cwd: fx.worktree, command: 'env', shell: true, env, sandbox });
    assert.equal(r.exitCode, 0, r.output);
    assert.match(r.stdout, /^DATABASE_URL=/m);
    assert.match(r.stdout, /^MYAPP_MODE=test$/m);
    assert.doesNotMatch(r.stdout, /OPENAI_API_KEY|MYAPP_TOKEN|DEPLOY_TOKEN/);
  });
});
