import { type ErrorCode, escapeTerminalText, isAgentError, setLogLevel } from '../core';
import { EXIT, UsageError, type CliIo } from './cliIo';
import { demoCommand } from './commands/demo';
import { evalCommand } from './commands/eval';
import { kataCommand } from './commands/kata';
import { taskCommand } from './commands/task';
import { doctorCommand } from './commands/doctor';
import { katasCommand } from './commands/katas';
import { sessionsCommand } from './commands/sessions';
import { questionCommand } from './commands/question';
import { SANDBOX_OFF_FLAG } from './sandboxFlag';

declare const TDD_AGENT_VERSION: string | undefined;

/** `tdd-agent --help`: the commands. */
export const USAGE = `tdd-agent — autonomous test-driven development with LLM agents

Usage:
  tdd-agent demo                         a complete FizzBuzz session from a recording (no API key)
  tdd-agent kata <kata.md|name> [opts]   run red-green-refactor cycles on a kata in a git workspace
  tdd-agent task "<what to build>" [opts] the same for a task in plain words, in your project
  tdd-agent katas                        list the bundled katas
  tdd-agent eval [--katas K] [opts]      run a set of katas against the model and write a report
  tdd-agent sessions [--prune]           the sessions of this repository (status, branch, worktree)
  tdd-agent doctor                       which OS sandbox runs generated code here, and why
  tdd-agent ask [--file F] "question"    answer a question (QA agent)
  tdd-agent cot [--file F] "problem"     work through a problem step by step (CoT agent)

Run 'tdd-agent <command> --help' for a command's options.
Provider: OPENAI_API_KEY (+ OPENAI_BASE_URL), --base-url URL for any OpenAI-compatible server,
or a running Ollama (OLLAMA_HOST); flags win over the environment.`;

/** Errors that are the user's to fix (exit 2), as opposed to a session that ran and failed (exit 1). */
const CONFIGURATION_CODES: ReadonlySet<string> = new Set<ErrorCode>([
  'CONFIG',
  'PROVIDER_NOT_CONFIGURED',
  'AUTH',
  'VALIDATION',
  'SESSION_STATE_INVALID',
  'SANDBOX_UNAVAILABLE',
  'KATA_NOT_APPROVED',
]);

/** What to do on the command line, for errors whose core message cannot name flags. */
const CLI_HINTS: Partial<Record<ErrorCode, string>> = {
  SANDBOX_UNAVAILABLE: `Pass ${SANDBOX_OFF_FLAG} to run without one (see 'tdd-agent doctor').`,
  KATA_NOT_APPROVED: 'Answer the prompt in a terminal, or pass --yes=HIGH to approve it.',
};

/** Runs one CLI invocation and returns its exit code; never throws. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (rest.includes('--verbose') || rest.includes('-v')) setLogLevel('info');
  try {
    switch (command) {
      case 'kata':
        return await kataCommand(rest, io);
      case 'task':
        return await taskCommand(rest, io);
      case 'demo':
        return await demoCommand(rest, io);
      case 'katas':
        return await katasCommand(rest, io);
      case 'eval':
        return await evalCommand(rest, io);
      case 'sessions':
        return await sessionsCommand(rest, io);
      case 'doctor':
        return await doctorCommand(rest, io);
      case 'ask':
      case 'cot':
        return await questionCommand(command, rest, io);
      case '--version':
      case 'version':
        io.stdout.write(`${typeof TDD_AGENT_VERSION === 'string' ? TDD_AGENT_VERSION : 'dev'}\n`);
        return EXIT.ok;
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        io.stdout.write(`${USAGE}\n`);
        return command === undefined ? EXIT.usage : EXIT.ok;
      default:
        throw new UsageError(`Unknown command '${command}'. Run 'tdd-agent --help'.`);
    }
  } catch (err) {
    const { code, errorCode, message } = describeFailure(err);
    io.stderr.write(escapeTerminalText(`tdd-agent: ${errorCode === 'USAGE' ? '' : `${errorCode}: `}${message}\n`));
    // Scripts asked for JSON: they get one object on stdout whatever went wrong.
    if (rest.includes('--json'))
      io.stdout.write(`${JSON.stringify({ status: 'error', error: { error_code: errorCode, message } })}\n`);
    return code;
  }
}

/** The exit code, error code and one-line message of a failed invocation. */
function describeFailure(err: unknown): { code: number; errorCode: ErrorCode; message: string } {
  if (err instanceof UsageError) return { code: EXIT.usage, errorCode: 'USAGE', message: err.message };
  if (isAgentError(err)) {
    const hint = CLI_HINTS[err.error_code];
    // The sandbox's diagnosis says which failure mode it is; `tdd-agent doctor` prints the fix.
    const cause =
      err.error_code === 'SANDBOX_UNAVAILABLE' && typeof err.details.cause === 'string' ? ` ${err.details.cause}` : '';
    return {
      code: CONFIGURATION_CODES.has(err.error_code) ? EXIT.usage : EXIT.failed,
      errorCode: err.error_code,
      message: `${err.message}${cause}${hint ? ` ${hint}` : ''}`,
    };
  }
  return {
    code: EXIT.failed,
    errorCode: 'UNKNOWN',
    message: `unexpected error: ${err instanceof Error ? err.message : String(err)}`,
  };
}
