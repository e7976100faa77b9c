import { readTreeFolder, readTreeText } from '../workspaceSandbox/untrustedTree';
import type { ProcessSandbox } from '../osSandbox/types';
import { CommandTestRunner } from './commandTestRunner';
import { MAVEN_TEST_COMMAND } from './mavenSetup';
import { phpunitSetup } from './phpunitSetup';
import { TestConfigError, TestRunnerNotFoundError } from './errors';
import { scriptFor } from './reports/reportCommand';
import { identifyRunner } from './runnerKinds';
import { testScriptCommand } from './testScriptSteps';

/** Options of detectTestRunner. */
export interface DetectTestRunnerOptions {
  /** An explicit command (the kata's `test_command`); wins over anything found in the workspace. */
  testCommand?: string;
  /** Extra environment for the test process. */
  env?: NodeJS.ProcessEnv;
  /** Characters of output kept for the model. */
  outputLimit?: number;
  /** Default time limit of each run (run() may override it); 60 s when unset. */
  timeoutMs?: number;
  /** The OS sandbox the runner runs its command in. */
  sandbox?: ProcessSandbox;
  /** Ask the runner for each test's result (see CommandTestRunnerOptions.reportTests); default true. */
  reportTests?: boolean;
}

/** npm's placeholder script: not a test runner. */
const NPM_PLACEHOLDER = /no test specified/;

/** Largest manifest or runner config read (a real one is far smaller). */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * A file of the workspace as text. The workspace may be a session's worktree, every byte of it written by generated
 * code: a link (to a host file, to /dev/zero) or a special file is no file here, and a file over 1 MiB is not read.
 */
function readText(workspace: string, name: string): Promise<string | undefined> {
  return readTreeText(workspace, name, MAX_CONFIG_BYTES);
}

async function looksLikePytestProject(workspace: string): Promise<boolean> {
  if ((await readText(workspace, 'pyproject.toml')) !== undefined) return true;
  if ((await readText(workspace, 'pytest.ini')) !== undefined) return true;
  if (/^\[tool:pytest\]/m.test((await readText(workspace, 'setup.cfg')) ?? '')) return true;
  if (/^\[pytest\]/m.test((await readText(workspace, 'tox.ini')) ?? '')) return true;
  for (const dir of ['', 'tests', 'test']) {
    const names = await readTreeFolder(workspace, dir);
    if (names.some((n) => /^test_.*\.py$|_test\.py$|^conftest\.py$/.test(n))) return true;
  }
  return false;
}

interface PackageJson {
  scripts?: Record<string, unknown>;
  devDependencies?: Record<string, unknown>;
  dependencies?: Record<string, unknown>;
}

/** An object's own string-keyed record, or undefined (package.json fields whose shape nobody promised). */
function recordOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * Finds how to run a workspace's tests: the explicit command first, then package.json's `scripts.test`
 * (node:test, mocha, jest or vitest, told apart by the script and devDependencies; of a script that chains lint or
 * type checks with the runner, the runner's step alone; `yarn jest`, `pnpm vitest run` as the runner's own command), then a Go
 * module (`go test ./...`), then a Maven build (`mvn -o -B test`), then a PHP project (`phpunit`, see phpunitSetup), then RSpec (`.rspec`, or a Gemfile naming rspec), then pytest (`python3 -m pytest`). Throws TestRunnerNotFoundError saying what to add when nothing fits, and
 * TestConfigError when package.json cannot be parsed. The runner gets package.json's scripts, so that an
 * explicit `npm test` (or `npm run test:unit`) is seen through to its runner, for the kind and for its report.
 */
export async function detectTestRunner(workspace: string, options: DetectTestRunnerOptions = {}): Promise<CommandTestRunner> {
  const common = {
    workspace,
    env: options.env,
    outputLimit: options.outputLimit,
    timeoutMs: options.timeoutMs,
    sandbox: options.sandbox,
    reportTests: options.reportTests,
  };
  const packageText = await readText(workspace, 'package.json');
  const explicit = options.testCommand?.trim();
  if (explicit) {
    let pkg: PackageJson | undefined;
    try {
      pkg = packageText === undefined ? undefined : (recordOf(JSON.parse(packageText)) as PackageJson | undefined);
    } catch {
      pkg = undefined; // the explicit command does not need package.json
    }
    const packageScripts = recordOf(pkg?.scripts);
    const script = scriptFor(explicit, packageScripts);
    const deps = { ...recordOf(pkg?.dependencies), ...recordOf(pkg?.devDependencies) };
    let kind = identifyRunner(explicit);
    if (kind === 'custom' && script) kind = identifyRunner(script, deps);
    return new CommandTestRunner({ ...common, kind, command: explicit, packageScripts });
  }

  let placeholder = false;
  if (packageText !== undefined) {
    let pkg: PackageJson;
    try {
      pkg = JSON.parse(packageText) as typeof pkg;
    } catch (cause) {
      throw new TestConfigError(
        `package.json in ${workspace} is not valid JSON: fix it so the test script can be read.`,
        { workspace },
        { cause },
      );
    }
    const script = pkg?.scripts?.test;
    if (typeof script === 'string' && script.trim() && !NPM_PLACEHOLDER.test(script)) {
      const deps = { ...(pkg.dependencies ?? {}), ...(pkg.devDependencies ?? {}) };
      const packageScripts = recordOf(pkg.scripts);
      // Lint and type checks chained with the runner stay out of the test runs (see testScriptCommand).
      const { command } = testScriptCommand(script, packageScripts);
      return new CommandTestRunner({ ...common, kind: identifyRunner(command, deps), command, packageScripts });
    }
    placeholder = typeof script === 'string';
  }

  if ((await readText(workspace, 'go.mod')) !== undefined) {
    return new CommandTestRunner({ ...common, kind: 'go-test', command: 'go test ./...' });
  }
  if ((await readText(workspace, 'Cargo.toml')) !== undefined) {
    return new CommandTestRunner({ ...common, kind: 'cargo-test', command: 'cargo test' });
  }
  // A Maven build: the system's mvn, offline (a repository's own ./mvnw only through the profile, when no mvn is installed).
  if ((await readText(workspace, 'pom.xml')) !== undefined) {
    return new CommandTestRunner({ ...common, kind: 'maven', command: MAVEN_TEST_COMMAND });
  }
  const php = await phpunitSetup(workspace);
  if (php) return new CommandTestRunner({ ...common, kind: 'phpunit', command: php.command });
  // A Ruby project with RSpec: `.rspec`, or a Gemfile that names it (minitest's command needs the profile).
  const gemfile = await readText(workspace, 'Gemfile');
  if ((await readText(workspace, '.rspec')) !== undefined || (gemfile !== undefined && /['"]rspec(?:-core)?['"]/.test(gemfile)))
    return new CommandTestRunner({ ...common, kind: 'rspec', command: 'rspec' });
  if (await looksLikePytestProject(workspace)) {
    return new CommandTestRunner({ ...common, kind: 'pytest', command: 'python3 -m pytest' });
  }
  throw new TestRunnerNotFoundError(
    workspace,
    placeholder ? { hint: "package.json has only npm's placeholder test script" } : {},
  );
}
