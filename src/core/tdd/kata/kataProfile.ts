import type { ProjectProfile } from '../../project/projectProfile';
import type { Kata } from './kataSchema';

/**
 * The kata as the session runs it in a project: language, folders and test file patterns from the resolved
 * profile (which already let the kata's own front matter win over what it detected), and `testCommand` set only
 * when someone named one (the kata, `tdd-agent.json`, a setting or a flag) — a detected command is the
 * repository's own and is found again by the test runner's detection. The profile travels with it (`project`).
 */
export function kataWithProfile(kata: Kata, profile: ProjectProfile): Kata {
  const named = profile.fields.testCommand !== 'detected' && profile.fields.testCommand !== 'default';
  const { testCommand: _own, ...rest } = kata;
  return {
    ...rest,
    language: profile.language,
    ...(named ? { testCommand: profile.testCommand } : {}),
    sourceDir: profile.sourceRoots[0] ?? kata.sourceDir,
    testDir: profile.testDir,
    testFilePatterns: [...profile.testFilePatterns],
    project: profile,
  };
}
