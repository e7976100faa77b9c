/** Counts of texts seen recently, by text: a role's context counts the same files turn after turn. */
const cache = new Map<string, number>();
const CACHE_ENTRIES = 1_000;
/** Longer texts are not kept as cache keys (a worktree may hold hundreds of 256 KiB files). */
const CACHED_TEXT_CHARS = 64 * 1024;

/**
 * Counts the tokens of `text`; with `limit`, stops once the count is over it and returns `limit + 1` (whether a file
 * fits a budget needs no more, and a file much larger than the budget is then not tokenized whole).
 */
export type TokenCount = (text: string, limit?: number) => number;
let loading: Promise<TokenCount> | undefined;

/**
 * A function that counts the tokens a text takes for current OpenAI models (o200k_base, with gpt-tokenizer); other
 * providers' tokenizers differ by a few per cent, which is well within what a context budget needs. Full counts of
 * texts up to 64 K characters are cached by text. The tokenizer's 2.4 MB of ranks are loaded on the first call, not
 * when the extension host loads: only a session's role context needs them.
 */
export function tokenCounter(): Promise<TokenCount> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then(
    ({ countTokens, isWithinTokenLimit }) =>
      (text: string, limit?: number) => {
        const known = cache.get(text);
        if (known !== undefined) return limit !== undefined && known > limit ? limit + 1 : known;
        if (limit !== undefined) {
          const within = isWithinTokenLimit(text, limit);
          if (within === false) return limit + 1;
          remember(text, within);
          return within;
        }
        const count = countTokens(text);
        remember(text, count);
        return count;
      },
  );
  return loading;
}

function remember(text: string, count: number): void {
  if (text.length > CACHED_TEXT_CHARS) return;
  if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(text, count);
}
