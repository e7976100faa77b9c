import { extractYes, parseCommandArgs } from '../args';
import { EXIT, UsageError, type CliIo } from '../cliIo';
import { runSessionCommand, SESSION_OPTIONS, SESSION_OPTIONS_USAGE } from './kata';

/** `tdd-agent task --help`. */
export const TASK_USAGE = `Usage: tdd-agent task "<what to build>" [options]

Runs red-green-refactor cycles on a task you describe in plain words, in your project, the way a kata runs:
its own git worktree, a new branch tdd/<first-words>-<time>, every test run in the OS sandbox, your checkout
never changed. The language, test command, test files and source folder come from your project (see below).

  tdd-agent task "Add a foreign_key(table, column) helper that returns the SQL constraint" --workspace ~/src/sqlhelpers

Options:
${SESSION_OPTIONS_USAGE}`;

/** `tdd-agent task "<sentence>"`: a kata without a file (title and description are the sentence). */
export async function taskCommand(argv: string[], io: CliIo): Promise<number> {
  const pulled = extractYes(argv);
  const { values, positionals } = parseCommandArgs(pulled.argv, SESSION_OPTIONS);
  if (values.help) {
    io.stdout.write(`${TASK_USAGE}\n`);
    return EXIT.ok;
  }
  // Unquoted words are one sentence too: tdd-agent task Add a slugify helper
  const text = positionals.join(' ').trim();
  if (!text) throw new UsageError('Say what to build, in quotes: tdd-agent task "Add a slugify helper that ...".');
  return runSessionCommand({ task: text }, values, pulled.yes, io);
}
