import { resolve } from 'node:path';
import { formatDiskUsage, listSessions, pruneSessions, recordedStatus } from '../../core/tddApi';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIo } from '../cliIo';

/** `tdd-agent sessions --help`. */
export const SESSIONS_USAGE = `Usage: tdd-agent sessions [--workspace DIR] [--prune] [--json]

Lists the kata sessions of the repository: id, status, cycles, branch and worktree.
  --prune   remove the records and worktrees of finished sessions (their branches stay)
  --json    print the list as JSON on stdout`;

/** `tdd-agent sessions`: one line per session of the repository; `--prune` removes finished ones. */
export async function sessionsCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(argv, {
    workspace: { type: 'string' },
    prune: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    io.stdout.write(`${SESSIONS_USAGE}\n`);
    return EXIT.ok;
  }
  const workspace = resolve(values.workspace ?? process.cwd());
  if (values.prune) {
    const pruned = await pruneSessions(workspace);
    const freed = pruned.reduce((sum, p) => sum + p.freedBytes, 0);
    io.stderr.write(
      pruned.length
        ? `Removed ${pruned.length} finished session(s): ${pruned.map((p) => p.id).join(', ')}; freed ${formatDiskUsage(freed)} (their branches stay).\n`
        : 'Nothing to prune.\n',
    );
  }
  const sessions = await listSessions(workspace);
  if (values.json) {
    io.stdout.write(
      `${JSON.stringify(sessions.map((s) => ({ id: s.id, status: s.state?.status, running: s.running, resumable: s.resumable, kata: s.state?.kata.slug, cycles: s.state?.cycles.length, branch: s.state?.branch, worktree: s.state?.worktreeKept ? s.state.git.worktree : null, updated: s.state?.updatedAt, problem: s.problem })))}\n`,
    );
    return EXIT.ok;
  }
  if (sessions.length === 0) {
    io.stdout.write('No sessions in this repository.\n');
    return EXIT.ok;
  }
  for (const s of sessions) {
    if (!s.state) {
      io.stdout.write(`${s.id}  unreadable: ${s.problem}\n`);
      continue;
    }
    const status = recordedStatus({ ...s, state: s.state });
    const where = s.state.worktreeKept ? `worktree ${s.state.git.worktree}` : 'worktree removed';
    io.stdout.write(
      `${s.id}  ${status}${s.resumable ? ' (resumable)' : ''}  ${s.state.cycles.length} cycle(s)  branch ${s.state.branch}  ${where}\n`,
    );
  }
  return EXIT.ok;
}
