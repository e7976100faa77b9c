import type { RunnerKind } from '../testRunners/runnerKinds';
import type { Language } from '../vocabulary';

/** JavaScript package managers told apart by their lockfile or package.json's `packageManager`. */
export const PACKAGE_MANAGERS = ['npm', 'pnpm', 'yarn', 'bun'] as const;
/** One of {@link PACKAGE_MANAGERS}. */
export type PackageManager = (typeof PACKAGE_MANAGERS)[number];

/** The fields of a profile that can be overridden, each remembering where its value came from. */
export const PROFILE_FIELDS = [
  'language',
  'packageManager',
  'testRunner',
  'testCommand',
  'testFilePatterns',
  'sourceRoots',
  'testDir',
] as const;
/** One of {@link PROFILE_FIELDS}. */
export type ProfileField = (typeof PROFILE_FIELDS)[number];

/**
 * Where a field's value came from, weakest first: `default` (nothing in the repository says: the language's
 * convention, or what the session's scaffold writes into a folder without a manifest), `detected` (read from
 * the repository's manifests and runner configuration), `kata` (the kata's front matter), `tdd-agent.json` (the
 * repository's own settings for the agents), `setting` (VS Code's `tddAgent.*` settings), `flag` (the command line).
 */
export const FIELD_SOURCES = ['default', 'detected', 'kata', 'tdd-agent.json', 'setting', 'flag'] as const;
/** One of {@link FIELD_SOURCES}. */
export type FieldSource = (typeof FIELD_SOURCES)[number];

/** The Python interpreter the tests run with. */
export interface PythonEnvironment {
  /** `python3` (from PATH), or the absolute path of a virtual environment's `bin/python`. */
  interpreter: string;
  /** The virtual environment's folder, when one is used. */
  venv?: string;
  /** True when the environment was activated (`VIRTUAL_ENV`), false for one found in the project (`.venv/`, `venv/`). */
  activated?: boolean;
}

/**
 * What a session needs to know about the repository it works in: languages, package manager or interpreter,
 * the test runner and its command, how test files are recognised, where code and tests go. Read from the
 * repository (`detectProjectProfile`), then overridden by the kata, `tdd-agent.json`, settings and flags
 * (`resolveProjectProfile`); `fields` says where each value came from. Plain JSON.
 */
export interface ProjectProfile {
  /** The folder the profile was read from (absolute). */
  root: string;
  /** The language the session works in. */
  language: Language;
  /** Every language the manifests show (empty for a folder without one). */
  languages: Language[];
  /** For JavaScript and TypeScript: from the lockfile or `packageManager`; npm when nothing says. */
  packageManager?: PackageManager;
  /** For Python: the interpreter (an activated or in-project virtual environment, else `python3`). */
  python?: PythonEnvironment;
  /** Whose output the tests print (`custom`: any other command; every parser is tried). */
  testRunner: RunnerKind;
  /** The shell command line that runs every test once, from the repository root. */
  testCommand: string;
  /** Globs of the test files (relative to the root): the roles' boundaries tell test code from production code by them. */
  testFilePatterns: string[];
  /** Folders (relative, `.` for the root) where the production code lives; the first is where new code goes. */
  sourceRoots: string[];
  /** The folder (relative) where new tests go; a source root when tests sit beside the code. */
  testDir: string;
  /** True when the tests sit beside the code (the test folder is a source root or inside one). */
  testsBesideSource: boolean;
  /** Manifests found at the root: `package.json`, `pyproject.toml`, `setup.cfg`, `setup.py`, `requirements*.txt`, `go.mod`. */
  manifests: string[];
  /** Every file the profile was read from (manifests, runner configurations, `tdd-agent.json`), relative to the root. */
  readFrom: string[];
  /** Where each field's value came from. */
  fields: Record<ProfileField, FieldSource>;
  /** Things a person should know (a guessed runner, a configuration that could not be read). */
  notes: string[];
}

/** The fields a kata, `tdd-agent.json`, a setting or a flag can set. */
export interface ProjectSettings {
  language?: Language;
  testCommand?: string;
  /** Replaces the detected patterns. */
  testFilePatterns?: string[];
  /** The (first) source folder. */
  sourceDir?: string;
  /** Where new tests go. */
  testDir?: string;
}

/** Values a person gave for this session (command-line flags, or VS Code settings), stronger than anything in the repository. */
export interface ProjectOverrides extends ProjectSettings {
  /** How the person gave them (default `flag`). */
  source?: Extract<FieldSource, 'flag' | 'setting'>;
}
