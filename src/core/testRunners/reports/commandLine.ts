/**
 * Just enough of a POSIX shell command line to tell whether flags can be added to it safely: the words of ONE simple
 * command, as written (quotes kept), or undefined when the line is anything else.
 */

/**
 * The words of a command line that is one simple command: no `;`, `&`, `&&`, `|`, `||`, newline, redirection,
 * backquote, subshell or comment outside quotes. `$(…)` inside a word is allowed (the TypeScript scaffold's
 * `tsx --test $(find …)`), and so are quoted strings. Each word is returned as written (quotes and `$(…)` kept), so
 * joining the words with spaces gives back an equivalent command line. Undefined for anything else, or an unclosed
 * quote: then nothing is added to the command.
 */
export function simpleCommandWords(command: string): string[] | undefined {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  const text = command.trim();
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
      continue;
    }
    if (';&|<>\n\r`()'.includes(c)) return undefined;
    if (c === '#' && !inWord) return undefined;
    if (c === '\\') {
      if (i + 1 >= text.length) return undefined;
      word += text.slice(i, i + 2);
      inWord = true;
      i += 2;
      continue;
    }
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return undefined;
      word += text.slice(i, end + 1);
      inWord = true;
      i = end + 1;
      continue;
    }
    if (c === '"') {
      const end = closingDoubleQuote(text, i + 1);
      if (end < 0) return undefined;
      word += text.slice(i, end + 1);
      inWord = true;
      i = end + 1;
      continue;
    }
    if (c === '$' && text[i + 1] === '(') {
      const end = closingParen(text, i + 2);
      if (end < 0) return undefined;
      word += text.slice(i, end + 1);
      inWord = true;
      i = end + 1;
      continue;
    }
    word += c;
    inWord = true;
    i++;
  }
  if (inWord) words.push(word);
  return words.length > 0 ? words : undefined;
}

function closingDoubleQuote(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '`')
      return -1; // command substitution inside quotes: not analysed
    else if (text[i] === '"') return i;
  }
  return -1;
}

/** The index of the `)` closing a `$(` whose body starts at `from`, skipping quotes and nested `$(…)`/`(…)`. */
function closingParen(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') i++;
    else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (c === '"') {
      const end = closingDoubleQuote(text, i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (c === '`') return -1;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/** A word without its quotes when it is plain text (no `$`, no escapes left to interpret); undefined otherwise. */
export function plainWord(word: string): string | undefined {
  if (word.includes('$')) return undefined;
  let out = '';
  for (let i = 0; i < word.length; i++) {
    const c = word[i]!;
    if (c === "'") {
      const end = word.indexOf("'", i + 1);
      out += word.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      const end = closingDoubleQuote(word, i + 1);
      const inner = word.slice(i + 1, end);
      if (inner.includes('\\')) return undefined;
      out += inner;
      i = end;
    } else if (c === '\\') {
      out += word[i + 1] ?? '';
      i++;
    } else out += c;
  }
  return out;
}

/** A word for the shell that stands for exactly `value` (single-quoted unless it is made of safe characters only). */
export function shellWord(value: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** node options whose value is the next word (`--import tsx`, `--test-name-pattern foo`). */
export const NODE_VALUE_OPTIONS: ReadonlySet<string> = new Set([
  '--import',
  '--require',
  '-r',
  '--loader',
  '--experimental-loader',
  '--env-file',
  '--conditions',
  '-C',
  '--input-type',
  '--test-name-pattern',
  '--test-skip-pattern',
  '--test-reporter',
  '--test-reporter-destination',
  '--test-concurrency',
  '--test-timeout',
  '--test-shard',
  '--test-coverage-include',
  '--test-coverage-exclude',
  '--test-coverage-lines',
  '--test-coverage-branches',
  '--test-coverage-functions',
  '--test-isolation',
  '--experimental-test-isolation',
  '--test-global-setup',
  '--watch-path',
  '--disable-warning',
  '--redirect-warnings',
  '--unhandled-rejections',
  '--title',
]);
