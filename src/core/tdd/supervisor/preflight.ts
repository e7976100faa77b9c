import { access, constants, realpath } from 'node:fs/promises';
import { basename, delimiter, isAbsolute, join, sep } from 'node:path';
import type { ControlProtocol } from '../../control/controlProtocol';
import { AgentError } from '../../errors/agentError';
import type { LlmClient } from '../../llm/types';
import { createProcessSandbox } from '../../osSandbox/createProcessSandbox';
import type { SandboxLocator, SandboxMode } from '../../osSandbox/types';
import { pythonEnvironmentPolicy, type WorktreeDependencies } from '../../osSandbox/worktreePolicy';
import { runProcess } from '../../process/runProcess';
import { redactSecrets } from '../../security/redact';
import { ApprovalPolicy, type ApprovalPolicyConfig } from '../../tools/approvalPolicy';
import type { FieldSource } from '../../project/projectProfile';
import { bundledKatasDir, type Kata } from '../kata';
import type { PythonNeeds } from '../dependencies/projectDependencyTypes';
import { interpreterRoots } from '../dependencies/pythonEnvironment';

/** Where a test command came from, in a preflight message. */
const SOURCE_WORDS: Record<FieldSource, string> = {
  default: 'the defaults',
  detected: "the project's files",
  kata: 'the kata',
  'tdd-agent.json': 'tdd-agent.json',
  setting: 'the settings',
  flag: 'the command line',
};

