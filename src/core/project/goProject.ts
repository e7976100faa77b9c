import { goModulePath } from '../testRunners/reports/goTestReport';
import { readProjectFile } from './projectFiles';

/** What a Go module's root says: its module path, and the test command and folders of every Go module. */
export interface GoProjectFacts {
  /** `module …` of go.mod (undefined when go.mod names none). */
  modulePath?: string;
  /** `go test ./...`: every package of the module, run with `-json` for judgement (see the go-test runner). */
  command: string;
  /** `**\/*_test.go`: a test file is one by its name, in the folder of the package it tests. */
  patterns: string[];
}

/** The test command of a Go module: every package below its root. */
export const GO_TEST_COMMAND = 'go test ./...';
/** Go's test files: `*_test.go`, in the package's own folder (tests sit beside the code). */
export const GO_TEST_PATTERNS = ['**/*_test.go'];

/** The facts of a Go module at `root` (its `go.mod`), or undefined when there is none. */
export async function readGoProject(root: string): Promise<GoProjectFacts | undefined> {
  const goMod = await readProjectFile(root, 'go.mod');
  if (goMod === undefined) return undefined;
  const modulePath = goModulePath(goMod);
  return { ...(modulePath ? { modulePath } : {}), command: GO_TEST_COMMAND, patterns: [...GO_TEST_PATTERNS] };
}
