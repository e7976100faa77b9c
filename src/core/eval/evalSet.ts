import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { AgentError } from '../errors/agentError';
import { NamedFileError, readNamedFile, readNamedText } from '../namedFiles/readNamedFile';
import { bundledKatasDir } from '../tdd/kata/bundledKatas';
import { LANGUAGES, type Language } from '../vocabulary';
import { ACCEPTANCE_RUNS, acceptanceLanguages } from './acceptanceRuns';

// The eval kata set: `katas/eval/set.json` lists the exercises, `katas/eval/<slug>.md` is each one's kata, and each
// language's held-back acceptance tests (which the agents never see) sit at the path the entry names.

/** One language of an exercise: the module and functions the kata asks for, and its acceptance tests. */
export const EvalLanguageSchema = z.object({
  /** The module the kata asks for (`src/<module>.js`, `src/<module>.py`). */
  module: z.string().min(1),
  /** The functions the module must export. */
  exports: z.array(z.string().min(1)).min(1),
  /** The acceptance test file, relative to the set's folder. */
  acceptance: z.string().min(1),
  /** How many acceptance tests the file holds (the total when the file cannot even be loaded). */
  cases: z.number().int().positive(),
});

/** One exercise of the set. */
export const EvalExerciseSchema = z.object({
  slug: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a slug is lower-case letters, digits and dashes'),
  title: z.string().min(1),
  tags: z.array(z.string().min(1)).default([]),
  /** Where the exercise comes from (e.g. an exercism problem at a commit). */
  source: z.object({ exercise: z.string(), commit: z.string() }).partial().optional(),
  languages: z.partialRecord(z.enum(LANGUAGES), EvalLanguageSchema),
});

/** See {@link EvalLanguageSchema}. */
export type EvalLanguage = z.infer<typeof EvalLanguageSchema>;
/** See {@link EvalExerciseSchema}. */
export type EvalExercise = z.infer<typeof EvalExerciseSchema>;

/** A loaded set: its folder (absolute) and its exercises, in the file's order. */
export interface EvalSet {
  dir: string;
  exercises: EvalExercise[];
}

/** The bundled set's folder (`katas/eval`), or undefined when the product has none. */
export function bundledEvalSetDir(): string | undefined {
  const katas = bundledKatasDir();
  const dir = katas ? join(katas, 'eval') : undefined;
  return dir && existsSync(join(dir, 'set.json')) ? dir : undefined;
}

/**
 * Reads `<dir>/set.json` and checks it: the schema, unique slugs, and that every kata file and acceptance file it
 * names is a regular file within 1 MiB (each is read as every named file is: `readNamedFile.ts`, so a FIFO never
 * blocks). A problem is an AgentError (`CONFIG`) naming the file and what is wrong.
 */
export async function loadEvalSet(dir: string): Promise<EvalSet> {
  const root = resolve(dir);
  const file = join(root, 'set.json');
  let raw: unknown;
  try {
    raw = JSON.parse(await readNamedText(file));
  } catch (err) {
    throw new AgentError('CONFIG', `Cannot read the eval set: ${(err as Error).message}`, { file }, { cause: err });
  }
  const parsed = z.array(EvalExerciseSchema).safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AgentError('CONFIG', `The eval set ${file} is invalid at ${issue.path.join('.') || '(root)'}: ${issue.message}`, {
      file,
    });
  }
  const seen = new Set<string>();
  for (const exercise of parsed.data) {
    if (seen.has(exercise.slug))
      throw new AgentError('CONFIG', `The eval set ${file} lists '${exercise.slug}' twice.`, { file, slug: exercise.slug });
    seen.add(exercise.slug);
    const named = [
      kataFileOf({ dir: root, exercises: [] }, exercise),
      ...Object.values(exercise.languages).map((l) => join(root, l.acceptance)),
    ];
    const missing: string[] = [];
    for (const path of named) {
      try {
        await readNamedFile(path);
      } catch (err) {
        if (!(err instanceof NamedFileError)) throw err;
        if (err.problem === 'missing') missing.push(path);
        else
          throw new AgentError('CONFIG', `The eval set ${file}: '${exercise.slug}' names ${path}, which ${err.reason}.`, {
            file,
            path,
            problem: err.problem,
          });
      }
    }
    if (missing.length > 0)
      throw new AgentError('CONFIG', `The eval set ${file}: '${exercise.slug}' names missing files: ${missing.join(', ')}.`, {
        file,
        missing,
      });
  }
  return { dir: root, exercises: parsed.data };
}

/** The kata file of an exercise: `<set>/<slug>.md`. */
export function kataFileOf(set: EvalSet, exercise: EvalExercise): string {
  return join(set.dir, `${exercise.slug}.md`);
}

/**
 * The acceptance entry a session in `language` is judged by: the language's own, and for TypeScript the JavaScript
 * one when the set has no TypeScript tests (they import `../src/<module>.js`, which tsx resolves to the `.ts` file).
 */
export function acceptanceFor(exercise: EvalExercise, language: Language): EvalLanguage | undefined {
  return exercise.languages[language] ?? (language === 'typescript' ? exercise.languages.javascript : undefined);
}

