/**
 * A stack frame inside the Node.js runtime itself (`node:internal/…`, `node:async_hooks`), as test runners print
 * them: `    at Test.run (node:internal/test_runner/test:796:25)`, `#     at async … (node:…)` in TAP comments, or the
 * bare `Test.run (node:internal/…)` of node:test's YAML `stack:` block.
 */
const RUNTIME_FRAME =
  /^([\s#]*)(?:at\s+(?:async\s+)?(?:\S+(?: \[as [^\]]+\])?\s+)?\(?node:[\w/.-]+(?::\d+){0,2}\)?|(?:async\s+)?\S+(?: \[as [^\]]+\])?\s+\(node:[\w/.-]+(?::\d+){0,2}\))(\s*\{)?\s*$/;

/** The line that stands for `count` frames of a language runtime left out: `(3 Node.js runtime frames left out)`. */
export function runtimeFramesLeftOut(count: number, runtime: 'Node.js' | 'Python'): string {
  return `(${count} ${runtime} runtime frame${count === 1 ? '' : 's'} left out)`;
}

/**
 * Test output as the model gets it: each run of stack frames inside the Node.js runtime is replaced by one line
 * saying how many were left out. They name no file of the workspace and repeat in every failure, so they cost
 * tokens and say nothing the model can act on; the frames in the workspace's own files are kept.
 */
export function withoutRuntimeFrames(text: string): string {
  if (!text.includes('node:')) return text;
  const out: string[] = [];
  let dropped = 0;
  let indent = '';
  const flush = (opening = '') => {
    if (dropped) out.push(`${indent}${runtimeFramesLeftOut(dropped, 'Node.js')}${opening}`);
    dropped = 0;
  };
  for (const line of text.split('\n')) {
    const frame = RUNTIME_FRAME.exec(line);
    if (frame) {
      if (!dropped) indent = frame[1] ?? '';
      dropped++;
      // The last frame before an error's own properties ends with ` {`; the brace stays.
      if (frame[2]) flush(' {');
      continue;
    }
    flush();
    out.push(line);
  }
  flush();
  return out.join('\n');
}
