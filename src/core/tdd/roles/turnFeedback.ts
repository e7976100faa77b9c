/**
 * What one file-changing tool call of a role's turn did: `applied` (the tool ran and wrote), `refused` by a role rule
 * before it ran, or `failed` (the tool or an approval said no). A refused or failed call changed nothing.
 */
export interface FileWriteOutcome {
  /** `write_file`, `edit_file` or `delete_file`. */
  tool: string;
  /** The workspace-relative path the call named. */
  path: string;
  outcome: 'applied' | 'refused' | 'failed';
  /** Why it was refused or failed: the first line the model read. */
  reason?: string;
}

/** What the supervisor knows of a finished turn's files, to tell the role's next attempt. */
export interface TurnFileFacts {
  /** Which attempt it was (from 1). */
  attempt: number;
  /** Every file-changing call of the turn, in order. */
  writes: readonly FileWriteOutcome[];
  /** The paths the turn changed, from the diff when it ended. */
  changed: readonly string[];
  /** The paths still changed after the supervisor's verdict (it may have put some back). */
  standing: readonly string[];
  /** The role's last message. */
  report: string;
}

/** A fenced code block in a message: code the model wrote as text instead of a tool call. */
const CODE_BLOCK = /^\s*(```|~~~)/m;
const FILE_TOOLS_ADVICE =
  'Change files only with tool calls: write_file for a whole file, edit_file for a few lines; nothing you write in a message reaches a file.';

/**
 * Why a turn that changed no file changed nothing, as the first words of the next attempt's notice; undefined when the
 * turn changed a file. The reasons: its reply held code in a Markdown block (code in a message is not applied), its
 * reply was empty, its writes were refused or failed (each listed by {@link whatStands}), or it made no write at all.
 */
export function noChangeNotice(facts: TurnFileFacts): string | undefined {
  if (facts.changed.length > 0) return undefined;
  const reasons: string[] = [];
  const report = facts.report.trim();
  if (CODE_BLOCK.test(report))
    reasons.push('your reply held code in a Markdown block, and code in a message is not applied to any file');
  else if (!report && facts.writes.length === 0) reasons.push('your reply was empty (no words and no tool call)');
  const refused = facts.writes.filter((w) => w.outcome === 'refused').length;
  const failed = facts.writes.filter((w) => w.outcome === 'failed').length;
  const applied = facts.writes.length - refused - failed;
  if (refused) reasons.push(`${count(refused, 'write')} refused by the role rules changed nothing (listed below)`);
  if (failed) reasons.push(`${count(failed, 'write')} failed and changed nothing (listed below)`);
  if (applied) reasons.push('what it wrote left every file as it was');
  if (reasons.length === 0) reasons.push('it made no write_file or edit_file call');
  const advice = refused + failed > 0 && reasons.length === 1 ? '' : ` ${FILE_TOOLS_ADVICE}`;
  return `Attempt ${facts.attempt} changed no file: ${reasons.join('; ')}.${advice}`;
}

/**
 * One line per file-changing call of the turn saying what stands of it: applied and kept, applied and then put back by
 * the supervisor, applied with no difference, refused by the role rules (with the rule), or failed (with the error).
 * Undefined when the turn made no such call.
 */
export function whatStands(facts: TurnFileFacts): string | undefined {
  if (facts.writes.length === 0) return undefined;
  const lines = facts.writes.map((w) => {
    const call = `- ${w.tool} ${w.path}: `;
    if (w.outcome === 'refused') return `${call}refused by the role rules, it changed nothing: ${w.reason ?? ''}`.trimEnd();
    if (w.outcome === 'failed') return `${call}failed, it changed nothing: ${w.reason ?? ''}`.trimEnd();
    if (facts.standing.includes(w.path)) return `${call}applied; it stands.`;
    if (facts.changed.includes(w.path)) return `${call}applied, then undone by the supervisor.`;
    return `${call}applied, but the file is as it was before this attempt.`;
  });
  return `What stands of attempt ${facts.attempt}'s writes:\n${[...new Set(lines)].join('\n')}`;
}

/**
 * The notice the next attempt reads: why nothing changed (when nothing did) before the supervisor's own reason, and
 * what stands of each write after it.
 */
export function withTurnFeedback(reason: string, facts: TurnFileFacts): string {
  const before = noChangeNotice(facts);
  const after = whatStands(facts);
  return [before, reason, after].filter((part): part is string => !!part?.trim()).join('\n\n');
}

function count(n: number, noun: string): string {
  return n === 1 ? `1 ${noun}` : `${n} ${noun}s`;
}
