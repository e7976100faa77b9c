/**
 * A small unified diff (Myers, line based, three lines of context) so the approval card and the
 * panel can show what a write or edit changes. Past `MAX_EDIT_DISTANCE` changed lines the middle
 * part is shown as one block replaced, which keeps time and memory bounded for huge rewrites.
 */
const CONTEXT = 3;
const MAX_EDIT_DISTANCE = 2000;
const NO_EOL = '\u0000noeol';

type Op = { kind: ' ' | '-' | '+'; line: string };

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  else lines[lines.length - 1] += NO_EOL;
  return lines;
}

/** Myers' O((N+M)·D) shortest edit script over the middle part, or undefined past the limit. */
function myers(a: string[], b: string[]): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        trace.push(v.slice(offset - d, offset + d + 1));
        return backtrack(a, b, trace);
      }
    }
    trace.push(v.slice(offset - d, offset + d + 1));
  }
  return undefined;
}

function backtrack(a: string[], b: string[], trace: Int32Array[]): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d > 0; d--) {
    const prev = trace[d - 1]!; // k in [-(d-1), d-1] at index k + d - 1
    const at = (k: number): number => prev[k + d - 1]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      ops.push({ kind: ' ', line: a[x]! });
    }
    if (x === prevX) {
      y--;
      ops.push({ kind: '+', line: b[y]! });
    } else {
      x--;
      ops.push({ kind: '-', line: a[x]! });
    }
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    ops.push({ kind: ' ', line: a[x]! });
  }
  return ops.reverse();
}

function diffOps(a: string[], b: string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const middle = myers(midA, midB) ?? [
    ...midA.map((line) => ({ kind: '-' as const, line })),
    ...midB.map((line) => ({ kind: '+' as const, line })),
  ];
  return [
    ...a.slice(0, start).map((line) => ({ kind: ' ' as const, line })),
    ...middle,
    ...a.slice(endA).map((line) => ({ kind: ' ' as const, line })),
  ];
}

function render(op: Op): string[] {
  const noEol = op.line.endsWith(NO_EOL);
  const text = `${op.kind}${noEol ? op.line.slice(0, -NO_EOL.length) : op.line}`;
  return noEol ? [text, '\\ No newline at end of file'] : [text];
}

function range(start: number, count: number): string {
  // Unified diff convention: an empty range names the line before it.
  return count === 1 ? `${start}` : `${count === 0 ? start - 1 : start},${count}`;
}

/**
 * Unified diff of `before` → `after` for `path` (workspace-relative). `before` undefined means
 * a new file (`--- /dev/null`), `after` undefined a deleted one (`+++ /dev/null`). Returns ''
 * when nothing changes.
 */
export function unifiedDiff(before: string | undefined, after: string | undefined, path: string): string {
  const ops = diffOps(splitLines(before ?? ''), splitLines(after ?? ''));
  const changed = ops.map((op, i) => (op.kind === ' ' ? -1 : i)).filter((i) => i >= 0);
  if (changed.length === 0) return '';

  // Group changes whose context windows touch into hunks.
  const groups: Array<[number, number]> = [];
  for (const i of changed) {
    const last = groups.at(-1);
    if (last && i - last[1] <= 2 * CONTEXT) last[1] = i;
    else groups.push([i, i]);
  }
  const out = [
    `--- ${before === undefined ? '/dev/null' : `a/${path}`}`,
    `+++ ${after === undefined ? '/dev/null' : `b/${path}`}`,
  ];
  // Line numbers before each op, in the old and the new file.
  const oldLine: number[] = [];
  const newLine: number[] = [];
  let o = 1;
  let n = 1;
  for (const op of ops) {
    oldLine.push(o);
    newLine.push(n);
    if (op.kind !== '+') o++;
    if (op.kind !== '-') n++;
  }
  for (const [first, last] of groups) {
    const from = Math.max(0, first - CONTEXT);
    const to = Math.min(ops.length - 1, last + CONTEXT);
    const slice = ops.slice(from, to + 1);
    const oldCount = slice.filter((op) => op.kind !== '+').length;
    const newCount = slice.filter((op) => op.kind !== '-').length;
    out.push(`@@ -${range(oldLine[from]!, oldCount)} +${range(newLine[from]!, newCount)} @@`);
    for (const op of slice) out.push(...render(op));
  }
  return `${out.join('\n')}\n`;
}
