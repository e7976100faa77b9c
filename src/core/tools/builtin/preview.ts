import { confineToWorkspace } from '../../sandbox/workspacePath';
import { editFileParameters, planEdit } from './editFile';
import { readExistingFile } from './existingFile';
import { deleteFileParameters } from './deleteFile';
import { gitCommitParameters } from './gitTools';
import { httpRequestParameters } from './httpRequest';
import { runCommandParameters } from './runCommand';
import { unifiedDiff } from './unifiedDiff';
import { writeFileParameters } from './writeFile';

/**
 * What a tool call would do, shown on the approval card before a person approves it:
 * a unified diff for file changes, the command line for commands and commits, the method and
 * URL for HTTP requests.
 */
export type ToolCallPreview =
  | { kind: 'diff'; path: string; diff: string }
  | { kind: 'command'; commandLine: string }
  | { kind: 'request'; method: string; url: string; hasBody: boolean };

async function fileDiff(
  workspaceRoot: string,
  rawPath: string,
  change: (before: string | undefined) => { after: string | undefined } | undefined,
): Promise<ToolCallPreview | undefined> {
  const target = await confineToWorkspace(workspaceRoot, rawPath).catch(() => undefined);
  if (!target) return undefined; // the call itself will be refused, with the reason
  const existing = await readExistingFile(target.absolute).catch(() => undefined);
  if (!existing || (existing.kind !== 'text' && existing.kind !== 'missing')) return undefined;
  const before = existing.kind === 'text' ? existing.text : undefined;
  const planned = change(before);
  if (!planned) return undefined;
  return { kind: 'diff', path: target.relative, diff: unifiedDiff(before, planned.after, target.relative) };
}

/**
 * Computes the preview of a tool call without executing it or changing anything (files are
 * only read, inside the workspace). Returns undefined for tools without a preview, for
 * parameters that fail the tool's schema, and for calls that would fail (e.g. an edit whose
 * search text is absent): the call then reports its own error.
 */
export async function previewToolCall(name: string, params: unknown, workspaceRoot: string): Promise<ToolCallPreview | undefined> {
  switch (name) {
    case 'write_file': {
      const p = writeFileParameters.safeParse(params);
      return p.success ? fileDiff(workspaceRoot, p.data.path, () => ({ after: p.data.content })) : undefined;
    }
    case 'edit_file': {
      const p = editFileParameters.safeParse(params);
      if (!p.success) return undefined;
      return fileDiff(workspaceRoot, p.data.path, (before) => {
        if (before === undefined) return undefined;
        const plan = planEdit(before, p.data.search, p.data.replace, p.data.replace_all ?? false);
        return plan.ok ? { after: plan.text } : undefined;
      });
    }
    case 'delete_file': {
      const p = deleteFileParameters.safeParse(params);
      return p.success ? fileDiff(workspaceRoot, p.data.path, (before) => (before === undefined ? undefined : { after: undefined })) : undefined;
    }
    case 'run_command': {
      const p = runCommandParameters.safeParse(params);
      return p.success ? { kind: 'command', commandLine: p.data.command } : undefined;
    }
    case 'git_commit': {
      const p = gitCommitParameters.safeParse(params);
      if (!p.success) return undefined;
      const commit = `git commit -m ${JSON.stringify(p.data.message)}`;
      return { kind: 'command', commandLine: (p.data.stage_all ?? true) ? `git add -A -- . && ${commit}` : commit };
    }
    case 'http_request': {
      const p = httpRequestParameters.safeParse(params);
      return p.success ? { kind: 'request', method: p.data.method ?? 'GET', url: p.data.url, hasBody: p.data.body !== undefined } : undefined;
    }
    default:
      return undefined;
  }
}