/**
 * The exercises to run: those named by slug or tag in `selectors` (all of them when there is none), that have
 * acceptance tests in `language`. A selector that matches nothing is an AgentError (`CONFIG`) listing the names.
 */
export function selectExercises(set: EvalSet, selectors: readonly string[], language: Language): EvalExercise[] {
  const runnable = matchExercises(set, selectors).filter(
    (e) => acceptanceFor(e, language) !== undefined && ACCEPTANCE_RUNS[language] !== undefined,
  );
  if (runnable.length === 0) {
    const languages = evalLanguages(set);
    throw new AgentError(
      'CONFIG',
      `None of the selected exercises has acceptance tests in ${language}. The eval set has them in ${inWords(languages)}.`,
      { language, languages },
    );
  }
  return runnable;
}

/**
 * The languages an eval of the set can run in: some exercise has acceptance tests in it (TypeScript's are JavaScript's)
 * and the eval knows how to run them (`ACCEPTANCE_RUNS`), in LANGUAGES' order.
 */
export function evalLanguages(set: EvalSet): Language[] {
  return acceptanceLanguages().filter((l) => set.exercises.some((e) => acceptanceFor(e, l) !== undefined));
}

const inWords = (list: readonly string[]): string =>
  list.length <= 1 ? (list[0] ?? 'no language') : `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;

/**
 * The exercises named by slug or tag in `selectors` (comma-separated or repeated; all of them when there is none), in
 * the set's order. A selector that matches nothing is an AgentError (`CONFIG`) listing the names and tags.
 */
export function matchExercises(set: EvalSet, selectors: readonly string[]): EvalExercise[] {
  const wanted = selectors
    .flatMap((s) => s.split(','))
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const selector of wanted) {
    if (!set.exercises.some((e) => e.slug === selector || e.tags.includes(selector)))
      throw new AgentError(
        'CONFIG',
        `No exercise of the eval set is named or tagged '${selector}'. Names: ${set.exercises.map((e) => e.slug).join(', ')}; tags: ${[...new Set(set.exercises.flatMap((e) => e.tags))].sort().join(', ') || 'none'}.`,
        { selector },
      );
  }
  return set.exercises.filter(
    (e) => wanted.length === 0 || wanted.some((selector) => e.slug === selector || e.tags.includes(selector)),
  );
}

/**
 * The set as `tdd-agent eval --list --json` prints it: each exercise (of `exercises`, by default the whole set) and the
 * languages it has acceptance tests for.
 */
export function describeEvalSet(
  set: EvalSet,
  exercises: readonly EvalExercise[] = set.exercises,
): Array<{ slug: string; title: string; tags: string[]; languages: Language[] }> {
  return exercises.map((e) => ({
    slug: e.slug,
    title: e.title,
    tags: e.tags,
    languages: LANGUAGES.filter((l) => e.languages[l] !== undefined),
  }));
}

/** What a report says about the set it ran: enough to tell whether two reports ran the same set, and no local path. */
export interface EvalSetIdentity {
  /** `katas/eval` for the set bundled with tdd-agent, otherwise the set folder's name. */
  name: string;
  /** The set is the one bundled with this tdd-agent (`katas/eval`). */
  bundled: boolean;
  /** SHA-256 (first 16 hex digits) of `set.json` and every kata and acceptance file it names: same digest, same set. */
  digest: string;
  /** The commits of the exercises' source (problem-specifications for the bundled set) the set records, if any. */
  source_commits: string[];
}

/** The set's name, digest and source commits (see {@link EvalSetIdentity}). */
export async function identifyEvalSet(set: EvalSet): Promise<EvalSetIdentity> {
  const bundledDir = bundledEvalSetDir();
  const bundled = bundledDir !== undefined && resolve(bundledDir) === resolve(set.dir);
  const files = [
    'set.json',
    ...set.exercises.flatMap((e) => [`${e.slug}.md`, ...Object.values(e.languages).map((l) => l.acceptance)]),
  ];
  const hash = createHash('sha256');
  for (const file of [...new Set(files)].sort()) {
    hash.update(`${file}\0`);
    hash.update(await readNamedFile(join(set.dir, file)));
    hash.update('\0');
  }
  const commits = set.exercises.map((e) => e.source?.commit).filter((c): c is string => Boolean(c));
  return {
    name: bundled ? 'katas/eval' : basename(set.dir),
    bundled,
    digest: hash.digest('hex').slice(0, 16),
    source_commits: [...new Set(commits)].sort(),
  };
}

/**
 * This tdd-agent's version: the `version` of the package.json beside its bundled `katas/` folder (the repository's
 * or the installed package's root), or `unknown`.
 */
export function productVersion(): string {
  const katas = bundledKatasDir();
  if (!katas) return 'unknown';
  try {
    const manifest = JSON.parse(readFileSync(join(dirname(katas), 'package.json'), 'utf8')) as {
      name?: unknown;
      version?: unknown;
    };
    return manifest.name === 'tdd-agent' && typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
