/** Which lines a selection covers: one definition for the panel's label and the model's prompt (pure: no `vscode`). */

/** A position as VS Code gives it (0-based line and character). */
export interface LinePosition {
  line: number;
  character: number;
}

/** The 1-based first and last line of a selection. */
export interface SelectedLines {
  first: number;
  last: number;
}

/**
 * The lines a selection covers, 1-based. A selection that ends at the very start of a line (column 1:
 * whole lines selected with Shift+Down or by a triple click) does not include that line: lines 2–4 with
 * the cursor at column 1 of line 5 are 2–4.
 */
export function selectedLines(start: LinePosition, end: LinePosition): SelectedLines {
  const last = end.character === 0 && end.line > start.line ? end.line - 1 : end.line;
  return { first: start.line + 1, last: last + 1 };
}

/** `first-last` as the panel labels a selection; a single line is one number. */
export function lineRangeLabel(lines: SelectedLines): string {
  return lines.first === lines.last ? `${lines.first}` : `${lines.first}-${lines.last}`;
}

/** The 1-based line range `from-to` a selection covers (see {@link selectedLines}). */
export function selectionLineRange(start: LinePosition, end: LinePosition): string {
  return lineRangeLabel(selectedLines(start, end));
}
