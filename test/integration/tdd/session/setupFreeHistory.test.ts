/**
 * Issue 36 (3): a session's set-up — the empty first commit of a repository the session made, the scaffold's `.gitkeep`
 * placeholders — stays out of the person's history unless they take it. Real git repositories in temp folders.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAIClient } from '../../../../src/core/llm';
import { mergeSession } from '../../../../src/core/tdd/session';
import {
  historyWithoutSetup,
  leaveOutSessionSetup,
  sessionSetup,
  sessionSetupOf,
} from '../../../../src/core/tdd/session/setupFreeHistory';
import { runKataSession } from '../../../../src/core/tdd/supervisor/kataSession';
import { fizzbuzzJs } from '../../../support/fizzbuzzPlans';
import { startOpenAIServer } from '../../../support/openaiServer';
import { scriptedKataModel } from '../../../support/scriptedKataModel';
import { INITIAL_COMMIT_SUBJECT, scaffoldCommitSubject } from '../../../../src/core/tdd/git/setupCommits';

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Ada',
  GIT_AUTHOR_EMAIL: 'ada@example.invalid',
  GIT_COMMITTER_NAME: 'Ada',
  GIT_COMMITTER_EMAIL: 'ada@example.invalid',
};

describe('a session’s set-up kept out of the person’s history (issue 36)', () => {
  let dir: string;
  const git = (args: string[], env: NodeJS.ProcessEnv = {}, input?: string): string =>
    execFileSync('git', args, { cwd: dir, env: { ...process.env, ...IDENTITY, ...env }, input })
      .toString()
      .trim();
  /** A commit of `files` (path → content, null removes) on top of `parent`, dated `when` (epoch seconds). */
  const commit = (parent: string | undefined, files: Record<string, string | null>, message: string, when: number): string => {
    const index = join(dir, '.git', 'test-index');
    const env = { GIT_INDEX_FILE: index, GIT_AUTHOR_DATE: `${when} +0100`, GIT_COMMITTER_DATE: `${when} +0100` };
    if (parent) git(['read-tree', parent], env);
    else git(['read-tree', '--empty'], env);
    for (const [path, content] of Object.entries(files)) {
      if (content === null) git(['rm', '--cached', '-q', path], env);
      else
        git(
          ['update-index', '--add', '--cacheinfo', `100644,${git(['hash-object', '-w', '--stdin'], {}, content)},${path}`],
          env,
        );
    }
    return git(['commit-tree', git(['write-tree'], env), ...(parent ? ['-p', parent] : []), '-m', message], env);
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'setup-free-'));
    git(['init', '-q', '-b', 'main']);
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('leaves out the empty first commit and the .gitkeep placeholders; every other commit keeps its author, date, message and files', async () => {
    const initial = commit(undefined, {}, INITIAL_COMMIT_SUBJECT, 1_700_000_000);
    const scaffold = commit(
      initial,
      { 'package.json': '{"type":"module"}\n', '.gitignore': 'node_modules/\n', 'src/.gitkeep': '', 'test/.gitkeep': '' },
      scaffoldCommitSubject('javascript', 'FizzBuzz'),
      1_700_000_100,
    );
    const red = commit(scaffold, { 'test/fizzbuzz.test.js': 'test 1\n' }, 'test: returns the number itself', 1_700_000_200);
    const green = commit(red, { 'src/fizzbuzz.js': 'code\n' }, 'feat: returns the number itself\n\nCycle 1.', 1_700_000_300);
    git(['update-ref', 'refs/heads/tdd/fizzbuzz-1', green]);

    const setup = await sessionSetup(dir, green);
    assert.deepEqual(setup, { initialCommit: initial, placeholders: ['src/.gitkeep', 'test/.gitkeep'] });
    const history = await historyWithoutSetup(dir, green, setup!);
    assert.deepEqual(history.commits, [
      scaffoldCommitSubject('javascript', 'FizzBuzz'),
      'test: returns the number itself',
      'feat: returns the number itself',
    ]);
    assert.equal(git(['rev-list', '--count', history.tip]), '3', 'the empty first commit is gone: the scaffold is the root');
    assert.deepEqual(git(['ls-tree', '-r', '--name-only', history.tip]).split('\n').sort(), [
      '.gitignore',
      'package.json',
      'src/fizzbuzz.js',
      'test/fizzbuzz.test.js',
    ]);
    assert.equal(
      git(['log', '--date=raw', '--format=%an <%ae> %ad %cd|%B', '-1', history.tip]),
      'Ada <ada@example.invalid> 1700000300 +0100 1700000300 +0100|feat: returns the number itself\n\nCycle 1.',
    );
    assert.equal(git(['rev-parse', 'refs/heads/tdd/fizzbuzz-1']), green, 'no branch moved');
    assert.equal(git(['status', '--porcelain']), '', 'the checkout untouched');
  });

  it('finds nothing to leave out in a history without set-up', async () => {
    const first = commit(undefined, { 'a.txt': 'a\n' }, 'feat: a', 1_700_000_000);
    const second = commit(first, { 'b.txt': 'b\n' }, 'feat: b', 1_700_000_100);
    assert.equal(await sessionSetup(dir, second), undefined);
    assert.equal(await sessionSetup(dir, second, first), undefined);
  });
});

