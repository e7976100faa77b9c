/**
 * Generates the eval kata set in katas/eval/ from Exercism's problem-specifications (MIT): for each exercise in
 * EXERCISES (eval-kata-exercises.ts), the kata text (katas/eval/<slug>.md), the acceptance tests of each language in
 * {@link EMITTERS} (JavaScript with node:test, Python with pytest, Go with go test, Ruby with
 * RSpec, PHP with PHPUnit, Rust with cargo test, Java with JUnit 5) built from the exercise's
 * canonical-data.json, one test per canonical case named after it and ending with `[<case uuid>]`, and the index
 * katas/eval/set.json with the case counts. A language is one row of EMITTERS: its file's path, the names the kata
 * asks for, and the file's text.
 *
 *   npx tsx scripts/generate-eval-katas.ts <problem-specifications checkout or git dir> [--commit <sha>] [--check]
 *
 * The data is read with git at one commit (HEAD unless --commit says otherwise), so a bare mirror works as well as
 * a checkout, and the commit is written into set.json and every generated header. --check writes nothing: it
 * lists the files that would change and exits 1 if any would. The output depends only on the commit's data and on
 * this script, so running it again on the same commit reproduces the committed files byte for byte.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { goTests } from './eval-kata-go';
import { javaTests } from './eval-kata-java';
import { phpTests } from './eval-kata-php';
import { rubyTests } from './eval-kata-ruby';
import { rustTests } from './eval-kata-rust';
import { EXERCISES, type EvalExercise, type FlatCase } from './eval-kata-exercises';

/** katas/eval/ of this repository. */
export const EVAL_DIR = resolve(__dirname, '..', 'katas', 'eval');

interface CanonicalGroup {
  description: string;
  cases: CanonicalEntry[];
}
type CanonicalEntry = CanonicalGroup | Omit<FlatCase, 'path'>;

/** Reads a file of problem-specifications at a commit, with git (a checkout or a bare git dir alike). */
function gitShow(source: string, commit: string, path: string): string {
  return git(source, ['show', `${commit}:${path}`], `${path} at ${commit}`);
}

/** Runs git in `source`; a failure is an Error saying what was wanted and git's own words. */
function git(source: string, args: string[], wanted: string): string {
  try {
    return execFileSync('git', ['-C', source, ...args], { encoding: 'utf8', maxBuffer: 64 << 20, stdio: 'pipe' });
  } catch (cause) {
    const said = String((cause as { stderr?: unknown }).stderr ?? '').trim() || (cause as Error).message;
    throw new Error(`Cannot read ${wanted} from ${source} (a problem-specifications checkout or git dir?): ${said}`, { cause });
  }
}

/** The full hash of a commit of the problem-specifications repository at `source`. */
export function resolveCommit(source: string, commit = 'HEAD'): string {
  return git(source, ['rev-parse', '--verify', `${commit}^{commit}`], `commit ${commit}`).trim();
}

/** Every case of a canonical-data.json, nested groups flattened (their descriptions kept in `path`). */
export function flattenCases(entries: CanonicalEntry[], path: string[] = []): FlatCase[] {
  return entries.flatMap((entry) =>
    'cases' in entry
      ? flattenCases(entry.cases, [...path, entry.description])
      : [{ ...entry, path: [...path, entry.description] } as FlatCase],
  );
}

/** The cases a set keeps, and why each other one was left out. */
export function selectCases(exercise: EvalExercise, cases: FlatCase[]): { kept: FlatCase[]; skipped: string[] } {
  const replacedBy = new Map<string, string[]>();
  for (const c of cases) if (c.reimplements) replacedBy.set(c.reimplements, [...(replacedBy.get(c.reimplements) ?? []), c.uuid]);
  const kept: FlatCase[] = [];
  const skipped: string[] = [];
  for (const c of cases) {
    const newer = replacedBy.get(c.uuid);
    const unfit = exercise.skip?.[c.uuid];
    if (newer) skipped.push(`${c.uuid} (${c.description}): reimplemented by ${newer.join(', ')}`);
    else if (unfit) skipped.push(`${c.uuid} (${c.description}): ${unfit}`);
    else kept.push(c);
  }
  for (const uuid of Object.keys(exercise.skip ?? {})) {
    if (!cases.some((c) => c.uuid === uuid)) throw new Error(`${exercise.slug}: the skipped case ${uuid} is not in the data`);
  }
  return { kept, skipped };
}

const testName = (c: FlatCase): string => `${c.path.join(': ')} [${c.uuid}]`;

function pythonName(c: FlatCase, taken: Set<string>): string {
  const base = `test_${c.path
    .join(' ')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')}`;
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
  taken.add(name);
  return name;
}

