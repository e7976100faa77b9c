import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createProcessSandbox } from '../../../src/core/osSandbox';
import { runProcess } from '../../../src/core/process/runProcess';
import { createWorktree, requireBubblewrap, type WorktreeFixture } from './fixture';

/**
 * The repository's common git dir is readable inside (git works in the tests), but its config is shown as a
 * sanitised copy: remote URLs without the token, no include, no credential helper, no extra HTTP header, no
 * `insteadOf` rewrite carrying a token; a credential store kept in the git dir reads as empty. git log still works.
 */
describe('OS sandbox (real bubblewrap): the git config inside holds no credentials', function () {
  this.timeout(60_000);
  let fx: WorktreeFixture;
  const TOKENS = ['ghp_REMOTE', 'ghp_HEADER', 'ghp_STORE', 'ghp_INSTEADOF', 'SIGNING_SECRET'];

  before(async function () {
    await requireBubblewrap(this);
    fx = createWorktree();
    const git = (...args: string[]) => execFileSync('git', ['-C', fx.repo, ...args], { encoding: 'utf8' });
    git('remote', 'add', 'origin', 'https://ada:ghp_REMOTE@github.com/ada/kata.git');
    git('config', 'remote.mirror.url', 'ada:ghp_REMOTE@example.com:kata.git');
    git('config', 'http.https://github.com/.extraHeader', 'Authorization: Bearer ghp_HEADER');
    git('config', 'credential.helper', `store --file=${join(fx.commonDir, 'credentials')}`);
    git('config', 'url.https://x:ghp_INSTEADOF@github.com/.insteadOf', 'https://github.com/');
    git('config', 'include.path', join(fx.root, 'included.gitconfig'));
    git('config', 'includeIf.gitdir:/.path', join(fx.root, 'included.gitconfig'));
    git('config', 'core.sshCommand', 'ssh -i /root/.ssh/deploy_key');
    writeFileSync(join(fx.root, 'included.gitconfig'), '[user]\n\tsigningkey = SIGNING_SECRET\n');
    writeFileSync(join(fx.commonDir, 'credentials'), 'https://ada:ghp_STORE@github.com\n');
  });
  after(() => fx?.cleanup());

  it('cat of the config and git config --list show no token, while git log and git remote still work', async () => {
    const before = readFileSync(join(fx.commonDir, 'config'), 'utf8');
    assert.match(before, /ghp_REMOTE/, 'the fixture holds the token outside');
    const sandbox = await createProcessSandbox('auto', fx.policy);
    const r = await runProcess({
      cwd: fx.worktree,
      command: `cat "${join(fx.commonDir, 'config')}"; echo ---; git config --list; echo ---; git config --local --list; echo ---; cat "${join(fx.commonDir, 'credentials')}"; echo ---; git log --format=%s; git remote -v`,
      shell: true,
      sandbox,
    });
    assert.equal(r.exitCode, 0, r.output);
    for (const token of TOKENS) assert.ok(!r.output.includes(token), `${token} is visible inside:\n${r.output}`);
    const [shown, , local] = r.stdout.split('---\n') as [string, string, string];
    for (const text of [shown, local]) assert.doesNotMatch(text, /include|credential|extraheader|insteadof|sshcommand/i);
    assert.match(r.output, /^remote\.origin\.url=https:\/\/github\.com\/ada\/kata\.git$/m);
    assert.match(r.output, /^remote\.mirror\.url=example\.com:kata\.git$/m);
    assert.match(r.output, /^init$/m, 'git log reads the history');
    assert.match(r.output, /^origin\thttps:\/\/github\.com\/ada\/kata\.git \(fetch\)$/m);
    assert.equal(readFileSync(join(fx.commonDir, 'config'), 'utf8'), before, 'the real config is untouched');
  });

  it('writes the copy again when a temp-folder cleaner removed it, so the original never shows', async () => {
    const sandbox = await createProcessSandbox('auto', fx.policy);
    const config = join(fx.commonDir, 'config');
    const wrapped = sandbox.wrap({ command: 'true', args: [], shell: false, cwd: fx.worktree, env: process.env });
    await wrapped.release?.({ exitCode: 0, signal: null, output: '' }); // never spawned: undo what wrap set up
    const args = wrapped.args;
    const copy = args.find((arg, i) => args[i - 1] === '--ro-bind' && args[i + 1] === config)!;
    assert.ok(copy && copy !== config, `no overlay over ${config} in ${args.join(' ')}`);
    rmSync(dirname(copy), { recursive: true, force: true });
    const r = await runProcess({ cwd: fx.worktree, command: `cat "${config}"`, shell: true, sandbox });
    assert.equal(r.exitCode, 0, r.output);
    assert.match(r.stdout, /url = "https:\/\/github\.com\/ada\/kata\.git"/);
    assert.ok(!r.output.includes('ghp_'), r.output);
  });

  it('follows a config that changes between sandboxes', async () => {
    execFileSync('git', ['-C', fx.repo, 'config', 'remote.upstream.url', 'https://bob:ghp_REMOTE@example.org/up.git']);
    const sandbox = await createProcessSandbox('auto', fx.policy);
    const r = await runProcess({ cwd: fx.worktree, command: 'git config --get remote.upstream.url', shell: true, sandbox });
    assert.equal(r.stdout, 'https://example.org/up.git\n', r.output);
  });
});
