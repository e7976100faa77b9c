import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, lstat, mkdir, mkdtemp, readdir, readFile, readlink, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { toolEnv } from './toolEnv';

const run = promisify(execFile);

/** The projects under test/fixtures/projects/: small libraries in the shapes real ones have. */
export type ProjectFixture = 'ts-vitest-pnpm' | 'js-jest' | 'py-src-pytest';

/** Where the fixtures live in this repository. */
export const PROJECT_FIXTURES_DIR = join(__dirname, '..', 'fixtures', 'projects');

/** What each fixture is, how a person installs it and runs its tests, and how many tests its suite has. */
export const PROJECT_FIXTURES: Readonly<
  Record<ProjectFixture, { manager: 'pnpm' | 'npm' | 'pip'; lockfile?: string; install: string; test: string; tests: number }>
> = {
  'ts-vitest-pnpm': {
    manager: 'pnpm',
    lockfile: 'pnpm-lock.yaml',
    install: 'pnpm install --frozen-lockfile',
    test: 'pnpm test',
    tests: 58,
  },
  'js-jest': { manager: 'npm', lockfile: 'package-lock.json', install: 'npm ci', test: 'npm test', tests: 47 },
  'py-src-pytest': {
    manager: 'pip',
    install: 'python3 -m venv .venv && .venv/bin/pip install -e . pytest',
    test: '.venv/bin/python -m pytest',
    tests: 45,
  },
};

/** The pnpm version the TypeScript fixture's `packageManager` names. */
export const FIXTURE_PNPM_VERSION = '10.34.9';

/** What a fixture's copy never takes from the fixture folder (a developer may have installed it in place). */
const NOT_COPIED = new Set(['node_modules', '.venv', '__pycache__', '.pytest_cache', 'dist', 'coverage']);

/** Installs shared by every test file on this machine, keyed by what they were installed from. */
export const MACHINE_CACHE = join(tmpdir(), 'tdd-agent-fixture-installs');

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * A fixture's files as a fresh repository: copied into `parent` (a new temp folder by default), `git init`, one commit.
 * `fixture` is a folder of test/fixtures/projects (the projects of test/support/projectShapes.ts too).
 */
export async function fixtureRepository(fixture: string, parent?: string): Promise<string> {
  const root = parent ?? (await mkdtemp(join(tmpdir(), `tdd-person-${fixture}-`)));
  const dir = await realpath(root);
  await cp(join(PROJECT_FIXTURES_DIR, fixture), dir, {
    recursive: true,
    filter: (source) => !NOT_COPIED.has(source.split('/').pop()!),
  });
  const git = (...args: string[]) => run('git', args, { cwd: dir });
  await git('init', '-q', '-b', 'main');
  await git('config', 'user.name', 'Person');
  await git('config', 'user.email', 'person@example.invalid');
  await git('add', '-A');
  await git('commit', '-q', '-m', `${fixture}: the person's library`);
  return dir;
}

/** Runs a tool for an install; its output is in the error when it fails. */
export async function tool(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = toolEnv()): Promise<void> {
  try {
    await run(command, args, { cwd, env, maxBuffer: 32 * 1024 * 1024, timeout: 10 * 60_000 });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`, {
      cause: err,
    });
  }
}

/** Makes `final` with `make(partial)` at most once per machine: built in a sibling folder and renamed into place. */
export async function oncePerMachine(final: string, make: (partial: string) => Promise<void>): Promise<void> {
  if (await exists(final)) return;
  await mkdir(MACHINE_CACHE, { recursive: true });
  const partial = await mkdtemp(`${final}.partial-`);
  try {
    await make(partial);
    await rename(partial, final);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if ((code === 'ENOTEMPTY' || code === 'EEXIST') && (await exists(final))) return; // another worker was first
    throw err;
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
}

/**
 * pnpm at the fixture's version, installed once per machine from the npm registry into a folder of its own
 * (`<tmp>/tdd-agent-fixture-installs/pnpm-<version>`), so a sandbox can be shown it. `bin` holds `pnpm`.
 */
export async function fixturePnpm(): Promise<{ root: string; bin: string }> {
  const root = join(MACHINE_CACHE, `pnpm-${FIXTURE_PNPM_VERSION}`);
  await oncePerMachine(root, (partial) =>
    tool(
      'npm',
      ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', partial, `pnpm@${FIXTURE_PNPM_VERSION}`],
      partial,
    ),
  );
  return { root, bin: join(root, 'node_modules', '.bin') };
}

/** The environment of a command a person runs: PATH with the fixture's pnpm, pip without retries against an index it cannot reach. */
export async function personEnv(): Promise<NodeJS.ProcessEnv> {
  const pnpm = await fixturePnpm();
  return { ...toolEnv(), PATH: `${pnpm.bin}:${process.env.PATH ?? ''}`, PIP_RETRIES: process.env.PIP_RETRIES ?? '0' };
}

/** What an install took: how long, and whether the machine's cache of the same lockfile served it. */
export interface FixtureInstall {
  seconds: number;
  cached: boolean;
}

/**
 * Installs a fixture repository the way its README says a person does. Node: `pnpm install --frozen-lockfile` or
 * `npm ci`, run once per machine and lockfile (in `<tmp>/tdd-agent-fixture-installs/<fixture>-<hash>`), then copied
 * into `<dir>/node_modules` as hard links (links of the install kept as links: pnpm's are relative). Python:
 * `python3 -m venv .venv && .venv/bin/pip install -e . pytest` in `dir` itself (an editable install points at the
 * repository, so it cannot be shared).
 */
export async function installFixture(dir: string, fixture: ProjectFixture): Promise<FixtureInstall> {
  const started = performance.now();
  const spec = PROJECT_FIXTURES[fixture];
  const env = await personEnv();
  if (spec.manager === 'pip') {
    await tool('python3', ['-m', 'venv', '.venv'], dir, env);
    await tool(join(dir, '.venv', 'bin', 'pip'), ['install', '-q', '--disable-pip-version-check', '-e', '.', 'pytest'], dir, env);
    return { seconds: (performance.now() - started) / 1000, cached: false };
  }
  const manifest = await readFile(join(dir, 'package.json'));
  const lock = await readFile(join(dir, spec.lockfile!));
  const key = createHash('sha256').update(fixture).update(manifest).update(lock).digest('hex').slice(0, 16);
  const cached = join(MACHINE_CACHE, `${fixture}-${key}`);
  const hit = await exists(cached);
  await oncePerMachine(cached, async (partial) => {
    await writeFile(join(partial, 'package.json'), manifest);
    await writeFile(join(partial, spec.lockfile!), lock);
    if (spec.manager === 'pnpm') await tool('pnpm', ['install', '--frozen-lockfile', '--reporter=silent'], partial, env);
    else await tool('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], partial, env);
  });
  await tool('cp', ['-al', join(cached, 'node_modules'), join(dir, 'node_modules')], dir, env);
  return { seconds: (performance.now() - started) / 1000, cached: hit };
}

/**
 * A digest of everything under `dir` (paths, modes, link targets and file bytes), without following links: equal
 * digests mean not a byte was written, added or removed.
 */
export async function treeDigest(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (folder: string): Promise<void> => {
    const entries = (await readdir(folder, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const path = join(folder, entry.name);
      const info = await lstat(path);
      hash.update(`${relative(dir, path)}\0${info.mode}\0`);
      if (entry.isSymbolicLink()) hash.update(await readlink(path));
      else if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) hash.update(await readFile(path));
      hash.update('\0');
    }
  };
  await walk(dir);
  return hash.digest('hex');
}
