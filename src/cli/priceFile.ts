import { priceTableShape } from '../core/tddApi';
import type { ModelPrice } from '../shared/panelProtocol';
import { MODEL_PRICES_SCHEMA } from '../vscode/config/modelPrices';
import { UsageError } from './cliIo';
import { readFlagFile } from './flagFile';

/** The shape `--prices FILE` takes, as its usage errors show it. */
export const PRICE_FILE_SHAPE = priceTableShape();

/**
 * Reads `--prices FILE`: a JSON object of model prices in USD per million tokens, the same shape as VS Code's
 * `tddAgent.modelPrices` setting; it adds models to the built-in price table or overrides their prices. A missing
 * file, one that is no regular file (a FIFO, a device, a folder) or is over 1 MiB, bad JSON or an invalid entry is a
 * {@link UsageError} (exit 2) listing every problem as `model.field: what`.
 */
export async function readPriceFile(file: string): Promise<Record<string, ModelPrice>> {
  const text = await readFlagFile('--prices', file);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--prices ${file} is not valid JSON: ${(err as Error).message}.`);
  }
  const parsed = MODEL_PRICES_SCHEMA.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  - ${issue.path.map(String).join('.') || '(file)'}: ${issue.message}`);
    throw new UsageError(`--prices ${file} must be a JSON object ${PRICE_FILE_SHAPE}:\n${problems.join('\n')}`);
  }
  return parsed.data;
}