function header(comment: string, exercise: EvalExercise, commit: string, skipped: string[]): string {
  const lines = [
    `Acceptance tests of the eval kata "${exercise.title}" (katas/eval/${exercise.slug}.md).`,
    `Generated by scripts/generate-eval-katas.ts from Exercism problem-specifications,`,
    `exercises/${exercise.slug}/canonical-data.json at commit ${commit}`,
    `(MIT licence: katas/eval/LICENSE). Do not edit: change the script and run it again.`,
    `One test per canonical case; each test's name ends with the case's UUID.`,
    ...(skipped.length ? ['Left out:', ...skipped.map((s) => `- ${s}`)] : ['No case left out.']),
  ];
  return lines.map((line) => `${comment} ${line}`).join('\n');
}

/** The JavaScript acceptance test file (ESM, node:test), importing from ../src/<module>.js. */
export function javascriptTests(exercise: EvalExercise, commit: string, cases: FlatCase[], skipped: string[]): string {
  const { module, exports } = exercise.javascript;
  const tests = cases.map((c) => {
    const body = exercise.render(c).js.map((line) => `  ${line}`);
    return [`test(${JSON.stringify(testName(c))}, () => {`, ...body, '});'].join('\n');
  });
  return [
    header('//', exercise, commit, skipped),
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    `import { ${exports.join(', ')} } from '../src/${module}.js';`,
    '',
    tests.join('\n\n'),
    '',
  ].join('\n');
}

/** The Python acceptance test file (pytest): each test's node id is `test_<description>[<case uuid>]`. */
export function pythonTests(exercise: EvalExercise, commit: string, cases: FlatCase[], skipped: string[]): string {
  const { module, exports } = exercise.python;
  const taken = new Set<string>();
  const tests = cases.map((c) => {
    const body = exercise.render(c).py.map((line) => `    ${line}`);
    return [`@case(${JSON.stringify(c.uuid)})`, `def ${pythonName(c, taken)}(case_uuid):`, ...body].join('\n');
  });
  return [
    header('#', exercise, commit, skipped),
    'import pytest',
    '',
    `from ${module} import ${exports.join(', ')}`,
    '',
    '',
    'def case(uuid):',
    '    """Puts the canonical case\'s UUID at the end of the test\'s name: test_<description>[<uuid>]."""',
    '    return pytest.mark.parametrize("case_uuid", [uuid])',
    '',
    '',
    tests.join('\n\n\n'),
    '',
  ].join('\n');
}

/** The kata file: front matter (title, max_cycles) and the text written for this product. */
export function kataMarkdown(exercise: EvalExercise): string {
  return [
    '---',
    '# Generated by scripts/generate-eval-katas.ts (the text lives there). Based on Exercism problem-specifications (MIT).',
    `title: ${exercise.title}`,
    `max_cycles: ${exercise.maxCycles}`,
    '---',
    exercise.kata.trim(),
    '',
  ].join('\n');
}

/**
 * One language of the set: where its acceptance file goes (relative to katas/eval/), the module and names the kata asks
 * for (undefined: the exercise has no tests in this language), and the file's text. A new language is a new row.
 */
export interface LanguageEmitter {
  /** The key in set.json's `languages` (a `Language` of the product). */
  language: string;
  names(exercise: EvalExercise): { module: string; exports: string[] } | undefined;
  path(exercise: EvalExercise): string;
  tests(exercise: EvalExercise, commit: string, cases: FlatCase[], skipped: string[]): string;
}

/** The languages of the set, in the order set.json lists them. */
export const EMITTERS: readonly LanguageEmitter[] = [
  {
    language: 'javascript',
    names: (exercise) => exercise.javascript,
    path: (exercise) => `acceptance/javascript/${exercise.slug}.test.js`,
    tests: javascriptTests,
  },
  {
    language: 'python',
    names: (exercise) => exercise.python,
    path: (exercise) => `acceptance/python/test_${exercise.slug.replace(/-/g, '_')}.py`,
    tests: pythonTests,
  },
  {
    language: 'go',
    names: (exercise) =>
      exercise.go && { module: exercise.go.package, exports: Object.values(exercise.go.functions).map((f) => f.name) },
    path: (exercise) => `acceptance/go/${exercise.slug.replace(/-/g, '_')}_acceptance_test.go`,
    tests: (exercise, commit, cases, skipped) =>
      goTests(exercise.go!, `${header('//', exercise, commit, skipped)}\n`, cases, (c) => testName(c as FlatCase)),
  },
  {
    language: 'ruby',
    names: (exercise) =>
      exercise.ruby && {
        module: exercise.ruby.file,
        exports: Object.values(exercise.ruby.methods).map((m) => `${exercise.ruby!.module}.${m.name}`),
      },
    path: (exercise) => `acceptance/ruby/${exercise.slug.replace(/-/g, '_')}_spec.rb`,
    tests: (exercise, commit, cases, skipped) =>
      rubyTests(exercise.ruby!, `${header('#', exercise, commit, skipped)}\n`, exercise.title, cases, (c) =>
        testName(c as FlatCase),
      ),
  },
  {
    language: 'php',
    names: (exercise) =>
      exercise.php && {
        module: exercise.php.class,
        exports: Object.values(exercise.php.methods).map((m) => `${exercise.php!.class}::${m.name}`),
      },
    path: (exercise) => `acceptance/php/${exercise.php!.class}AcceptanceTest.php`,
    tests: (exercise, commit, cases, skipped) =>
      phpTests(exercise.php!, `${header('//', exercise, commit, skipped)}\n`, cases, (c) => testName(c as FlatCase)),
  },
  {
    language: 'java',
    names: (exercise) =>
      exercise.java && {
        module: exercise.java.class,
        exports: Object.values(exercise.java.methods).map((m) => `${exercise.java!.class}.${m.name}`),
      },
    path: (exercise) => `acceptance/java/${exercise.java!.class}AcceptanceTest.java`,
    tests: (exercise, commit, cases, skipped) =>
      javaTests(exercise.java!, header('//', exercise, commit, skipped), cases, (c) => testName(c as FlatCase)),
  },
  {
    language: 'rust',
    names: (exercise) =>
      exercise.rust && { module: exercise.rust.crate, exports: Object.values(exercise.rust.functions).map((f) => f.name) },
    // Copied to tests/<crate>.rs: an integration test, as Exercism's Rust track has them.
    path: (exercise) => `acceptance/rust/${exercise.rust!.crate}.rs`,
    tests: (exercise, commit, cases, skipped) =>
      rustTests(exercise.rust!, `${header('//', exercise, commit, skipped)}\n`, cases, (c) => testName(c as FlatCase)),
  },
];

