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
import { scriptedKataModel, type CyclePlan } from '../../support/scriptedKataModel';
import { createScriptedLlmClient } from '../../support/scriptedLlmClient';

const TASK = 'Add a clamp helper that keeps a value within a range';

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

/** Per fixture: the new test file and source file a competent model writes in two cycles, and what the profile must say. */
const PLANS: Record<
  ProjectFixture,
  {
    testPath: string;
    sourcePath: string;
    tests: [string, string];
    sources: [string, string];
    profile: { language: string; testRunner: string; testFilePattern: RegExp };
    /** The project's own test command, as a person runs it in a checkout of a commit (with their installed dependencies). */
    ownTest: (checkout: string, person: string) => { command: string; env?: NodeJS.ProcessEnv };
  }
> = {
  'ts-vitest-pnpm': {
    testPath: 'src/clamp.test.ts',
    sourcePath: 'src/clamp.ts',
    tests: [
      `import { describe, expect, it } from 'vitest';\nimport { clamp } from './clamp.js';\n\ndescribe('clamp', () => {\n  it('keeps a value inside the range', () => {\n    expect(clamp(5, 0, 10)).toBe(5);\n  });\n});\n`,
      `import { describe, expect, it } from 'vitest';\nimport { clamp } from './clamp.js';\n\ndescribe('clamp', () => {\n  it('keeps a value inside the range', () => {\n    expect(clamp(5, 0, 10)).toBe(5);\n  });\n\n  it('raises a value below the range to its lower bound', () => {\n    expect(clamp(-3, 0, 10)).toBe(0);\n  });\n});\n`,
    ],
    sources: [
      `/** A value kept within [min, max]. */\nexport function clamp(value: number, min: number, max: number): number {\n  void min;\n  void max;\n  return value;\n}\n`,
      `/** A value kept within [min, max]. */\nexport function clamp(value: number, min: number, max: number): number {\n  return Math.min(Math.max(value, min), max);\n}\n`,
    ],
    profile: { language: 'typescript', testRunner: 'vitest', testFilePattern: /src\/\*\*\/\*\.test\.ts/ },
    ownTest: () => ({ command: 'npx vitest run' }),
  },
  'js-jest': {
    testPath: '__tests__/clamp.test.js',
    sourcePath: 'src/clamp.js',
    tests: [
      `'use strict';\n\nconst { clamp } = require('../src/clamp');\n\ndescribe('clamp', () => {\n  test('keeps a value inside the range', () => {\n    expect(clamp(5, 0, 10)).toBe(5);\n  });\n});\n`,
      `'use strict';\n\nconst { clamp } = require('../src/clamp');\n\ndescribe('clamp', () => {\n  test('keeps a value inside the range', () => {\n    expect(clamp(5, 0, 10)).toBe(5);\n  });\n\n  test('raises a value below the range to its lower bound', () => {\n    expect(clamp(-3, 0, 10)).toBe(0);\n  });\n});\n`,
    ],
    sources: [
      `'use strict';\n\n/** A value kept within [min, max]. */\nfunction clamp(value) {\n  return value;\n}\n\nmodule.exports = { clamp };\n`,
      `'use strict';\n\n/** A value kept within [min, max]. */\nfunction clamp(value, min, max) {\n  return Math.min(Math.max(value, min), max);\n}\n\nmodule.exports = { clamp };\n`,
    ],
    profile: { language: 'javascript', testRunner: 'jest', testFilePattern: /__tests__/ },
    ownTest: () => ({ command: 'npx jest' }),
  },
  'py-src-pytest': {
    testPath: 'tests/test_clamp.py',
    sourcePath: 'src/verbump/clamp.py',
    tests: [
      `from verbump.clamp import clamp\n\n\ndef test_keeps_a_value_inside_the_range():\n    assert clamp(5, 0, 10) == 5\n`,
      `from verbump.clamp import clamp\n\n\ndef test_keeps_a_value_inside_the_range():\n    assert clamp(5, 0, 10) == 5\n\n\ndef test_raises_a_value_below_the_range_to_its_lower_bound():\n    assert clamp(-3, 0, 10) == 0\n`,
    ],
    sources: [
      `"""A value kept within a range."""\n\n\ndef clamp(value, low, high):\n    return value\n`,
      `"""A value kept within a range."""\n\n\ndef clamp(value, low, high):\n    return min(max(value, low), high)\n`,
    ],
    profile: { language: 'python', testRunner: 'pytest', testFilePattern: /tests\/\*\*/ },
    ownTest: (checkout, person) => ({ command: `${join(person, '.venv', 'bin', 'python')} -m pytest -q -p no:cacheprovider` }),
  },
};

/**
 * Issue 23's "Done when": on each fixture project (real dependencies from the registry, installed as its README
 * says), a scripted two-cycle session given only the task sentence completes: the profile is right, the baseline
 * runs the real suite in the sandbox, each commit passes the project's own test command, no lockfile or scaffold is
 * added, and the person's checkout is byte-identical.
 */
describe('TDD in the person’s own project: a task in plain words on real library shapes (real installs, real runners, bubblewrap)', function () {
  this.timeout(600_000);

  for (const fixture of Object.keys(PLANS) as ProjectFixture[]) {
    it(`${fixture}: two green cycles from the task sentence alone`, async () => {
      const plan = PLANS[fixture];
      const person = await fixtureRepository(fixture);
      const scratch = await mkdtemp(join(tmpdir(), `tdd-own-${fixture}-`));
      try {
        await installFixture(person, fixture);
        const before = { tree: await checkoutDigest(person), head: (await simpleGit(person).revparse(['HEAD'])).trim() };
        const cycles: CyclePlan[] = [0, 1].map((i) => ({
          tester: { writes: [{ path: plan.testPath, content: plan.tests[i as 0 | 1] }], report: 'one new behaviour' },
          implementer: { writes: [{ path: plan.sourcePath, content: plan.sources[i as 0 | 1] }], report: 'make it pass' },
        }));
        const llm = createScriptedLlmClient();
        llm.setFallback(scriptedKataModel({ cycles }).reply);
        const events: SupervisorEvent[] = [];
        const summary = await runKataSession({
          workspace: person,
          task: TASK,
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
        assert.ok(
          subjects.some((s) => /raises a value below the range to its lower bound/i.test(s)),
          subjects.join(' | '),
        );

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
