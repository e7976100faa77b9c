import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { lstat, mkdtemp, readdir, readFile, readlink, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleGit } from 'simple-git';
import { runProcess } from '../../../src/core/process/runProcess';
import type { SupervisorEvent } from '../../../src/core/tdd/events';
import { runKataSession } from '../../../src/core/tdd/supervisor/kataSession';
import {
  fixtureRepository,
  installFixture,
  PROJECT_FIXTURES,
  treeDigest,
  type ProjectFixture,
} from '../../support/projectFixtures';
import { FIXTURE_PLANS } from '../../support/fixturePlans';
import type { RecordedRequest } from '../../support/openaiServer';
import { scriptedKataModel } from '../../support/scriptedKataModel';
import { createScriptedLlmClient } from '../../support/scriptedLlmClient';

/** A digest of the person's working tree, every file outside `.git` (ignored ones, node_modules and .venv included). */
async function checkoutDigest(dir: string): Promise<string> {
  const hash = createHash('sha256');
  for (const name of (await readdir(dir)).sort()) {
    if (name === '.git') continue;
    const path = join(dir, name);
    const info = await lstat(path);
    hash.update(`${name}\0${info.mode}\0`);
    hash.update(
      info.isDirectory() ? await treeDigest(path) : info.isSymbolicLink() ? await readlink(path) : await readFile(path),
    );
  }
  return hash.digest('hex');
}

/** Per fixture: what the profile must say, and how a person runs the project's own tests in a checkout. */
const PROJECTS: Record<
  ProjectFixture,
  {
    profile: { language: string; testRunner: string; testFilePattern: RegExp };
    /** The project's own test command, as a person runs it in a checkout of a commit (with their installed dependencies). */
    ownTest: (checkout: string, person: string) => { command: string; env?: NodeJS.ProcessEnv };
    /** Text of files that are not the project's code (docs, CI, manifests): never in a role's request. */
    notCode: string[];
  }
> = {
  'ts-vitest-pnpm': {
    profile: { language: 'typescript', testRunner: 'vitest', testFilePattern: /src\/\*\*\/\*\.test\.ts/ },
    ownTest: () => ({ command: 'npx vitest run' }),
    notCode: ['README.md', 'package.json', 'pnpm-lock.yaml'],
  },
  'js-jest': {
    profile: { language: 'javascript', testRunner: 'jest', testFilePattern: /__tests__/ },
    ownTest: () => ({ command: 'npx jest' }),
    notCode: ['README.md', 'package.json', 'package-lock.json'],
  },
  'py-src-pytest': {
    profile: { language: 'python', testRunner: 'pytest', testFilePattern: /tests\/\*\*/ },
    ownTest: (checkout, person) => ({ command: `${join(person, '.venv', 'bin', 'python')} -m pytest -q -p no:cacheprovider` }),
    notCode: ['README.md', 'pyproject.toml'],
  },
};

/** The user message of a chat request (the role's context). */
const contextOf = (request: RecordedRequest): string =>
  String(
    (request.body as { messages: Array<{ role: string; content: unknown }> }).messages.find((m) => m.role === 'user')?.content ??
      '',
  );

/**
 * Issue 23's and 24's "Done when": on each fixture project (real dependencies from the registry, installed as its
 * README says), a scripted two-cycle session given only the task sentence completes, the roles editing existing files
 * with edit_file: the profile is right, the baseline runs the real suite in the sandbox, each commit passes the
 * project's own test command, no lockfile or scaffold is added, and the person's checkout is byte-identical. Each turn
 * ends when its goal is reached (one request each), and the Implementer's first request has the Tester's new test and
 * the whole source file it imports, with no docs, CI or manifest ahead of them.
 */
