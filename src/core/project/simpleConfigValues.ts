/**
 * Reads a list of strings out of a JavaScript or TypeScript configuration file (`vitest.config.ts`,
 * `jest.config.js`, `.mocharc.js`) when it is written plainly: `key: ['a', "b"]` or `key: 'a'`, with string
 * literals only. Anything computed (a variable, a spread, a function call, a template with `${}`) is not
 * "simply readable": the answer is then undefined and the runner's defaults apply. Nothing is evaluated.
 */

/** The string literals of an array or single-literal source text, or undefined when it holds anything else. */
function literalStrings(source: string): string[] | undefined {
  const values: string[] = [];
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (/[\s,]/.test(ch)) continue;
    const end = skipLiteral(source, i);
    if (end === i) return undefined; // an identifier, a call, a spread: computed
    if (ch === '"' || ch === "'" || ch === '`') {
      const body = source.slice(i + 1, end - 1);
      if (ch === '`' && body.includes('${')) return undefined;
      values.push(body.replace(/\\(.)/g, '$1'));
    }
    i = end - 1;
  }
  return values;
}

/** The index just past the string literal or comment starting at `i`, or `i` when there is none there. */
function skipLiteral(text: string, i: number): number {
  const ch = text[i];
  if (ch === '/' && text[i + 1] === '/') {
    const end = text.indexOf('\n', i);
    return end < 0 ? text.length : end;
  }
  if (ch === '/' && text[i + 1] === '*') {
    const end = text.indexOf('*/', i + 2);
    return end < 0 ? text.length : end + 2;
  }
  if (ch === '"' || ch === "'" || ch === '`') {
    for (let j = i + 1; j < text.length; j++) {
      if (text[j] === '\\') j++;
      else if (text[j] === ch) return j + 1;
    }
    return text.length;
  }
  return i;
}

/** The text between the bracket at `open` (`{` or `[`) and its partner, or undefined when it is not closed. */
function bracketBody(text: string, open: number): { body: string; end: number } | undefined {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const skipped = skipLiteral(text, i);
    if (skipped !== i) {
      i = skipped - 1;
      continue;
    }
    const ch = text[i];
    if (ch === '{' || ch === '[' || ch === '(') depth++;
    else if (ch === '}' || ch === ']' || ch === ')') {
      depth--;
      if (depth === 0) return { body: text.slice(open + 1, i), end: i };
    }
  }
  return undefined;
}

/** The source text of the value of `key` at the top level of an object body (not inside nested objects). */
function topLevelValue(objectBody: string, key: string): string | undefined {
  const keyPattern = new RegExp(`^(?:${key}|['"]${key}['"])\\s*:\\s*`);
  let depth = 0;
  for (let i = 0; i < objectBody.length; i++) {
    if (depth === 0 && (i === 0 || /[\s,{]/.test(objectBody[i - 1]!))) {
      const match = keyPattern.exec(objectBody.slice(i));
      if (match) {
        const start = i + match[0].length;
        if (objectBody[start] === '[') {
          const array = bracketBody(objectBody, start);
          return array ? `[${array.body}]` : undefined;
        }
        const end = objectBody.slice(start).search(/[,}\n]/);
        return objectBody.slice(start, end < 0 ? undefined : start + end);
      }
    }
    const skipped = skipLiteral(objectBody, i);
    if (skipped !== i) {
      i = skipped - 1;
      continue;
    }
    const ch = objectBody[i]!;
    if (ch === '{' || ch === '[' || ch === '(') depth++;
    else if (ch === '}' || ch === ']' || ch === ')') depth--;
  }
  return undefined;
}

/** `['a', 'b']` or `'a'` → the strings; undefined for anything else. */
function stringList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  const inner = trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1) : trimmed;
  const strings = literalStrings(inner);
  return strings && strings.length > 0 ? strings : undefined;
}

/**
 * The strings of `key` inside the object literal that follows `section:` (e.g. vitest's `test: { include: [...] }`),
 * looking only at that object's own keys; `section` undefined looks for `key` anywhere at the first level of any
 * object (jest's `testMatch`). Undefined when absent or not simply readable.
 */
export function readConfigStrings(source: string, key: string, section?: string): string[] | undefined {
  if (section === undefined) {
    const at = new RegExp(`(?:^|[\\s,{])(?:${key}|['"]${key}['"])\\s*:\\s*`, 'm').exec(source);
    if (!at) return undefined;
    const start = at.index + at[0].length;
    if (source[start] === '[') {
      const array = bracketBody(source, start);
      return array ? stringList(`[${array.body}]`) : undefined;
    }
    const end = source.slice(start).search(/[,}\n]/);
    return stringList(source.slice(start, end < 0 ? undefined : start + end));
  }
  const sectionAt = new RegExp(`(?:^|[\\s,{])${section}\\s*:\\s*\\{`, 'm').exec(source);
  if (!sectionAt) return undefined;
  const object = bracketBody(source, sectionAt.index + sectionAt[0].length - 1);
  return object ? stringList(topLevelValue(object.body, key)) : undefined;
}
