import { lstat, mkdir, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readTreeEntry, removeTreeEntry } from '../../workspaceSandbox/untrustedTree';
import { TestReportError } from '../errors';

/**
 * Where a run's report is written: the worktree's session-state folder (`.tdd`, which git status, commits and
 * reverts leave alone, and which the roles are never shown), because the sandbox lets a test run write only the
 * worktree. Everything there is as untrusted as the tests that ran: it is read without following links, up to a
 * size limit, and removed after the run.
 */
export const REPORTS_DIR = '.tdd/reports';

/** Largest report read (a suite of tens of thousands of tests stays far below it). */
export const MAX_REPORT_BYTES = 16 * 1024 * 1024;

async function kindOf(path: string): Promise<'missing' | 'directory' | 'other'> {
  try {
    return (await lstat(path)).isDirectory() ? 'directory' : 'other';
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return 'missing';
    throw error;
  }
}

/**
 * Makes `.tdd/reports` a real folder in the workspace (node's reporter does not create the folder of its file).
 * Returns the folders it created, to remove them again when they are left empty. A link or a file standing where one
 * of them should be is never followed or replaced: TestReportError, and the run goes on without a report.
 */
export async function prepareReportsFolder(workspace: string): Promise<string[]> {
  const created: string[] = [];
  let dir = workspace;
  for (const segment of REPORTS_DIR.split('/')) {
    dir = join(dir, segment);
    const kind = await kindOf(dir);
    if (kind === 'other')
      throw new TestReportError(`'${REPORTS_DIR}' cannot hold a report: something other than a folder stands on its path.`, {
        path: dir,
      });
    if (kind === 'missing') {
      try {
        await mkdir(dir, { mode: 0o755 });
      } catch (cause) {
        throw new TestReportError(`Could not create '${REPORTS_DIR}' for the test report.`, { path: dir }, { cause });
      }
      created.push(dir);
    }
  }
  return created;
}

/**
 * The report's text: a regular file of at most {@link MAX_REPORT_BYTES} at `relative` below the workspace, read
 * without following any link. TestReportError says what stood there instead (nothing, a link, an oversized or
 * special file), never what a link points to.
 */
export async function readReport(workspace: string, relative: string): Promise<string> {
  const entry = await readTreeEntry(workspace, relative, MAX_REPORT_BYTES);
  switch (entry.kind) {
    case 'file':
      return entry.content.toString('utf8');
    case 'missing':
      throw new TestReportError('The runner wrote no report.', { path: relative, found: 'missing' });
    case 'symlink':
      throw new TestReportError('The report is a symbolic link; it was not followed.', { path: relative, found: 'symlink' });
    case 'too_large':
      throw new TestReportError(`The report is larger than ${MAX_REPORT_BYTES / 1024 / 1024} MiB; it was not read.`, {
        path: relative,
        found: 'too_large',
        size: entry.size,
      });
    case 'other':
      throw new TestReportError(`The report is a ${entry.type}, not a file; it was not read.`, {
        path: relative,
        found: entry.type,
      });
  }
}

/**
 * Removes the run's files (whatever stands at their paths, links removed and never followed) and the folders
 * {@link prepareReportsFolder} created when nothing else is in them. Never throws: a failure is returned for the log.
 */
export async function removeReportFiles(
  workspace: string,
  files: readonly string[],
  createdFolders: readonly string[],
): Promise<unknown> {
  let failure: unknown;
  for (const file of files) {
    try {
      await removeTreeEntry(workspace, file);
    } catch (error) {
      failure ??= error;
    }
  }
  for (const dir of [...createdFolders].reverse()) {
    // Every folder from the workspace down must still be a real folder: a link put there during the run is not entered.
    const segments = dir.slice(workspace.length + 1).split(/[\\/]/);
    let real = true;
    for (let i = 1; i <= segments.length && real; i++)
      real = (await kindOf(join(workspace, ...segments.slice(0, i))).catch(() => 'other')) === 'directory';
    if (real) await rmdir(dir).catch(() => undefined); // not empty: kept
  }
  return failure;
}
