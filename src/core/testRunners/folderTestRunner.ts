import type { TestCaseResult, TestRunner, TestRunOptions, TestRunResult, TestSubset } from './types';

/**
 * A runner of a project in a folder of the repository (a workspace package, `packages/app`), seen from the repository's
 * root: it runs in that folder, and the paths it takes and gives are the root's (`packages/app/test/a.test.ts`), as
 * the session's git, file tools and role boundaries use them. A subset's files outside the folder are not the
 * project's tests and are left out; when none is left, the whole suite runs.
 */
export function runnerInFolder(runner: TestRunner, folder: string): TestRunner {
  const prefix = `${folder.replace(/\/+$/, '')}/`;
  const inside = (files: readonly string[] | undefined) =>
    (files ?? []).filter((file) => file.startsWith(prefix)).map((file) => file.slice(prefix.length));
  const subset = (only: TestSubset | undefined): TestSubset | undefined => {
    if (!only) return undefined;
    const testFiles = inside(only.testFiles);
    const sourceFiles = inside(only.sourceFiles);
    return testFiles.length || sourceFiles.length ? { testFiles, ...(only.sourceFiles ? { sourceFiles } : {}) } : undefined;
  };
  const fromRoot = (test: TestCaseResult): TestCaseResult =>
    test.file
      ? { ...test, file: prefix + test.file, id: test.id.startsWith(`${test.file}::`) ? prefix + test.id : test.id }
      : test;
  return {
    name: runner.name,
    command: runner.command,
    async run(options: TestRunOptions = {}): Promise<TestRunResult> {
      const { only, ...rest } = options;
      const narrowed = subset(only);
      const result = await runner.run({ ...rest, ...(narrowed ? { only: narrowed } : {}) });
      return {
        ...result,
        ...(result.tests ? { tests: result.tests.map(fromRoot) } : {}),
        ...(result.relatedFiles ? { relatedFiles: result.relatedFiles.map((file) => prefix + file) } : {}),
      };
    },
  };
}
