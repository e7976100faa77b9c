/**
 * The project a session works in, as the panel's header says it: every language the repository's manifests show with
 * the command its tests run with in this session — or, for a language the session does not run, that and why — which
 * files are tests and where new ones go in words, and the raw test file patterns kept for a disclosure.
 */
import { redactSecrets } from '../../../core';
import { describeProjectProfile, type Language, LANGUAGE_NAMES, type ProjectProfile, RUNNER_NAMES } from '../../../core/tddApi';
import type { ProjectLanguageSummary, ProjectSummary } from '../../../shared/panelProtocol';

/** Test files named at most, per folder, in the words of the header. */
const MAX_NAMES = 4;
/** Patterns kept for the disclosure. */
const MAX_PATTERNS = 30;

/** The project of a `project_profile` event in words; `scaffolded`: the session wrote a minimal project. */
export function projectSummary(profile: ProjectProfile, scaffolded: boolean): ProjectSummary {
  const own = LANGUAGE_NAMES[profile.language];
  const via = profile.python?.venv
    ? `virtual environment ${profile.python.venv}`
    : profile.packageManager && profile.fields.packageManager !== 'default'
      ? profile.packageManager
      : undefined;
  const session: ProjectLanguageSummary = {
    name: own,
    ...(via ? { via } : {}),
    command: redactSecrets(profile.testCommand),
    runner: RUNNER_NAMES[profile.testRunner],
  };
  const others = [...new Set(profile.languages)]
    .filter((language) => language !== profile.language && !sameToolchain(language, profile.language))
    .map((language): ProjectLanguageSummary => ({
      name: LANGUAGE_NAMES[language],
      notRun: `not run: a session runs one language's tests, and this one runs the ${own} tests only`,
    }));
  const where = profile.testsBesideSource
    ? profile.testDir === '.'
      ? 'beside the code'
      : `beside the code in ${folderText(profile.testDir)}`
    : `in ${folderText(profile.testDir)}`;
  return {
    languages: [session, ...others],
    tests: `${testFilesInWords(profile.testFilePatterns)}; new tests go ${where}`,
    source: profile.sourceRoots.map(folderText).join(', '),
    patterns: profile.testFilePatterns.slice(0, MAX_PATTERNS),
    origin: describeProjectProfile(profile, { scaffolded }).origin,
    leftOut: [],
  };
}

/** The summary with the tests that already failed before the session, set aside, said in words. */
export function withKnownFailures(summary: ProjectSummary, tests: readonly string[]): ProjectSummary {
  if (tests.length === 0) return summary;
  const shown = tests.slice(0, 3).join(', ') + (tests.length > 3 ? `, and ${tests.length - 3} more` : '');
  const count = tests.length === 1 ? '1 test' : `${tests.length} tests`;
  const line = `${count} that already failed before the session ${tests.length === 1 ? 'is' : 'are'} set aside: never blamed on a role, not needed for green (${shown})`;
  return { ...summary, leftOut: [...summary.leftOut, redactSecrets(line)] };
}

/** JavaScript and TypeScript share one manifest and one test command. */
function sameToolchain(a: Language, b: Language): boolean {
  const js = (l: Language): boolean => l === 'javascript' || l === 'typescript';
  return js(a) && js(b);
}

function folderText(folder: string): string {
  return folder === '.' ? 'the root' : `${folder}/`;
}

/** "*.test.js or *.spec.js files, and everything in test/": which files the patterns make tests, without glob syntax. */
export function testFilesInWords(patterns: readonly string[]): string {
  const names = new Map<string, string[]>();
  const folders: string[] = [];
  for (const pattern of patterns) {
    const parts = pattern.split('/');
    const last = parts.at(-1) ?? '';
    const dir = parts
      .slice(0, -1)
      .filter((p) => p !== '**')
      .join('/');
    const anywhere = parts[0] === '**';
    if (last === '**') {
      folders.push(dir ? (anywhere ? `${dir} folders` : `${dir}/`) : 'the whole project');
      continue;
    }
    const within = anywhere && dir ? `${dir} folders` : dir ? `${dir}/` : '';
    names.set(within, [...new Set([...(names.get(within) ?? []), ...fileNames(last)])]);
  }
  const files = [...names].map(([within, list]) => {
    const shown = list.length > MAX_NAMES ? [...list.slice(0, MAX_NAMES), 'similar'] : list;
    return `${orList(shown)} files${within ? ` in ${within}` : ''}`;
  });
  const everything = folders.length > 0 ? [`everything in ${andList(folders)}`] : [];
  return [...files, ...everything].join(', and ') || 'no test files named';
}

/** A file name glob as the names it matches, without extglob and brace syntax: `*.{test,spec}.?(c|m)js` → `*.test.js`, `*.spec.js`. */
function fileNames(glob: string): string[] {
  const plain = glob
    .replace(/[?*+!]\([^()]*\)/g, '') // optional parts: the shortest name shows what is meant
    .replace(/@\(([^()]*)\)/g, (_m, alternatives: string) => `{${alternatives.split('|').join(',')}}`)
    .replace(/\[([a-z]+)\]/gi, (_m, chars: string) => `{${[...chars].join(',')}}`);
  return expandBraces(plain);
}

function expandBraces(text: string): string[] {
  const open = text.indexOf('{');
  const close = open < 0 ? -1 : text.indexOf('}', open);
  if (open < 0 || close < 0) return [text];
  const head = text.slice(0, open);
  const tail = text.slice(close + 1);
  return text
    .slice(open + 1, close)
    .split(',')
    .flatMap((choice) => expandBraces(`${head}${choice}${tail}`));
}

function orList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)!}`;
}

function andList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}
