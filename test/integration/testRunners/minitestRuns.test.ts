import { strict as assert } from 'node:assert';
import { cpSync, existsSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createProcessSandbox } from '../../../src/core/osSandbox';
import { detectTestRunner } from '../../../src/core/testRunners/detectTestRunner';
import { detectProjectProfile } from '../../../src/core/project/detectProjectProfile';
import { MINITEST_COMMAND } from '../../../src/core/project/rubyProject';
import { requireRspec } from '../../support/rubyToolchain';
import { createWorktree, requireBubblewrap } from '../osSandbox/fixture';

/** The project of test/fixtures/minitest-output: a passing, a failing, a raising and a skipped test, and a spec-style one. */
const PROJECT = resolve('test/fixtures/minitest-output/project');
const EXPECTED = [
  'test/fizz_test.rb::FizzTest > test_buzz failed',
  'test/fizz_test.rb::FizzTest > test_error failed',
  'test/fizz_test.rb::FizzTest > test_one passed',
  'test/fizz_test.rb::FizzTest > test_skip skipped',
  'test/test_other.rb::Other > works fine passed',
];

describe('minitest in the sandbox, with the real ruby: each test by identity', function () {
  this.timeout(120_000);

  before(async function () {
    requireRspec(this); // ruby, with its minitest and rake (CI installs ruby and ruby-rspec)
    await requireBubblewrap(this);
  });

  for (const [shape, rakefile] of [
    ['ruby requiring each test file (no Rakefile)', undefined],
    [
      'rake test (a Rakefile with a test task)',
      'require "rake/testtask"\nRake::TestTask.new(:test) { |t| t.libs << "lib" << "test"; t.pattern = "test/**/{*_test,test_*}.rb" }\n',
    ],
  ] as const) {
    it(`${shape}: every test with its file, class and name; the plugin's folder stays out of git's view`, async () => {
      const fixture = createWorktree();
      try {
        cpSync(PROJECT, fixture.worktree, { recursive: true });
        if (rakefile) writeFileSync(join(fixture.worktree, 'Rakefile'), rakefile);
        const sandbox = await createProcessSandbox('auto', fixture.policy);
        // As a session runs it: the command the project profile read (minitest's needs the profile).
        const profile = await detectProjectProfile(fixture.worktree);
        const runner = await detectTestRunner(fixture.worktree, { sandbox, testCommand: profile.testCommand });
        assert.equal(runner.kind, 'minitest');
        const result = await runner.run();
        assert.equal(result.command, rakefile ? 'rake test' : MINITEST_COMMAND);
        assert.equal(result.status, 'failed', result.output);
        assert.deepEqual([result.passed, result.failed, result.total], [2, 2, 5]);
        assert.deepEqual(result.tests?.map((t) => `${t.id} ${t.outcome}`).sort(), EXPECTED);
        assert.match(result.output, /^5 runs, \d+ assertions, 1 failures, 1 errors, 1 skips$/m);
        assert.ok(existsSync(join(fixture.worktree, '.tdd/minitest/minitest/tdd_agent_plugin.rb')));
        const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all', '--', '.tdd'], {
          cwd: fixture.worktree,
          encoding: 'utf8',
        });
        assert.equal(status, '', 'the plugin and its report are ignored');
      } finally {
        fixture.cleanup();
      }
    });
  }
});
