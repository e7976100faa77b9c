import { showBidiControls } from '../../shared/bidiControls';

/**
 * Text from a model, a tool call or a preview is data, never terminal commands: before it is printed it
 * goes through {@link escapeTerminalText}, so an escape sequence in a file cannot move the cursor, erase
 * lines, recolour text or retitle the window, and a diff cannot be made to look harmless.
 */

/**
 * C0 controls except tab (09) and newline (0a), carriage return when no newline follows it, DEL, C1 controls,
 * and a backslash that is followed by `x` (so a literal `\x` in the text cannot pass for an escape).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is this module's job
const UNSAFE = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)|\\(?=x)/g;

/**
 * `text` made safe to write to a terminal: every control character is shown, none is interpreted.
 *
 * The form is the hex escape `\xHH` (two lowercase hex digits of the code point), used for:
 * - C0 controls U+0000–U+001F except tab and newline: ESC → `\x1b`, BEL → `\x07`, backspace → `\x08`;
 * - a carriage return not followed by a newline (a lone CR returns to the line start and overwrites it) →
 *   `\x0d`; CR LF is kept;
 * - DEL U+007F → `\x7f` and C1 controls U+0080–U+009F (e.g. the one-character CSI U+009B → `\x9b`);
 * - a backslash directly followed by `x` → `\x5c`, so the output is unambiguous: every `\x` in it is an
 *   escape made here, and a literal `\x1b` in the text is shown as `\x5cx1b`.
 *
 * The bidirectional controls, which reorder what a terminal shows without changing the bytes (a diff or a command
 * can read unlike what it does: "Trojan Source", CVE-2021-42574), are shown as `\x{hhhh}`: RLO U+202E → `\x{202e}`
 * (one definition with the panel's: `src/shared/bidiControls.ts`).
 *
 * Everything else — newline, tab, other backslashes, any other Unicode — is unchanged, so code, paths
 * and diffs read as they are. `ESC[2K` becomes the visible text `\x1b[2K`.
 */
export function escapeTerminalText(text: string): string {
  return showBidiControls(text.replace(UNSAFE, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`));
}
