/** Words that say nothing about what a task is about. */
const STOP_WORDS = new Set(
  'add adds the and any are for from has have how its into new not now one that the their then this was what when where whether which who why with without'.split(
    ' ',
  ),
);

/**
 * The test files most likely to be the one a task's test goes in, most likely first: each scored by the task's words
 * (identifiers split at camelCase and `_`, crudely stemmed) found in its path, its text and the code it imports, a word
 * counting more the fewer test files have it (and twice in the path); ties go to the smaller file, then the path.
 * `reachedText(test)` is the text of the code a test imports.
 */
export function testsByRelevance(
  task: string,
  tests: ReadonlyArray<{ path: string; size: number; text: string }>,
  reachedText: (path: string) => string,
): string[] {
  const wanted = new Set(wordsOf(task));
  const docs = tests.map((t) => {
    const path = new Set(wordsOf(t.path.replace(/(?:^|[/_.-])(?:tests?|spec)(?=[/_.-]|$)/g, ' ')));
    const all = new Set([...path, ...wordsOf(t.text), ...wordsOf(reachedText(t.path))]);
    return { ...t, path: t.path, inPath: path, words: all };
  });
  const df = new Map<string, number>();
  for (const d of docs) for (const w of wanted) if (d.words.has(w)) df.set(w, (df.get(w) ?? 0) + 1);
  const score = (d: (typeof docs)[number]) =>
    [...wanted].reduce((sum, w) => {
      if (!d.words.has(w)) return sum;
      const idf = Math.log(1 + docs.length / df.get(w)!);
      return sum + idf * (d.inPath.has(w) ? 2 : 1);
    }, 0);
  const scored = docs.map((d) => ({ d, score: score(d) }));
  return scored.sort((a, b) => b.score - a.score || a.d.size - b.d.size || a.d.path.localeCompare(b.d.path)).map((s) => s.d.path);
}

/** The words of a text: split at non-letters and camelCase, lower-cased, stemmed, three letters or more, no stop words. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length >= 3 && !STOP_WORDS.has(w))
    .map(stem);
}

/** A crude stem, so `parsing` meets `parse` and `units` meets `unit`. */
function stem(word: string): string {
  return word.replace(/(?:ing|ers|er|es|s|e)$/, '');
}