/** The first program a shell command line runs (after `VAR=value` assignments); a quoted path is unquoted. */
export function commandProgram(command: string): string | undefined {
  const trimmed = command.trim();
  const quoted = /^'([^']*)'|^"([^"\\$`]*)"/.exec(trimmed);
  if (quoted) return quoted[1] ?? quoted[2];
  return trimmed.split(/\s+/).find((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
}

/** What the scaffold's projects run (TypeScript through npm: tsx is installed into the session worktree). */
const DEFAULT_TEST_COMMANDS: Record<Kata['language'], string> = {
  javascript: 'node --test',
  typescript: 'npm test',
  python: 'python3 -m pytest',
  go: 'go test ./...',
  rust: 'cargo test',
  java: 'mvn -o -B test',
  php: 'phpunit',
  ruby: 'rspec',
};

/** What to install for a language's toolchain, when its program is not on PATH (one line, the package names people look for). */
const TOOLCHAIN_INSTALL: Record<string, string> = {
  go: 'Install Go (Debian and Ubuntu: apt-get install golang-go; macOS: brew install go; or https://go.dev/dl)',
  cargo: 'Install Rust (Debian and Ubuntu: apt-get install cargo; macOS: brew install rust; or https://rustup.rs)',
  mvn: 'Install a JDK and Maven (Debian and Ubuntu: apt-get install default-jdk-headless maven; macOS: brew install openjdk maven; or https://maven.apache.org)',
  gradle: 'Install Gradle (Debian and Ubuntu: apt-get install gradle; macOS: brew install gradle; or https://gradle.org/install)',
  phpunit:
    'Install PHPUnit (Debian and Ubuntu: apt-get install php-cli phpunit; macOS: brew install php phpunit; or composer require --dev phpunit/phpunit)',
  rspec:
    'Install Ruby and RSpec (Debian and Ubuntu: apt-get install ruby ruby-rspec; macOS: brew install ruby, then gem install rspec)',
  ruby: 'Install Ruby (Debian and Ubuntu: apt-get install ruby; macOS: brew install ruby; or https://www.ruby-lang.org)',
  rake: 'Install Ruby and rake (Debian and Ubuntu: apt-get install ruby rake; macOS: brew install ruby)',
};

/** The absolute path of `program` on PATH, or undefined. */
async function onPath(program: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const candidates =
    isAbsolute(program) || program.includes(sep)
      ? [program]
      : (env.PATH ?? '')
          .split(delimiter)
          .filter(Boolean)
          .map((dir) => join(dir, program));
  for (const candidate of candidates) {
    if (
      await access(candidate, constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  }
  return undefined;
}

/**
 * The command whose program the preflight looks for. A JavaScript or TypeScript project's own test script (and the
 * scaffold's) runs programs its install provides (`vitest`, `tsx` from node_modules/.bin), so only Node.js (and npm
 * for TypeScript) must be there; a command someone named, and a Python command, is checked as it is.
 */
function preflightCommand(kata: Kata): string {
  const profile = kata.project;
  if (!profile) return kata.testCommand ?? DEFAULT_TEST_COMMANDS[kata.language];
  if (kata.language !== 'python' && profile.manifests.includes('package.json') && kata.testCommand) return 'node';
  return kata.testCommand ?? (kata.language === 'python' ? profile.testCommand : DEFAULT_TEST_COMMANDS[kata.language]);
}

/** Options of {@link checkTestRunner}. */
export interface TestRunnerCheckOptions {
  /** Environment the test command runs with (PATH, the person's Python variables); default this process's. */
  env?: NodeJS.ProcessEnv;
  /** The session's sandbox mode: the interpreter is probed in the same sandbox as the session's test runs. Default `auto`. */
  sandbox?: SandboxMode;
  /** Variables shown inside the sandbox beyond its allow-list (the session's `sandboxEnvironment`). */
  passEnvironment?: string[];
  /**
   * The Python environment the session's sandbox shows (`previewProjectDependencies`' `sandbox.python`), with the
   * folders it names that the sandbox does not show (`python.refusedRoots`), for the message when it cannot start.
   */
  python?: ProbedEnvironment;
  /** What the tests need from the interpreter, and the command that makes an environment (`pythonNeeds`). */
  pythonNeeds?: PythonNeeds;
  /** Where bubblewrap is (tests). */
  locator?: SandboxLocator;
  signal?: AbortSignal;
}

/** A Python environment as the sandbox shows it, and what of it the sandbox does not show. */
export type ProbedEnvironment = NonNullable<WorktreeDependencies['python']> & {
  refusedRoots?: Array<{ path: string; reason: string }>;
};

/** The line the probe prints, before its JSON: what the interpreter is, and what of the names it could not find. */
const PROBE_MARK = 'TDD_AGENT_PYTHON_PROBE ';

/**
 * Run by the test command's interpreter, in the sandbox: `argv[1]` is `1` when the tests need pytest, the rest are
 * distributions the project needs. Prints its real interpreter and what is missing; an import that fails for any reason
 * counts as missing.
 */
const PROBE = [
  'import json, sys',
  'missing = []',
  'if sys.argv[1] == "1":',
  '    try:',
  '        import pytest',
  '    except Exception:',
  '        missing.append("pytest")',
  'try:',
  '    from importlib import metadata',
  'except ImportError:',
  '    metadata = None',
  'for name in sys.argv[2:] if metadata else []:',
  '    try:',
  '        metadata.distribution(name)',
  '    except Exception:',
  '        missing.append(name)',
  `print(${JSON.stringify(PROBE_MARK)} + json.dumps({"executable": sys.executable, "missing": missing}))`,
].join('\n');

/** What the probe printed, or undefined when it printed nothing of its own. */
function probeAnswer(output: string): { executable: string; missing: string[] } | undefined {
  const line = output.split('\n').find((l) => l.startsWith(PROBE_MARK));
  if (!line) return undefined;
  try {
    const answer = JSON.parse(line.slice(PROBE_MARK.length)) as { executable?: unknown; missing?: unknown };
    if (typeof answer.executable !== 'string' || !Array.isArray(answer.missing)) return undefined;
    return { executable: answer.executable, missing: answer.missing.filter((m): m is string => typeof m === 'string') };
  } catch {
    return undefined;
  }
}

/** `a`, `a and b`, `a, b and c`. */
function listWords(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/**
 * Checks that the kata's tests can run here before anything is created: the test command's program is on PATH, and for
 * Python that its interpreter, as the person uses it (python3 from PATH, pyenv, conda, a virtual environment), has
 * pytest (when the command runs it) and the distributions pyproject.toml says the project needs. That interpreter is
 * the repository's to name (tdd-agent.json, a committed environment), so it runs only in the session's sandbox, never
 * on the host, with the Python environment the session's sandbox shows, from `/` (nothing of the repository's on
 * its path). What is missing is named with the interpreter's real path; making a virtual environment is advised then.
 */
export async function checkTestRunner(kata: Kata, options: TestRunnerCheckOptions = {}): Promise<void> {
  const env = options.env ?? process.env;
  const command = preflightCommand(kata);
  const program = commandProgram(command);
  const from = kata.project ? ` (test command from ${SOURCE_WORDS[kata.project.fields.testCommand]})` : '';
  if (program && !(await onPath(program, env))) {
    throw new AgentError(
      'CONFIG',
      `The tests run with '${command}'${from}, but '${program}' is not installed or not on PATH. ${TOOLCHAIN_INSTALL[basename(program)] ?? 'Install it'}, or name another test command (testCommand in tdd-agent.json), then start again.`,
      { command, program },
    );
  }
  if (kata.language !== 'python' || !program || !/^python/.test(basename(program))) return;
  const pytest = /\bpytest\b/.test(command);
  const requirements = options.pythonNeeds?.requirements ?? [];
  if (!pytest && requirements.length === 0) return;
  const python = options.python ?? (await profileEnvironment(kata, env));
  const view = python ? pythonEnvironmentPolicy({ ...python, sourceRoots: [], hiddenSources: [] }) : {};
  const sandbox = await createProcessSandbox(
    options.sandbox ?? 'auto',
    { writableRoots: [], ...view, ...(options.passEnvironment?.length ? { passEnvironment: options.passEnvironment } : {}) },
    options.locator,
  );
  const probe = await runProcess({
    cwd: '/',
    command: program,
    args: ['-c', PROBE, pytest ? '1' : '0', ...requirements],
    env,
    sandbox,
    timeoutMs: 30_000,
    signal: options.signal,
    maxOutputBytes: 64 * 1024,
  });
  const answer = probeAnswer(probe.output);
  if (answer && answer.missing.length === 0) return;
  const advice = options.pythonNeeds?.venvCommand
    ? `, or make the project a virtual environment that has them (${options.pythonNeeds.venvCommand})`
    : '';
  if (answer) {
    const names = answer.missing;
    throw new AgentError(
      'CONFIG',
      `${listWords(names)} ${names.length === 1 ? 'is' : 'are'} not installed for ${answer.executable}, which runs '${command}'${from}, and the tests need ${names.length === 1 ? 'it' : 'them'}. Install ${names.length === 1 ? 'it' : 'them'} for that Python (${answer.executable} -m pip install ${names.join(' ')})${advice}, then start again.`,
      { command, program, interpreter: answer.executable, missing: names },
    );
  }
  // The interpreter did not get as far as the probe's answer: it is missing in the sandbox, or not a Python 3.
  const why = probe.timedOut
    ? 'timed out'
    : probe.spawnError
      ? `could not start: ${probe.spawnError}`
      : `exit code ${probe.exitCode ?? probe.signal}`;
  const tail = redactSecrets(probe.output.trim().split('\n').slice(-5).join('\n'));
  const hidden = python?.refusedRoots?.length
    ? ` The sandbox does not show ${python.refusedRoots.map((r) => `${r.path} (${r.reason})`).join(', ')}, which the environment names; a Python installation under HOME is shown when its bin folder is on PATH.`
    : '';
  throw new AgentError(
    'CONFIG',
    `${pytest ? `pytest is not installed for ${program}, or ` : ''}${program} cannot run in the session's sandbox (${why})${tail ? `:\n${tail}\n` : '.'}${hidden} Install what is missing for that Python${advice}, or name another test command (testCommand in tdd-agent.json), then start again.`,
    { command, program },
  );
}

/**
 * For a folder that is not a repository yet (no dependency plan): the virtual environment the profile's interpreter is
 * in, as the sandbox would show it. None when the profile names none.
 */
async function profileEnvironment(kata: Kata, env: NodeJS.ProcessEnv): Promise<ProbedEnvironment | undefined> {
  const venv = kata.project?.python?.venv;
  if (!venv) return undefined;
  const { roots, refused } = await interpreterRoots(venv, { home: env.HOME, gitDirs: [] });
  return { venv, interpreterRoots: roots, sourceRoots: [], ...(refused.length ? { refusedRoots: refused } : {}) };
}

/** Checks that the provider answers and knows the model, when the client can say so without a chat request. */
export async function checkProvider(llm: LlmClient, model: string, signal?: AbortSignal): Promise<void> {
  await llm.checkModel?.(model, signal);
}

/** True for a kata file shipped with the product (trusted); any other kata file is untrusted input. */
export async function isBundledKata(kata: Kata): Promise<boolean> {
  const dir = bundledKatasDir();
  if (!dir || !kata.fileName) return false;
  const [file, root] = await Promise.all([realpath(kata.fileName).catch(() => kata.fileName!), realpath(dir).catch(() => dir)]);
  return file.startsWith(root + sep);
}

/**
 * A kata that is not bundled may name its own test command: that command runs the moment the session
 * starts, so a person approves it at HIGH first (shown in full). `--yes=HIGH` or a HIGH `allow` rule
 * counts as that approval; denied, timed out or nobody to ask is a CONFIG refusal before anything changed.
 */
export async function approveKataCommands(
  kata: Kata,
  options: { policy?: ApprovalPolicyConfig; control?: ControlProtocol; signal?: AbortSignal },
): Promise<void> {
  // Only a kata file's own command: a person's flag or setting, and the repository's tdd-agent.json, are the person's.
  if (!kata.testCommand || (kata.project && kata.project.fields.testCommand !== 'kata') || (await isBundledKata(kata))) return;
  const verdict = new ApprovalPolicy(options.policy ?? {}).decideLevel('HIGH');
  if (verdict.rule === 'allow') return;
  const refuse = (why: string): never => {
    throw new AgentError(
      'KATA_NOT_APPROVED',
      `The kata ${kata.fileName ?? kata.title} runs its own test command '${kata.testCommand}', which was not approved (${why}). Nothing was changed.`,
      {
        kata: kata.fileName,
        testCommand: kata.testCommand,
      },
    );
  };
  if (verdict.rule === 'deny') refuse(verdict.reason);
  if (!options.control) refuse('there is no one to ask; approve HIGH actions to allow it');
  const answer = await options.control!.requestApproval(
    {
      tool: 'kata_test_command',
      dangerLevel: 'HIGH',
      params: { kata: kata.fileName, test_command: kata.testCommand },
      preview: `The kata ${kata.fileName ?? kata.title} is not one of the bundled katas. Its tests run with:\n\n  ${kata.testCommand}\n\nThis command runs (in the sandbox) after every turn of the session.`,
      reason: 'a kata that is not bundled names its own test command',
    },
    options.signal,
  );
  if (answer.outcome !== 'approved' && answer.outcome !== 'always') refuse(answer.reason ?? answer.outcome);
}
