import { AgentError } from '../errors/agentError';

/** No way to run the workspace's tests was found; the message says what to add. */
export class TestRunnerNotFoundError extends AgentError {
  constructor(workspace: string, details: Record<string, unknown> = {}) {
    super(
      'CONFIG',
      `No test runner found in ${workspace}. Add a "test" script to package.json (e.g. "node --test"), ` +
        'a pytest setup (pyproject.toml, pytest.ini or test_*.py files), or the manifest of another language it knows ' +
        '(go.mod, Cargo.toml, pom.xml, a Gemfile with rspec, composer.json), or set test_command in the kata front matter.',
      { workspace, ...details },
    );
    this.name = 'TestRunnerNotFoundError';
  }
}

/** The workspace's test configuration cannot be read (e.g. package.json is not valid JSON). */
export class TestConfigError extends AgentError {
  constructor(message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super('CONFIG', message, details, options);
    this.name = 'TestConfigError';
  }
}

/**
 * A runner's machine-readable report could not be used: missing, a link or a special file, over the size limit, or
 * not in the runner's format. The run goes on with the counts of its console output (`tests` undefined); the message
 * says what was wrong with the report, never its content.
 */
export class TestReportError extends AgentError {
  constructor(message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super('VALIDATION', message, details, options);
    this.name = 'TestReportError';
  }
}
