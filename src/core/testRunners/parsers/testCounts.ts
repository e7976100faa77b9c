/** Counts read from a runner's summary. `errors`: tests that errored outside their body (pytest setup/collection). */
export interface TestCounts {
  passed: number;
  failed: number;
  total: number;
  errors?: number;
}

/** Reads a runner's output; undefined when no summary was printed (the run crashed before reporting). */
export type TestOutputParser = (output: string) => TestCounts | undefined;

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

/** Removes terminal colour codes so summaries can be matched. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** Collects `<number> <word>` pairs (e.g. "2 passed, 1 failed") from one summary line. */
export function countsByWord(line: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of line.matchAll(/(\d+)\s+([a-z]+)/gi)) {
    const word = match[2].toLowerCase();
    counts.set(word, (counts.get(word) ?? 0) + Number(match[1]));
  }
  return counts;
}
