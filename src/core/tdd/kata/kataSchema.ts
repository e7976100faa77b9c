import { z } from 'zod';
import type { ProjectProfile, ProjectSettings } from '../../project/projectProfile';
import { LANGUAGES, type Language } from '../../vocabulary';

/** A workspace-relative folder: no absolute path, no `..`, not inside `.git` or `.tdd`. */
const relativeDir = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .refine((p) => !p.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(p), 'must be relative to the workspace')
  .refine((p) => !p.split(/[\\/]/).includes('..'), "must not contain '..'")
  .refine((p) => !/^\.(git|tdd)([\\/]|$)/.test(p.replace(/^\.\//, '')), 'must not point into .git or .tdd')
  .transform(
    (p) =>
      p
        .replace(/\\/g, '/')
        .replace(/^\.\/(?=.)/, '')
        .replace(/\/+$/, '') || '.',
  );

/** The YAML front matter of a kata file (snake_case, as people write it). Unknown fields are errors, to catch typos. */
export const KataFrontMatterSchema = z
  .object({
    title: z.string().trim().min(1).max(200).optional(),
    slug: z
      .string()
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase letters and digits separated by single dashes')
      .max(60)
      .optional(),
    language: z.enum(LANGUAGES).optional(),
    test_command: z.string().trim().min(1, 'must not be empty').max(500).optional(),
    source_dir: relativeDir.optional(),
    test_dir: relativeDir.optional(),
    max_cycles: z.number().int('must be a whole number').min(1).max(100).optional(),
  })
  .strict();

/** The front matter as parsed. */
export type KataFrontMatter = z.infer<typeof KataFrontMatterSchema>;

/** A kata ready to run: the description for the agents plus where code and tests go. */
export interface Kata {
  title: string;
  slug: string;
  /** The markdown body (front matter removed). */
  description: string;
  language: Language;
  /** Only when the kata (or caller) names one; otherwise the runner is detected from the workspace. */
  testCommand?: string;
  sourceDir: string;
  testDir: string;
  maxCycles?: number;
  /** The file it came from, when loaded from disk. */
  fileName?: string;
  /**
   * What the front matter itself names (`language`, `test_command`, `source_dir`, `test_dir`), apart from the
   * defaults filled in above: the project profile lets these win over what it detects, and only these.
   */
  declared?: ProjectSettings;
  /** True for a task given in plain words (no kata file): see `taskKata`. */
  task?: boolean;
  /**
   * Globs of the test files (from the project profile): the role boundaries tell test code from production code
   * by them. Absent: by the usual conventions and `testDir`.
   */
  testFilePatterns?: string[];
  /** The project profile the session resolved for this kata (see `kataWithProfile`). */
  project?: ProjectProfile;
  /**
   * The project's folder inside the repository (a workspace package, `packages/app`; see `kataInFolder`): the tests
   * run there, and every folder and pattern above is already relative to the repository's root.
   */
  folder?: string;
}
