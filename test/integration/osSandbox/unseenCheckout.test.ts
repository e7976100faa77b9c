import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createProcessSandbox } from '../../../src/core/osSandbox';
import { runProcess } from '../../../src/core/process/runProcess';
import { createWorktree, requireBubblewrap, type WorktreeFixture } from './fixture';

/**
 * A checkout outside HOME and /tmp (a devcontainer's /workspaces, /srv, here /var/tmp) is not hidden by the sandbox's
 * empty HOME and /tmp: a session hides it itself (`unseenRoots`), so a generated test cannot read the person's `.env`
 * at its own path, while git inside the sandbox still reads the repository's history (its git dir is shown again).
 */
describe('OS sandbox (real bubblewrap): the person’s checkout is not seen at its own path', function () {
  this.timeout(60_000);
  let fx: WorktreeFixture;

  before(async function () {
    await requireBubblewrap(this);
    fx = createWorktree(mkdtempSync('/var/tmp/tdd-unseen-'));
    writeFileSync(join(fx.repo, '.env'), 'OPENAI_API_KEY=sk-in-the-checkout\n');
  });
  after(() => fx?.cleanup());

  it('reads nothing of the checkout but its git dir; the worktree is writable', async () => {
    const sandbox = await createProcessSandbox('auto', { ...fx.policy, unseenRoots: [fx.repo] });
    const r = await runProcess({
      cwd: fx.worktree,
      command: `cat ${fx.repo}/.env || echo "no .env"; ls -A ${fx.repo}; git log --oneline | wc -l; echo ok > written.txt && cat written.txt`,
      shell: true,
      sandbox,
    });
    assert.doesNotMatch(r.output, /sk-in-the-checkout/);
    assert.match(r.output, /no \.env/);
    assert.match(r.output, /^\.git$/m, 'only the git dir is shown again in the checkout');
    assert.match(r.output, /^1$/m, 'git reads the history');
    assert.match(r.output, /^ok$/m);
    const open = await createProcessSandbox('auto', fx.policy);
    const without = await runProcess({ cwd: fx.worktree, command: `cat ${fx.repo}/.env`, shell: true, sandbox: open });
    assert.match(without.output, /sk-in-the-checkout/, 'control: without it, the checkout is readable here');
  });
});