describe('TDD in the person’s own project: a task in plain words on real library shapes (real installs, real runners, bubblewrap)', function () {
  this.timeout(600_000);

  for (const fixture of Object.keys(PROJECTS) as ProjectFixture[]) {
    it(`${fixture}: two green cycles from the task sentence alone, the right files in each request`, async () => {
      const plan = { ...PROJECTS[fixture], ...FIXTURE_PLANS[fixture] };
      const person = await fixtureRepository(fixture);
      const scratch = await mkdtemp(join(tmpdir(), `tdd-own-${fixture}-`));
      try {
        await installFixture(person, fixture);
        const before = { tree: await checkoutDigest(person), head: (await simpleGit(person).revparse(['HEAD'])).trim() };
        const llm = createScriptedLlmClient();
        llm.setFallback(scriptedKataModel({ cycles: plan.cycles }).reply);
        const events: SupervisorEvent[] = [];
        const summary = await runKataSession({
          workspace: person,
          task: plan.task,
          llm,
          model: 'test-model',
          provider: 'openai',
          maxCycles: 4,
          approvalPolicy: { autoApproveUpTo: 'MEDIUM' },
          testTimeoutMs: 120_000,
          onEvent: (e) => events.push(e),
        });

        assert.equal(
          summary.status,
          'completed',
          `${JSON.stringify(summary.error)}\n${JSON.stringify(events.filter((e) => e.type === 'test_run_finished').map((e) => e.type === 'test_run_finished' && e.output?.slice(-800)))}`,
        );
        assert.deepEqual(
          summary.cycles.map((c) => c.outcome),
          ['green', 'green', 'kata_complete'],
        );

        const profile = events.find((e) => e.type === 'project_profile');
        assert.ok(profile && profile.type === 'project_profile');
        assert.equal(profile.profile.language, plan.profile.language);
        assert.equal(profile.profile.testRunner, plan.profile.testRunner);
        assert.match(profile.profile.testFilePatterns.join(' '), plan.profile.testFilePattern);
        assert.equal(profile.scaffolded, false);
        assert.equal(profile.task, true);

        const baseline = events.find((e) => e.type === 'test_run_finished' && e.role === 'baseline');
        assert.ok(baseline && baseline.type === 'test_run_finished');
        assert.equal(baseline.tests.total, PROJECT_FIXTURES[fixture].tests, 'the baseline ran the whole real suite');
        assert.equal(baseline.tests.failed, 0);

        // Only what the roles wrote is on the branch: no lockfile, no scaffold, no installed files.
        const git = simpleGit(person);
        const changed = (await git.raw(['diff', '--name-only', `${before.head}..${summary.branch}`])).split('\n').filter(Boolean);
        assert.deepEqual(changed.sort(), [plan.sourcePath, plan.testPath].sort());
        const subjects = (await git.raw(['log', '--format=%s', `${before.head}..${summary.branch}`])).split('\n').filter(Boolean);
        assert.equal(subjects.length, 2, subjects.join(' | '));
        assert.ok(
          subjects.every((s) => s.startsWith('feat: ') && !/new behaviour/.test(s)),
          `each commit names its test: ${subjects.join(' | ')}`,
        );

        // One request per turn: each write reached its goal (red, then green); the refactorer and the last Tester answer.
        const requests = llm.chatRequests();
        assert.equal(requests.length, 7, 'tester, implementer, refactorer per cycle, then KATA_COMPLETE');
        // The Implementer's first request: the Tester's new test and the whole source file it imports, nothing else ahead.
        const implementer = contextOf(requests.find((r) => /agent: implementer\//.test(JSON.stringify(r.body)))!);
        const newTest = plan.cycles[0]!.tester.edits![0]!.edits.at(-1)!.replace;
        const source = await readFile(join(person, plan.sourcePath), 'utf8');
        assert.ok(implementer.includes(newTest.trim()), `the new test is in the Implementer's context:\n${implementer}`);
        assert.ok(implementer.includes(`## ${plan.sourcePath}\n\`\`\`\n${source}\n\`\`\``), 'the imported module, whole');
        const firstFile = Math.min(implementer.indexOf(`## ${plan.testPath}`), implementer.indexOf(`## ${plan.sourcePath}`));
        for (const path of plan.notCode) {
          const at = implementer.indexOf(path);
          assert.ok(at === -1 || at > firstFile, `${path} is not ahead of the code`);
        }
        for (const request of requests) {
          const context = contextOf(request);
          assert.ok(!context.includes('## README.md'), 'no README in full');
        }

        assert.equal(
          await checkoutDigest(person),
          before.tree,
          'the person’s checkout (node_modules and .venv included) is byte-identical',
        );
        assert.equal((await git.raw(['status', '--porcelain'])).trim(), '');

        // Each commit passes the project's own test command, in a checkout with the person's installed dependencies.
        const shas = (await git.raw(['rev-list', '--reverse', `${before.head}..${summary.branch}`])).split('\n').filter(Boolean);
        for (const sha of shas) {
          const checkout = join(scratch, sha.slice(0, 8));
          await git.raw(['worktree', 'add', '--detach', checkout, sha]);
          if (fixture !== 'py-src-pytest') await symlink(join(person, 'node_modules'), join(checkout, 'node_modules'));
          const own = plan.ownTest(checkout, person);
          const result = await runProcess({ cwd: checkout, command: own.command, shell: true, timeoutMs: 120_000 });
          assert.equal(result.exitCode, 0, `${sha}: ${result.output.slice(-1500)}`);
          await rm(join(checkout, 'node_modules'), { force: true });
          await git.raw(['worktree', 'remove', '--force', checkout]);
        }
      } finally {
        await rm(person, { recursive: true, force: true });
        await rm(scratch, { recursive: true, force: true });
      }
    });
  }
});
