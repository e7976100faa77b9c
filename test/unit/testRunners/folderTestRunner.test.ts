import { strict as assert } from 'node:assert';
import { runnerInFolder } from '../../../src/core/testRunners/folderTestRunner';
import type { TestRunner, TestRunOptions, TestRunResult } from '../../../src/core/testRunners/types';
import { kataInFolder } from '../../../src/core/tdd/kata';
import { taskKata } from '../../../src/core/tdd/kata';

/** A runner that records what it was asked and answers with paths relative to its own folder, as a real one does. */
function recordingRunner(asked: TestRunOptions[]): TestRunner {
  return {
    name: 'vitest',
    command: 'vitest run',
    run(options: TestRunOptions = {}): Promise<TestRunResult> {
      asked.push(options);
      return Promise.resolve({
        status: 'failed',
        passed: 1,
        failed: 1,
        total: 2,
        output: '',
        command: 'vitest run',
        exitCode: 1,
        durationMs: 1,
        tests: [
          { id: 'test/a.test.ts::adds', name: 'adds', file: 'test/a.test.ts', outcome: 'passed' },
          { id: 'no file', name: 'no file', outcome: 'failed' },
        ],
        relatedFiles: ['test/a.test.ts'],
      });
    },
  };
}

describe('a workspace package’s runner, seen from the repository’s root', () => {
  it('gives the runner its own paths and the session the root’s; files of other packages are not its tests', async () => {
    const asked: TestRunOptions[] = [];
    const runner = runnerInFolder(recordingRunner(asked), 'packages/app');
    const result = await runner.run({
      only: {
        testFiles: ['packages/app/test/a.test.ts', 'packages/other/test/b.test.ts'],
        sourceFiles: ['packages/app/src/a.ts', 'README.md'],
      },
    });
    assert.deepEqual(asked[0]!.only, { testFiles: ['test/a.test.ts'], sourceFiles: ['src/a.ts'] });
    assert.deepEqual(
      result.tests!.map((t) => [t.id, t.file]),
      [
        ['packages/app/test/a.test.ts::adds', 'packages/app/test/a.test.ts'],
        ['no file', undefined],
      ],
    );
    assert.deepEqual(result.relatedFiles, ['packages/app/test/a.test.ts']);
  });

  it('runs the whole suite when nothing of the subset is in the package', async () => {
    const asked: TestRunOptions[] = [];
    await runnerInFolder(recordingRunner(asked), 'packages/app').run({ only: { testFiles: ['other/x.test.ts'] } });
    assert.equal(asked[0]!.only, undefined);
  });

  it('the kata’s folders and test patterns are given from the root', () => {
    const kata = { ...taskKata('add a rule'), sourceDir: 'src', testDir: '.', testFilePatterns: ['**/*.test.ts', './test/**'] };
    const moved = kataInFolder(kata, 'packages/app');
    assert.equal(moved.sourceDir, 'packages/app/src');
    assert.equal(moved.testDir, 'packages/app');
    assert.deepEqual(moved.testFilePatterns, ['packages/app/**/*.test.ts', 'packages/app/test/**']);
    assert.equal(moved.folder, 'packages/app');
  });
});
