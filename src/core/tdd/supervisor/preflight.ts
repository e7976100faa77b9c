import { access, constants, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, delimiter, isAbsolute, join, sep } from 'node:path';
import type { ControlProtocol } from '../../control/controlProtocol';
import { AgentError } from '../../errors/agentError';
import type { LlmClient } from '../../llm/types';
import { runProcess } from '../../process/runProcess';
import { ApprovalPolicy, type ApprovalPolicyConfig } from '../../tools/approvalPolicy';
import type { FieldSource } from '../../project/projectProfile';
import { bundledKatasDir, type Kata } from '../kata';

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

/**
 * Checks that the kata's tests can run here before anything is created: the test command's program is
 * on PATH, and for Python that pytest imports (with the project's interpreter). Run from the OS temp folder, so
 * nothing in the person's repository (a `pytest.py`, say) runs.
 */
export async function checkTestRunner(kata: Kata, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const command = preflightCommand(kata);
  const program = commandProgram(command);
  const from = kata.project ? ` (test command from ${SOURCE_WORDS[kata.project.fields.testCommand]})` : '';
  if (program && !(await onPath(program, env))) {
    throw new AgentError(
      'CONFIG',
      `The tests run with '${command}'${from}, but '${program}' is not installed or not on PATH. Install it, or name another test command (testCommand in tdd-agent.json), then start again.`,
      { command, program },
    );
  }
  if (kata.language === 'python' && /\bpytest\b/.test(command) && program && /^python/.test(basename(program))) {
    const probe = await runProcess({ cwd: tmpdir(), command: program, args: ['-c', 'import pytest'], env, timeoutMs: 20_000 });
    if (probe.exitCode !== 0) {
      throw new AgentError(
        'CONFIG',
        `pytest is not installed for ${program} (${program} -m pip install pytest), and the tests need it.`,
        { command, program },
      );
    }
  }
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
