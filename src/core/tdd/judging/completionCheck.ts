import { walkFiles } from '../../testRunners/testFiles';
import { isTestFile, testRegionFinder, testRegionsText, type TestFileRules } from '../boundaries';
import { readTextFile } from '../context/workspaceSnapshot';
import { mentionsValue, statedExamples, taskExamples, type StatedExample } from '../kata/statedExamples';

/** Test files the check reads at most (a larger suite is read up to there, in name order). */
const MAX_TEST_FILES = 2_000;
/** Bytes of test text the check reads at most, over all files. */
const MAX_TEST_BYTES = 16 * 1024 * 1024;

/** What the check needs of the kata: its text, whether it is a task in plain words, and what its test files are. */
export interface CompletionKata extends TestFileRules {
  description: string;
  task?: boolean;
}

/** The examples a kata (or a task) states, as the completion check reads them: see `statedExamples` and `taskExamples`. */
export function examplesOf(kata: Pick<CompletionKata, 'description' | 'task'>): StatedExample[] {
  return kata.task ? taskExamples(kata.description) : statedExamples(kata.description);
}

/**
 * The stated examples no test file of the workspace spells out yet: an example is covered when one of its values
 * appears in some test file's text, or in the test regions of a code file (see `mentionsValue`). Empty when the kata states none. Deterministic: the same
 * tree gives the same answer.
 */
export async function untestedExamples(root: string, kata: CompletionKata, signal?: AbortSignal): Promise<StatedExample[]> {
  const examples = examplesOf(kata);
  if (examples.length === 0) return [];
  const files = await walkFiles(root, {
    limit: MAX_TEST_FILES,
    enter: (name) => name !== '.git',
    // A code file with tests inside it (Rust's `mod tests`): its test regions are test text too.
    keep: (path) => isTestFile(path, kata) || testRegionFinder(path) !== undefined,
  });
  let open = examples;
  let bytes = 0;
  for (const file of files) {
    signal?.throwIfAborted();
    if (open.length === 0 || bytes >= MAX_TEST_BYTES) break;
    const read = await readTextFile(root, file);
    if (read.kind !== 'text') continue;
    const find = isTestFile(file, kata) ? undefined : testRegionFinder(file);
    const text = find ? testRegionsText(find, read.text) : read.text;
    bytes += text.length;
    open = open.filter((example) => !example.values.some((value) => mentionsValue(text, value)));
  }
  return open;
}

/** The examples as a role and a person read them: one line each, at most `max`. */
export function describeExamples(examples: readonly StatedExample[], max = 12): string {
  const lines = examples.slice(0, max).map((e) => `- ${e.text}`);
  if (examples.length > max) lines.push(`- and ${examples.length - max} more`);
  return lines.join('\n');
}
