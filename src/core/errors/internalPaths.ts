/**
 * Text from outside the process (a model server's error body, a tool's stderr) may carry a stack trace with
 * the server's file paths. Before such text goes into a message a person reads, the trace is reduced to its
 * last line (`ValueError: boom`) and absolute file paths are replaced with `<path>`.
 */

const TRACEBACK_START = /Traceback \(most recent call last\):|^\s+at .+\(.*:\d+:\d+\)$|^\s+File ".+", line \d+/m;
// An absolute POSIX path of at least two segments not inside a URL (`http://host/v1/x` is preceded by a host character),
// a home-relative path, or a Windows drive path.
const POSIX_PATH = /(?<![\w:/.~-])(?:~|\/)(?:\/?[\w.@+-]+){2,}\/?/g;
const WINDOWS_PATH = /\b[A-Za-z]:\\[^\s"'<>|,;)]+/g;

/** The last meaningful line of a stack trace (`KeyError: 'x'`), or the text itself when it has no trace. */
function withoutTrace(text: string): string {
  if (!TRACEBACK_START.test(text)) return text;
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  const meaningful = lines.filter(
    (line) => !/^(Traceback \(most recent call last\):|File ".+", line \d+|at .+:\d+:\d+\)?$)/.test(line),
  );
  // Python puts the error last; Node puts it first. Either way, the line naming an error type is what a person needs.
  const named = meaningful.filter((line) => /^[\w.]*(Error|Exception|Exit|Interrupt)\b.*:?/.test(line));
  return (named.at(-1) ?? meaningful.at(-1) ?? 'the server reported an internal error').trim();
}

/**
 * `text` without stack traces and absolute file paths, for a user-facing message (NFR-015): a trace becomes its
 * error line, a path becomes `<path>`. URLs are kept. Returns '' for empty input.
 */
export function withoutInternalPaths(text: string): string {
  if (!text) return '';
  return withoutTrace(text).replace(WINDOWS_PATH, '<path>').replace(POSIX_PATH, '<path>');
}
