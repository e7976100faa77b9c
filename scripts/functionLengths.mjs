// How long a function of the product's code may be (issue 37: the long factories became small named parts).
// ESLint's `max-lines-per-function` holds every function of src/ and webview/ to LONGEST lines (eslint.config.mjs takes the rule
// from here); this script, run by `npm run lint`, also fails when more than MOST_LONG functions are over LONG lines.
// Lines are counted as ESLint counts them, without blank lines and comments: a comment that says why is never the
// reason to split a function. A nested function counts apart from the one around it, and its lines in that one too.
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { pathToFileURL } from 'node:url';

/** The product's code: the extension, the CLI and the core (src/), and the panel's page (webview/). */
export const PRODUCT_CODE = ['src/**/*.ts', 'webview/**/*.ts'];
/** No function of the product's code over this many lines (an ESLint error). */
export const LONGEST = 120;
/** A function over this many lines is long... */
export const LONG = 80;
/** ...and the product's code holds at most this many long ones. */
export const MOST_LONG = 10;
/** The rule's options, shared with eslint.config.mjs. */
export const countedLines = { skipBlankLines: true, skipComments: true, IIFEs: true };

/** The functions of `patterns` (globs from `cwd`) over `long` lines: `{ file, line, name, lines }`, longest first. */
export async function longFunctions(patterns, { cwd = process.cwd(), long = LONG } = {}) {
  const eslint = new ESLint({
    cwd,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        linterOptions: { reportUnusedDisableDirectives: 'off' },
        rules: { 'max-lines-per-function': ['error', { max: long, ...countedLines }] },
      },
    ],
  });
  const found = [];
  for (const result of await eslint.lintFiles(patterns)) {
    for (const message of result.messages) {
      if (message.ruleId !== 'max-lines-per-function') continue;
      const [, name, lines] = /^(.*) has too many lines \((\d+)\)/.exec(message.message) ?? [];
      found.push({ file: result.filePath.slice(cwd.length + 1), line: message.line, name, lines: Number(lines) });
    }
  }
  return found.sort((a, b) => b.lines - a.lines);
}

/** The check of the lint step: exits 1, listing the long functions, when the product's code has one over LONGEST or too many over LONG. */
async function check() {
  const found = await longFunctions(PRODUCT_CODE);
  const over = found.filter((f) => f.lines > LONGEST);
  const tooMany = found.length > MOST_LONG;
  if (over.length === 0 && !tooMany) {
    console.log(
      `function lengths: ${found.length} of src/ and webview/ over ${LONG} lines (at most ${MOST_LONG}), none over ${LONGEST}`,
    );
    return;
  }
  for (const f of found) console.error(`${f.lines}\t${f.file}:${f.line}\t${f.name}`);
  if (over.length > 0)
    console.error(`${over.length} function(s) of src/ and webview/ over ${LONGEST} lines: split them into named parts.`);
  if (tooMany)
    console.error(
      `${found.length} functions of src/ and webview/ over ${LONG} lines (at most ${MOST_LONG}): split one into named parts before adding another.`,
    );
  process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) void check();
