/**
 * The Unicode bidirectional controls (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069). They reorder how text
 * is displayed without changing it, so code, a diff or a command can read unlike what it does ("Trojan Source",
 * CVE-2021-42574). The terminal (`escapeTerminalText` in the core) and the panel (every text node the webview makes)
 * show each one as the visible text `\x{hhhh}` instead of applying it; right-to-left text itself is unchanged.
 */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with each bidirectional control written as `\x{hhhh}` (RLO U+202E → `\x{202e}`). */
export function showBidiControls(text: string): string {
  return text.replace(BIDI_CONTROL, (ch) => `\\x{${ch.charCodeAt(0).toString(16)}}`);
}
