/** A doctest's failure as pytest reports it, with what went wrong first. */
export interface DoctestFailure {
  /** What went wrong on its first line (`Expected: 1, Got: 3 (>>> first([3, 1]))`), then pytest's own lines. */
  message: string;
  /** The failing example's 1-based line in the doctest's file. */
  line?: number;
}

/** pytest's location line that ends a doctest's failure: `/abs/docs/index.rst:7: DocTestFailure`. */
const LOCATION = /^(.*):(\d+): (DocTestFailure|UnexpectedException)$/;
/** A line of the docstring or page pytest prints up to the failing example, numbered: `007     >>> first([3, 1])`. */
const NUMBERED = /^\d{3,} ?/;
const SHOWN_VALUE_CHARS = 80;

/**
 * A doctest's failure (`--doctest-modules`, `--doctest-glob=*.rst`) reads, in pytest's report, as the page or docstring
 * up to the failing example, each line numbered (`001 Usage`, …, `004 If you need to check…`), then what went wrong
 * (`Expected:` / `Got:`, `UNEXPECTED EXCEPTION: IndexError(…)` and its traceback), then the location. A reason quoted
 * from its first line was the page's first line. Here the first line says what went wrong and on which example; the
 * page's text is left out (the role can read the file); the rest follows as pytest wrote it, without the location,
 * whose line number is returned apart. Undefined for a failure that is not a doctest's.
 */
export function doctestFailure(text: string): DoctestFailure | undefined {
  const lines = text.replace(/\r\n/g, '\n').trimEnd().split('\n');
  const location = LOCATION.exec(lines.at(-1) ?? '');
  if (!location) return undefined;
  const start = lines.findIndex((l) => !NUMBERED.test(l));
  if (start <= 0) return undefined;
  const example = lines[start - 1]!.replace(NUMBERED, '').trim();
  const body = lines.slice(start, -1);
  while (body.length > 0 && body.at(-1)!.trim() === '') body.pop();
  const first = body[0] ?? '';
  let head: string;
  let rest = body;
  if (location[3] === 'UnexpectedException' || first.startsWith('UNEXPECTED EXCEPTION:')) {
    head = first;
    rest = body.slice(1);
  } else if (/^Expected(:| nothing)/.test(first)) {
    head = `Expected: ${shown(block(body, 'Expected'))}, Got: ${shown(block(body, 'Got'))}`;
  } else {
    head = first; // REPORT_UDIFF / NDIFF: "Differences (unified diff with -expected +actual):"
  }
  return {
    message: [`${head} (${example})`, ...rest].join('\n'),
    line: Number(location[2]),
  };
}

/** The value under doctest's `Expected:` or `Got:` (indented lines up to the next heading), or `nothing`. */
function block(lines: string[], heading: 'Expected' | 'Got'): string[] {
  const at = lines.findIndex((l) => l === `${heading}:` || l === `${heading} nothing`);
  if (at < 0 || lines[at] === `${heading} nothing`) return ['nothing'];
  const value: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (!/^\s/.test(line) && line !== '') break;
    value.push(line.trim());
  }
  while (value.length > 0 && value.at(-1) === '') value.pop();
  return value;
}

/** One line for a value: itself, else its first line and how many lines it has. */
function shown(value: string[]): string {
  const firstLine = value[0] ?? '';
  const one = value.length > 1 ? `${firstLine} … (${value.length} lines)` : firstLine;
  return one.length > SHOWN_VALUE_CHARS ? `${one.slice(0, SHOWN_VALUE_CHARS - 1)}…` : one;
}
