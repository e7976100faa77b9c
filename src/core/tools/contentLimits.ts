/** Default cap on the text a tool call feeds back to the model (characters); the built-in tools cap their own text at the same size. */
export const DEFAULT_MAX_CONTENT_CHARS = 100_000;
