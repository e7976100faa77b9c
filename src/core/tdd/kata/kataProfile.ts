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

/**
 * The kata of a project in a folder of the repository (a workspace package), seen from the repository's root, where
 * the session's git, file tools and role boundaries work: its folders and test file patterns (and its profile's) get
 * the folder in front (`test/**` → `packages/app/test/**`), and `folder` says where its tests run.
 */
export function kataInFolder(kata: Kata, folder: string): Kata {
  const at = (path: string) => (path === '.' || path === '' ? folder : `${folder}/${path.replace(/^\.\//, '')}`);
  const project = kata.project && {
    ...kata.project,
    sourceRoots: kata.project.sourceRoots.map(at),
    testDir: at(kata.project.testDir),
    testFilePatterns: kata.project.testFilePatterns.map(at),
  };
  return {
    ...kata,
    sourceDir: at(kata.sourceDir),
    testDir: at(kata.testDir),
    ...(kata.testFilePatterns ? { testFilePatterns: kata.testFilePatterns.map(at) } : {}),
    ...(project ? { project } : {}),
    folder,
  };
}
