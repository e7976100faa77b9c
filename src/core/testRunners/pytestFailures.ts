import { runtimeFramesLeftOut } from './runtimeFrames';

/**
 * pytest's failure report without what the model already has: the long traceback prints each frame's function
 * source from its `def` line down to the failing line, which the role context and read_file show in full. Only
 * the failing line (`>`), the statement's continuation, the carets and the `E` lines stay, as pytest's
 * `--tb=short` would show them, but with the locals (`self = …`) and every location line kept.
 *
 * Also left out: frames inside the Python installation (an absolute path outside the workspace, e.g. importlib's
 * `import_module` under an import error; counted), and the continuation lines of a `FAILED … - message` line in the
 * short summary, which repeat the `E` lines of the same failure above. The rule between the frames of one failure is
 * shortened, and in an `E` line a run of one character (`+ VVVV…` for 398 V) is written with its count.
 */
export function withoutPytestSourceEcho(lines: string[]): string[] {
  const out: string[] = [];
  let section: 'other' | 'failures' | 'summary' = 'other';
  let pendingSource: string[] = [];
  let afterMarker = false;
  let runtimeFrames = 0;
  const flush = () => {
    out.push(...pendingSource);
    pendingSource = [];
  };
  const noteRuntimeFrames = () => {
    if (!runtimeFrames) return;
    out.push(runtimeFramesLeftOut(runtimeFrames, 'Python'));
    runtimeFrames = 0;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^=+ (FAILURES|ERRORS) =+$/.test(line)) section = 'failures';
    else if (/^=+ short test summary info =+$/.test(line)) section = section === 'failures' ? 'summary' : 'other';
    if (section === 'failures') {
      // A frame of the Python installation: its location line and the indented lines under it.
      if (/^\/\S+\.py:\d+: in \S+/.test(line)) {
        flush();
        runtimeFrames++;
        while (/^\s+\S/.test(lines[i + 1] ?? '')) i++;
        continue;
      }
      noteRuntimeFrames();
      // The 80-column `_ _ _ …` rule between the frames of one failure costs 41 tokens; three underscores say the same.
      if (/^_( _){10,}\s*$/.test(line)) {
        flush();
        afterMarker = false;
        out.push('_ _ _');
        continue;
      }
      if (line.startsWith('>')) {
        pendingSource = []; // the function's source above the failing line
        afterMarker = true;
        out.push(line);
        continue;
      }
      if (line.startsWith('    ') && !afterMarker) {
        pendingSource.push(line);
        continue;
      }
      if (!line.startsWith('    ')) afterMarker = false;
      flush();
      out.push(line.startsWith('E ') ? withRunsCounted(line) : line);
      continue;
    }
    // In the short summary, a line that does not start a result only continues the message above it.
    if (section === 'summary' && /^\s/.test(line)) continue;
    out.push(line);
  }
  flush();
  noteRuntimeFrames();
  return out;
}

/** A run of 32 or more of the same non-space character, as pytest's diff prints a long wrong value. */
const LONG_RUN = /(\S)\1{31,}/g;

/** `E   + VVVV…VIV` (398 V) → `E   + [V × 398]IV`: the same value, a few tokens instead of a hundred. */
function withRunsCounted(line: string): string {
  return line.replace(LONG_RUN, (run, char: string) => `[${char} × ${run.length}]`);
}
