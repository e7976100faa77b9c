import type { RunnerKind } from '../testRunners/runnerKinds';
import type { FieldSource, ProfileField, ProjectProfile } from './projectProfile';
import { type Language } from '../vocabulary';

/** Each project language's name as a person writes it. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  javascript: 'JavaScript',
  typescript: 'TypeScript',
  python: 'Python',
  go: 'Go',
  rust: 'Rust',
  java: 'Java',
  php: 'PHP',
  ruby: 'Ruby',
};
/** Each test runner's name as a person writes it (`a custom runner` for any other command). */
export const RUNNER_NAMES: Record<RunnerKind, string> = {
  'node-test': 'node:test',
  mocha: 'mocha',
  jest: 'jest',
  vitest: 'vitest',
  pytest: 'pytest',
  'go-test': 'go test',
  'cargo-test': 'cargo test',
  maven: 'Maven Surefire',
  phpunit: 'PHPUnit',
  rspec: 'RSpec',
  minitest: 'minitest',
  custom: 'a custom runner',
};
const FIELD_NAMES: Record<ProfileField, string> = {
  language: 'language',
  packageManager: 'package manager',
  testRunner: 'test runner',
  testCommand: 'test command',
  testFilePatterns: 'test patterns',
  sourceRoots: 'source folder',
  testDir: 'test folder',
};
const SOURCE_NAMES: Record<FieldSource, string> = {
  default: 'defaults',
  detected: 'the repository',
  kata: 'the kata',
  'tdd-agent.json': 'tdd-agent.json',
  setting: 'settings',
  flag: 'flags',
};

/** A profile in words, for the CLI's first lines and the panel's header. */
export interface ProfileDescription {
  /** `TypeScript, pnpm, vitest (`vitest run`), tests: **\/*.test.ts beside the code, source: src/`. */
  summary: string;
  /** Where it came from: `from package.json, pnpm-lock.yaml; test command from flags`, or `a new project`. */
  origin: string;
}

/** A folder as shown: `src/`, or `the root` for `.`. */
function folderText(folder: string): string {
  return folder === '.' ? 'the root' : `${folder}/`;
}

/** Up to three patterns, then how many more. */
function patternsText(patterns: readonly string[]): string {
  const shown = patterns.slice(0, 3).join(', ');
  return patterns.length > 3 ? `${shown} (+${patterns.length - 3} more)` : shown;
}

/** The profile in one line and where it came from (plain text; the caller escapes it for a terminal). */
export function describeProjectProfile(profile: ProjectProfile, options: { scaffolded?: boolean } = {}): ProfileDescription {
  const parts = [LANGUAGE_NAMES[profile.language]];
  if (profile.packageManager && profile.fields.packageManager !== 'default') parts.push(profile.packageManager);
  if (profile.python?.venv) parts.push(`virtual environment ${profile.python.venv}`);
  parts.push(`${RUNNER_NAMES[profile.testRunner]} (\`${profile.testCommand}\`)`);
  const where = profile.testsBesideSource
    ? profile.testDir === '.'
      ? 'beside the code'
      : `beside the code in ${folderText(profile.testDir)}`
    : `in ${folderText(profile.testDir)}`;
  parts.push(`tests: ${patternsText(profile.testFilePatterns)} ${where}`);
  parts.push(`source: ${profile.sourceRoots.map(folderText).join(', ')}`);

  const bySource = new Map<FieldSource, string[]>();
  for (const [field, source] of Object.entries(profile.fields) as Array<[ProfileField, FieldSource]>) {
    if (source === 'detected' || source === 'default' || field === 'testRunner') continue;
    bySource.set(source, [...(bySource.get(source) ?? []), FIELD_NAMES[field]]);
  }
  const given = [...bySource].map(([source, fields]) => `${fields.join(', ')} from ${SOURCE_NAMES[source]}`);
  const read = profile.readFrom.filter((f) => f !== 'tdd-agent.json');
  const origin = [
    options.scaffolded
      ? `a new project (the session wrote a minimal ${LANGUAGE_NAMES[profile.language]} project)`
      : read.length > 0
        ? `from ${read.join(', ')}`
        : 'no manifest found: defaults',
    ...given,
  ].join('; ');
  return { summary: parts.join(', '), origin };
}
