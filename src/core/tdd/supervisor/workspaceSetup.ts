import { delimiter, join } from 'node:path';
import { projectManifests } from '../../project/projectFiles';
import { resolveProjectProfile } from '../../project/detectProjectProfile';
import type { ProjectOverrides } from '../../project/projectProfile';
import type { DetectTestRunnerOptions } from '../../testRunners/detectTestRunner';
import { RUNNER_KINDS, type RunnerKind } from '../../testRunners/runnerKinds';
import type { SupervisorEvent } from '../events';
import { KataError, kataWithProfile, resolveKata, taskKata, type Kata, type TaskSpec } from '../kata';
import { scaffoldProject } from '../scaffold';
import { type Language } from '../../vocabulary';

/** What a session was asked to work on, and the person's own choices about the project. */
export interface SessionKataRequest {
  /** The person's folder (the profile is read from it). */
  workspace: string;
  /** A kata file or a bundled kata's slug (when there is no task). */
  kataPath?: string;
  /** A task in plain words instead of a kata. */
  task?: string | TaskSpec;
  /** The language asked for (a flag): wins over the kata's and the project's. */
  language?: Language;
  /** Flags or settings about the project: test command, test patterns, source folder, language. */
  project?: ProjectOverrides;
  /** For the interpreter of an activated virtual environment; default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * The kata (or task) a session runs, fitted to the person's project: the kata or task is read, then the project
 * profile of the workspace is resolved (flag > tdd-agent.json > kata > detected) and gives the kata its language,
 * folders, test file patterns and test command. Unknown katas, invalid kata files and an invalid `tdd-agent.json`
 * throw (KataError / CONFIG AgentError) before anything is created.
 */
export async function resolveSessionKata(request: SessionKataRequest): Promise<Kata> {
  const overrides: ProjectOverrides = { ...(request.language ? { language: request.language } : {}), ...request.project };
  const hasOverrides = Object.entries(overrides).some(([key, value]) => key !== 'source' && value !== undefined);
  let kata: Kata;
  if (request.task !== undefined) kata = taskKata(request.task);
  else if (request.kataPath) kata = await resolveKata(request.kataPath, { language: overrides.language });
  else throw new KataError('Nothing to run: give a kata (a markdown file or a bundled kata) or a task in plain words.', {});
  const profile = await resolveProjectProfile(request.workspace, {
    env: request.env,
    kata: kata.declared ?? {},
    ...(hasOverrides ? { overrides } : {}),
  });
  return kataWithProfile(kata, profile);
}

/**
 * Gives a folder without a manifest (no package.json, pyproject.toml, setup.cfg, setup.py, requirements*.txt) a
 * minimal project for the kata's language (test command, source and test folders, .gitignore); a folder holding
 * only the kata file or a README counts as one without. A project with a manifest is never scaffolded: the
 * session works with what its profile says. Existing files are never overwritten. Returns true when files were
 * written (the caller commits them).
 */
export async function prepareProject(workspace: string, kata: Kata): Promise<boolean> {
  if ((await projectManifests(workspace)).length > 0) return false;
  const result = await scaffoldProject(workspace, kata.language, kata);
  return result.created.length > 0;
}

/**
 * What the test runner's detection gets from the profile, for the session worktree `dir`: the command when
 * someone named one or the profile chose it (a Python interpreter), nothing when it is the package.json test
 * script (the detection reads it again, with the dependencies that tell its runner) or the scaffold's; and for a
 * Python `src/` layout, `PYTHONPATH` with the worktree's `src` first, so the tests import the code in the worktree
 * and not an installed (e.g. editable, pointing at the person's checkout) copy.
 */
export function projectRunnerOptions(
  kata: Kata,
  dir: string,
  scaffolded: boolean,
): Pick<DetectTestRunnerOptions, 'testCommand' | 'env'> {
  const profile = kata.project;
  if (!profile) return { testCommand: kata.testCommand };
  // Only a package.json test script is read again in the worktree (with the dependencies that tell its runner). Every
  // other language runs the command the profile read from the person's checkout: PHP's from a git-ignored vendor/
  // (vendor/bin/phpunit, its autoloader) the worktree shows only inside the sandbox, minitest's and Gradle's from files
  // the detection does not read, a Cargo workspace's `--workspace`.
  const fromScript =
    (profile.language === 'javascript' || profile.language === 'typescript') && profile.fields.testCommand === 'detected';
  const newProject = scaffolded || profile.manifests.length === 0; // the scaffold's own script runs
  const testCommand = kata.testCommand ?? (newProject || fromScript ? undefined : profile.testCommand);
  // Source roots relative to the project's own folder (a workspace package's are given from the repository's root).
  const roots = profile.sourceRoots.map((s) =>
    kata.folder && s.startsWith(`${kata.folder}/`) ? s.slice(kata.folder.length + 1) : s,
  );
  const srcLayout = profile.language === 'python' && roots.some((s) => s === 'src' || s.startsWith('src/'));
  const existing = process.env.PYTHONPATH;
  return {
    testCommand,
    ...(srcLayout ? { env: { PYTHONPATH: [join(dir, 'src'), ...(existing ? [existing] : [])].join(delimiter) } } : {}),
  };
}

/** The `project_profile` event: the profile as the session runs it (with the test command and runner it found). */
export function projectProfileEvent(
  kata: Kata,
  runner: { command: string; name: string },
  scaffolded: boolean,
): Extract<SupervisorEvent, { type: 'project_profile' }> | undefined {
  const profile = kata.project;
  if (!profile) return undefined;
  const kind = (RUNNER_KINDS as readonly string[]).includes(runner.name) ? (runner.name as RunnerKind) : profile.testRunner;
  return {
    type: 'project_profile',
    profile: { ...profile, testCommand: runner.command, testRunner: kind },
    scaffolded,
    task: kata.task === true,
  };
}
