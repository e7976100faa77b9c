export { DEFAULT_MAX_CONTENT_CHARS } from '../contentLimits';

/**
 * Cuts `text` to at most `maxChars` characters and appends a visible marker saying how much was
 * left out and what to do about it, so the model never mistakes a cut text for the whole.
 */
export function truncateText(text: string, maxChars: number, hint = ''): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  const omitted = text.length - maxChars;
  const marker = `\n…[truncated: ${omitted} more characters not shown${hint ? `; ${hint}` : ''}]`;
  return { text: text.slice(0, maxChars) + marker, truncated: true };
}

/** True when a buffer looks binary (a NUL byte in its first 8 KiB). */
export function looksBinary(buffer: Buffer): boolean {
  return buffer.subarray(0, 8192).includes(0);
}

/** A duration for a message: "300 ms" under a second, otherwise whole seconds ("5 s"). */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 1000)} s`;
}
