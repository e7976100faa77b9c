/**
 * Prices of models in USD per million tokens, for the panel's estimated cost. The defaults are OpenAI's
 * published list prices of common models (standard tier, uncached input) as of August 2025: estimates only,
 * prices change — a person's `tddAgent.modelPrices` setting adds models or overrides these.
 */
import { z } from 'zod';
import type { ModelPrice } from '../../shared/panelProtocol';

/**
 * A price table: model id → USD per million tokens, `input` (prompt) and `output` (completion). The shape of the
 * `tddAgent.modelPrices` setting and of the file `tdd-agent eval --prices FILE` reads.
 */
export const MODEL_PRICES_SCHEMA = z.record(
  z.string().min(1),
  z.object({ input: z.number().min(0), output: z.number().min(0) }).strict(),
);

/** When the default prices were taken from OpenAI's pricing page. */
export const DEFAULT_MODEL_PRICES_DATE = '2025-08';

/** OpenAI's list prices (USD per 1M tokens: input, output) of common models, as of {@link DEFAULT_MODEL_PRICES_DATE}. */
export const DEFAULT_MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-5': { input: 1.25, output: 10 },
  'gpt-5-mini': { input: 0.25, output: 2 },
  'gpt-5-nano': { input: 0.05, output: 0.4 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  o3: { input: 2, output: 8 },
  'o3-mini': { input: 1.1, output: 4.4 },
  'o4-mini': { input: 1.1, output: 4.4 },
};

/**
 * The price of `model`: the person's table first, then the defaults; an exact id wins, otherwise the longest
 * known id the model's id starts with followed by `-` (a dated snapshot such as `gpt-4o-2024-08-06`).
 * Undefined for an unknown model (a local model, a fine-tune): the panel shows tokens only.
 */
export function modelPrice(model: string, custom: Readonly<Record<string, ModelPrice>> = {}): ModelPrice | undefined {
  for (const table of [custom, DEFAULT_MODEL_PRICES]) {
    if (Object.hasOwn(table, model)) return table[model];
    const prefix = Object.keys(table)
      .filter((id) => model.startsWith(`${id}-`))
      .sort((a, b) => b.length - a.length)[0];
    if (prefix) return table[prefix];
  }
  return undefined;
}
