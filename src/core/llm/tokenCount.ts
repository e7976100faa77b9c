/** Counts of texts seen recently, by text: a role's context counts the same files turn after turn. */
const cache = new Map<string, number>();
const CACHE_ENTRIES = 1_000;

type Count = (text: string) => number;
let loading: Promise<Count> | undefined;

/**
 * A function that counts the tokens a text takes for current OpenAI models (o200k_base, with gpt-tokenizer); other
 * providers' tokenizers differ by a few per cent, which is well within what a context budget needs. Counts are cached
 * by text. The tokenizer's 2.4 MB of ranks are loaded on the first call, not when the extension host loads: only a
 * session's role context needs them.
 */
export function tokenCounter(): Promise<Count> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then(({ countTokens }) => (text: string) => {
    const known = cache.get(text);
    if (known !== undefined) return known;
    const count = countTokens(text);
    if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(text, count);
    return count;
  });
  return loading;
}