describe('a real session in a folder it made a repository: Merge brings its work without its set-up (issue 36)', function () {
  this.timeout(180_000);
  let workspace: string;
  const saved = Object.fromEntries(Object.keys(IDENTITY).map((k) => [k, process.env[k]]));
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: workspace, encoding: 'utf8', env: { ...process.env, ...IDENTITY } }).trim();

  before(() => Object.assign(process.env, IDENTITY));
  after(async () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    if (workspace) await rm(workspace, { recursive: true, force: true });
  });

  it('finds the empty first commit and the scaffold’s placeholders, moves the branch past them, and main takes the rest', async () => {
    workspace = await mkdtemp(join(tmpdir(), 'setup-free-session-'));
    const server = await startOpenAIServer({ models: ['test-model'], ollama: false });
    try {
      const script = scriptedKataModel({ cycles: fizzbuzzJs(1) });
      server.setFallback((req) => script.reply(req));
      const summary = await runKataSession({
        workspace,
        kataPath: 'fizzbuzz',
        llm: createOpenAIClient({ baseURL: server.baseURL, apiKey: 'sk-test-000', maxRetries: 0 }),
        model: 'test-model',
        provider: 'openai',
        maxCycles: 1,
        approvalPolicy: { autoApproveUpTo: 'MEDIUM' },
        testTimeoutMs: 20_000,
      });
      assert.equal(summary.status, 'max_cycles', JSON.stringify(summary.error));
      const id = summary.session!.id;
      const branch = summary.branch;
      const setup = await sessionSetupOf(workspace, id);
      assert.ok(setup?.initialCommit, 'the empty first commit');
      assert.deepEqual(setup.placeholders.sort(), ['src/.gitkeep', 'test/.gitkeep']);
      const before = git('rev-parse', branch);

      const history = await leaveOutSessionSetup(workspace, id);
      assert.ok(history);
      assert.equal(git('rev-parse', branch), history.tip, 'the session branch is the history without the set-up');
      assert.notEqual(history.tip, before);
      assert.equal(await sessionSetupOf(workspace, id), undefined, 'nothing left to leave out');
      assert.equal(await leaveOutSessionSetup(workspace, id), undefined);

      const result = await mergeSession(workspace, id);
      assert.equal(result.kind, 'unborn');
      const subjects = git('log', '--format=%s', 'main').split('\n');
      assert.ok(!subjects.some((subject) => subject === INITIAL_COMMIT_SUBJECT), subjects.join('\n'));
      assert.equal(subjects.at(-1), scaffoldCommitSubject('javascript', 'FizzBuzz'));
      assert.match(subjects[0]!, /^feat: /);
      const files = git('ls-tree', '-r', '--name-only', 'main').split('\n');
      assert.ok(!files.some((file) => file.endsWith('.gitkeep')), files.join('\n'));
      assert.equal(git('status', '--porcelain', '--untracked-files=no'), '');
    } finally {
      await server.close();
    }
  });
});
