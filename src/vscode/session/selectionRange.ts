/** Where a selection is, as the panel labels it (pure: no `vscode`). */

/** A position as VS Code gives it (0-based line and character). */
export interface LinePosition {
  line: number;
  character: number;
}

/**
 * The 1-based line range `from-to` a selection covers. A selection that ends at column 1 of a line
 * (whole lines selected with the keyboard or by a triple click) does not include that line: lines 1–3
 * with the cursor at the start of line 4 is `1-3`; a single line is one number.
 */
export function selectionLineRange(start: LinePosition, end: LinePosition): string {
  const last = end.character === 0 && end.line > start.line ? end.line - 1 : end.line;
  return last === start.line ? `${start.line + 1}` : `${start.line + 1}-${last + 1}`;
}
