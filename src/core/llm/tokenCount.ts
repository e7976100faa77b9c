import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';

/** Counts of texts seen recently, by text: a role's context counts the same files turn after turn. */
const cache = new Map<string, number>();
const CACHE_ENTRIES = 1_000;

/**
 * The tokens `text` takes for current OpenAI models (o200k_base, with gpt-tokenizer); other providers' tokenizers
 * differ by a few per cent, which is well within what a context budget needs. Counts are cached by text.
 */
export function countTokens(text: string): number {
  const known = cache.get(text);
  if (known !== undefined) return known;
  const count = countO200k(text);
  if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(text, count);
  return count;
}
