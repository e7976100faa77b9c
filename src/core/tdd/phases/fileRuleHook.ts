import { isAbsolute, posix, relative } from 'node:path';
import type { AgentLifecycle } from '../../agentRuntime/lifecycle';
import type { ToolCallResult } from '../../tools/types';
import { editBlocksOf, editFileParameters, planEdits } from '../../tools/builtin/editFile';
import { readTreeEntry } from '../../workspaceSandbox/untrustedTree';
import { regionChange, testRegionFinder } from '../boundaries/testRegions';
import type { ChangedFile } from '../git/changedFiles';
import type { FileWriteOutcome } from '../roles/turnFeedback';
import type { FileRefusal } from './phaseHost';
import type { KataInfo } from './loopSetup';
import type { FileRule } from './phaseSpec';

/** Largest file whose test regions a write is judged by before it runs. */
const MAX_REGION_FILE_BYTES = 8 * 1024 * 1024;

/** The workspace tools that change a file, and how: the calls a role's file rule judges before they run. */
const FILE_WRITERS: Readonly<Record<string, ChangedFile['change'] | 'write'>> = {
  write_file: 'write',
  edit_file: 'write',
  delete_file: 'deleted',
};

/**
 * The workspace-relative path a tool call names, normalised, or undefined when it names none or one that is not below
 * the workspace (the tool itself refuses those, with its own words).
 */
function pathOf(params: unknown, workspaceRoot: string): string | undefined {
  const path = (params as { path?: unknown } | null)?.path;
  if (typeof path !== 'string' || path.trim() === '' || path.includes('\0')) return undefined;
  const local = posix.normalize((isAbsolute(path) ? relative(workspaceRoot, path) : path).replace(/\\/g, '/'));
  if (local === '.' || local === '..' || local.startsWith('../') || posix.isAbsolute(local)) return undefined;
  return local.replace(/\/$/, '');
}

/**
 * The change a call would make: a write of a file that stands in the worktree modifies it, of a missing one adds it.
 * The worktree is the generated code's: what stands there is read as git sees it, no link followed on the way (a path
 * below a linked folder is missing), so the hook never looks outside it.
 */
async function changeOf(
  tool: string,
  kind: ChangedFile['change'] | 'write',
  path: string,
  workspaceRoot: string,
  params: unknown,
): Promise<ChangedFile> {
  const find = testRegionFinder(path);
  // Unreadable (a folder on the way without permission): judged as a new file, as when nothing stands there.
  const entry = await readTreeEntry(workspaceRoot, path, find ? MAX_REGION_FILE_BYTES : 0).catch(() => undefined);
  const change: ChangedFile['change'] = kind !== 'write' ? kind : !entry || entry.kind === 'missing' ? 'added' : 'modified';
  if (!find) return { path, change };
  // A file with tests inside its code: what the call would change in it, inside its test regions and outside them.
  const before = entry?.kind === 'file' ? entry.content.toString('utf8') : undefined;
  return { path, change, regions: regionChange(find, before, textAfter(tool, params, before)) };
}

/** The text a write call would leave: undefined for a deletion; the text as it is for an edit the tool would refuse. */
function textAfter(tool: string, params: unknown, before: string | undefined): string | undefined {
  if (tool === 'write_file') {
    const content = (params as { content?: unknown } | null)?.content;
    return typeof content === 'string' ? content : undefined;
  }
  if (tool !== 'edit_file' || before === undefined) return undefined;
  const parsed = editFileParameters.safeParse(params);
  const blocks = parsed.success ? editBlocksOf(parsed.data) : undefined;
  const plan = blocks?.ok ? planEdits(before, blocks.blocks) : undefined;
  return plan?.ok ? plan.text : before;
}

/** Options of {@link fileRuleHook}. */
export interface FileRuleHookOptions {
  /** The role's file rule (a phase's `files`). */
  rule: FileRule;
  kata: KataInfo;
  workspaceRoot: string;
  /**
   * Told each refusal. A refused write changed nothing, so it is feedback for the role, not a violation: the supervisor
   * counts a violation only when the diff shows a change outside the rule.
   */
  onRefused?(refusal: FileRefusal): void;
  /**
   * Told what every `write_file`, `edit_file` and `delete_file` call of the turn did: applied, refused (by this rule or
   * a team's hook after it) or failed; the supervisor tells the role's next attempt what stands of each.
   */
  onWrite?(outcome: FileWriteOutcome): void;
}

/**
 * A role rule as a lifecycle hook: a `wrapToolCall` that refuses a `write_file`, `edit_file` or `delete_file` call the
 * role's file rule forbids (the Tester writing production code, the Implementer editing a test) before it runs,
 * answering the model with the reason; nothing is written, and no person is asked to approve it. Every other call
 * passes. What each write call did is told to `onWrite`. The supervisor still checks the diff after the turn: a test
 * run or a command may write files too.
 */
export function fileRuleHook(options: FileRuleHookOptions): AgentLifecycle {
  return {
    name: 'role-files',
    async wrapToolCall(toolName, next, params): Promise<ToolCallResult> {
      const kind = FILE_WRITERS[toolName];
      const path = kind && pathOf(params, options.workspaceRoot);
      if (!kind || !path) return next();
      const refusals = options.rule([await changeOf(toolName, kind, path, options.workspaceRoot, params)], options.kata);
      if (refusals.length === 0) {
        const result = await next();
        options.onWrite?.(outcomeOf(toolName, path, result));
        return result;
      }
      for (const refusal of refusals) options.onRefused?.(refusal);
      const refused = refuseCall(toolName, refusals.map((r) => r.message).join(' '));
      options.onWrite?.(outcomeOf(toolName, path, refused));
      return refused;
    },
  };
}

/** What a write call's result says it did: refused by a role rule (this one's or a team's), failed, or applied. */
function outcomeOf(tool: string, path: string, result: ToolCallResult): FileWriteOutcome {
  if (result.ok) return { tool, path, outcome: 'applied' };
  const refused = result.approval === 'policy_denied' && result.error?.error_code === 'HOOK_REJECTED';
  const reason = (refused ? result.error!.message : result.content).split('\n')[0]!.trim();
  return { tool, path, outcome: refused ? 'refused' : 'failed', reason };
}

/**
 * The result a role-rule hook gives instead of running a tool call: not run, refused by policy, with the reason the
 * model reads. A team's own rule returns it too (see docs/extending.md, "A custom role rule as a hook").
 */
export function refuseCall(toolName: string, reason: string): ToolCallResult {
  return {
    toolName,
    ok: false,
    content: `Error: refused by the role rules, nothing was changed: ${reason}`,
    error: { error_code: 'HOOK_REJECTED', message: reason },
    approval: 'policy_denied',
    durationMs: 0,
  };
}
