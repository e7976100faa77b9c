/**
 * Entries of an agent config's `tools` list: an exact tool name (`read_file`), or a prefix pattern ending
 * in `*` (`docs__*` = every tool of the MCP server `docs`). Tool names follow OpenAI's function-name
 * rule (letters, digits, `_`, `-`), so nothing else can ever match.
 */

/** The character that ends a prefix pattern. */
export const TOOL_PATTERN_WILDCARD = '*';

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** True when `entry` is a prefix pattern (ends in `*`). */
export function isToolPattern(entry: string): boolean {
  return entry.endsWith(TOOL_PATTERN_WILDCARD);
}

/**
 * What is wrong with one `tools` entry, or undefined when it is a valid tool name or prefix pattern.
 * A pattern needs a non-empty prefix (a bare `*` would hand the agent every tool) and only one `*`, at the end.
 */
export function toolEntryProblem(entry: string): string | undefined {
  if (isToolPattern(entry)) {
    const prefix = entry.slice(0, -TOOL_PATTERN_WILDCARD.length);
    if (prefix === '') return 'a bare "*" is not allowed: give a prefix, e.g. "docs__*" for every tool of the MCP server docs';
    if (prefix.includes(TOOL_PATTERN_WILDCARD))
      return `${JSON.stringify(entry)}: "*" may appear only once, at the end (a prefix pattern such as "docs__*")`;
    if (!TOOL_NAME.test(prefix))
      return `${JSON.stringify(entry)}: the prefix may hold only letters, digits, "_" and "-" (tool names cannot contain anything else)`;
    return undefined;
  }
  if (entry.includes(TOOL_PATTERN_WILDCARD))
    return `${JSON.stringify(entry)}: "*" may appear only at the end (a prefix pattern such as "docs__*")`;
  if (!TOOL_NAME.test(entry))
    return `${JSON.stringify(entry)}: a tool name has 1-64 letters, digits, "_" or "-" (or end it in "*" to match by prefix)`;
  return undefined;
}

/**
 * A predicate for the tool names a `tools` list allows: exact names match themselves, `prefix*` matches
 * every name starting with `prefix`. Entries are assumed valid (see {@link toolEntryProblem}).
 */
export function toolNameMatcher(entries: readonly string[]): (toolName: string) => boolean {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const entry of entries) {
    if (isToolPattern(entry)) prefixes.push(entry.slice(0, -TOOL_PATTERN_WILDCARD.length));
    else exact.add(entry);
  }
  return (toolName) => exact.has(toolName) || prefixes.some((prefix) => toolName.startsWith(prefix));
}
