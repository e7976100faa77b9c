/** Polls `read` until its text matches `pattern` or `timeoutMs` passes; returns the last text read (logs reach the disk asynchronously). */
export async function eventually(read: () => Promise<string>, pattern: RegExp, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = await read();
    if (pattern.test(text) || Date.now() > deadline) return text;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