/** One entry of katas/eval/set.json. */
export interface EvalSetEntry {
  slug: string;
  title: string;
  tags: string[];
  source: { exercise: string; commit: string };
  /** Per language (a key of {@link EMITTERS}); JavaScript and Python are there for every exercise. */
  languages: Record<'javascript' | 'python', EvalSetLanguage> & Partial<Record<string, EvalSetLanguage>>;
}

/** One language of an entry of katas/eval/set.json. */
export interface EvalSetLanguage {
  module: string;
  exports: string[];
  acceptance: string;
  cases: number;
}

/** Every file of katas/eval/ the generator owns, by path relative to katas/eval/, from the data at `commit`. */
export function generateEvalSet(source: string, commitish = 'HEAD'): Map<string, string> {
  const commit = resolveCommit(source, commitish);
  const files = new Map<string, string>();
  const set: EvalSetEntry[] = [];
  for (const exercise of EXERCISES) {
    const data = JSON.parse(gitShow(source, commit, `exercises/${exercise.slug}/canonical-data.json`));
    const { kept, skipped } = selectCases(exercise, flattenCases(data.cases));
    files.set(`${exercise.slug}.md`, kataMarkdown(exercise));
    const languages: Record<string, EvalSetLanguage> = {};
    for (const emitter of EMITTERS) {
      const names = emitter.names(exercise);
      if (!names) continue;
      const path = emitter.path(exercise);
      files.set(path, emitter.tests(exercise, commit, kept, skipped));
      languages[emitter.language] = { ...names, acceptance: path, cases: kept.length };
    }
    set.push({
      slug: exercise.slug,
      title: exercise.title,
      tags: exercise.tags,
      source: { exercise: exercise.slug, commit },
      languages: languages as EvalSetEntry['languages'],
    });
  }
  files.set('set.json', `${JSON.stringify(set, null, 2)}\n`);
  return files;
}

/** The generated files that differ from what is in `dir` (missing ones included). */
export function changedFiles(files: Map<string, string>, dir = EVAL_DIR): string[] {
  return [...files]
    .filter(([path, text]) => !existsSync(join(dir, path)) || readFileSync(join(dir, path), 'utf8') !== text)
    .map(([path]) => path);
}

function main(argv: string[]): number {
  const args = [...argv];
  const check = args.includes('--check');
  const at = args.indexOf('--commit');
  const commit = at >= 0 ? args.splice(at, 2)[1] : 'HEAD';
  const [source] = args.filter((a) => a !== '--check');
  if (!source || !commit) {
    process.stderr.write(
      'Usage: npx tsx scripts/generate-eval-katas.ts <problem-specifications checkout or git dir> [--commit <sha>] [--check]\n',
    );
    return 2;
  }
  let files: Map<string, string>;
  try {
    files = generateEvalSet(resolve(source), commit);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    return 1;
  }
  const changed = changedFiles(files);
  if (check) {
    for (const path of changed) process.stdout.write(`would change: katas/eval/${path}\n`);
    process.stdout.write(
      changed.length ? `${changed.length} file(s) differ\n` : `katas/eval/ is up to date (${files.size} files)\n`,
    );
    return changed.length ? 1 : 0;
  }
  for (const path of changed) {
    mkdirSync(dirname(join(EVAL_DIR, path)), { recursive: true });
    writeFileSync(join(EVAL_DIR, path), files.get(path)!);
    process.stdout.write(`wrote katas/eval/${path}\n`);
  }
  process.stdout.write(`${files.size} files, ${changed.length} changed\n`);
  return 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
