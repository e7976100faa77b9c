/**
 * Stands in for the `entities` package in the panel bundle (esbuild `alias`): markdown-it only needs to
 * decode named and numeric character references, which the browser already knows. Saves ~75 KB of
 * entity tables. A `<textarea>`'s content is RCDATA: setting it creates no element and runs nothing.
 */
const decoder = document.createElement('textarea');

function decode(text: string): string {
  if (!text.includes('&')) return text;
  decoder.innerHTML = text.replace(/</g, '&lt;');
  const value = decoder.value;
  decoder.textContent = '';
  return value;
}

/** Decodes character references in `text` (as `entities`' decodeHTML). */
export function decodeHTML(text: string): string {
  return decode(text);
}

/** Decodes character references in `text` (markdown-it only passes complete `&…;` references here). */
export function decodeHTMLStrict(text: string): string {
  return decode(text);
}
