/** Default size of test output handed to the model: enough for a few failures, small enough for a prompt. */
export const DEFAULT_OUTPUT_LIMIT = 8_000;

/**
 * Keeps the head and the tail of a long output with a visible marker between them. The head holds
 * the first failure, the tail the runner's summary; the middle is usually repeated stack frames.
 * `marker` names what was cut (`…[N <marker>]…`).
 */
export function truncateHeadTail(
  text: string,
  limit = DEFAULT_OUTPUT_LIMIT,
  marker = 'characters of test output omitted',
): string {
  if (text.length <= limit) return text;
  const headSize = Math.floor(limit * 0.4);
  const tailSize = limit - headSize;
  const omitted = text.length - headSize - tailSize;
  return `${text.slice(0, headSize)}\n…[${omitted} ${marker}]…\n${text.slice(text.length - tailSize)}`;
}
