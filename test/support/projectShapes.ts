import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, lstat, mkdir, readdir, readFile, readlink, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gitOrEmpty } from './personRepo';
import { fixturePnpm, fixtureRepository, MACHINE_CACHE, oncePerMachine, PROJECT_FIXTURES_DIR, tool } from './projectFixtures';
import { toolEnv } from './toolEnv';

const run = promisify(execFile);

/**
 * The projects of issue 34 ("the sandbox sees the project as the person has it"), under test/fixtures/projects/: each
 * installed the way its README says, in a shape whose install a session's sandbox must see as the person has it.
 *
 * - `ts-pnpm-workspace`: a pnpm workspace of two packages; the session runs in `packages/table`, whose tests import
 *   `strip-ansi`, declared by that package only (pnpm links it into `packages/table/node_modules`), while vitest is the
 *   root's.
 * - `ts-yarn-vitest-typecheck`: Yarn 4 with `nodeLinker: node-modules`, `vitest --run --typecheck` (vitest writes
 *   `tsconfig.tmp.tsbuildinfo` beside its own files in node_modules).
 * - `py-hatch-vcs`: a `src/` project built by hatchling with its version from git (hatch-vcs writes the ignored
 *   `src/reqpin/_version.py` at install), installed editable into `.venv`.
 * - `py-flat-pytest`: a flat project declaring python-dateutil, no virtual environment: `python3 -m pytest` with the
 *   Python on PATH, which has the dependency and pytest (`setupPy` turns it into a setup.py-only project).
 * - `go-module`: a Go module (standard library only) with a package and its `_test.go` files beside the code, a root
 *   package without tests; `go test ./...` with the go on PATH, offline.
 * - `ruby-gem`: a gem in RSpec's shape (a gemspec, a Gemfile naming it, `.rspec`, `lib/`, `spec/` with a spec_helper), no
 *   runtime dependencies; `rspec` with the rspec on PATH (Debian's ruby-rspec), no `bundle install`.
 * - `php-composer`: a Composer package (PSR-4 `src/`, `tests/*Test.php`, `phpunit.xml.dist` naming a bootstrap that maps
 *   composer.json's autoload when there is no `vendor/`), no runtime dependency; `phpunit` on PATH (Debian's), no
 *   `composer install`.
 * - `rust-crate`: a Cargo library (no dependencies, its Cargo.lock committed) with three modules, each with its unit
 *   tests in its own `#[cfg(test)] mod tests`, and integration tests in `tests/`; `cargo test` with the cargo on PATH.
 * - `java-maven`: a Maven project (`src/main/java`, JUnit 5 tests in `src/test/java` through Surefire, `target/`
 *   ignored), no runtime dependency; `mvn -o -B test` with the mvn on PATH, offline from the plugins and JUnit in ~/.m2.
 * - `js-uvu-colors`: an ES module library in lukeed/kleur's shape, tested with uvu (a runner read by its console counts
 *   only), one of whose tests reads the colour environment (`colours are on by default` fails under `NO_COLOR=1`);
 *   `npm ci`, `npm test`.
 */
export type ShapeFixture =
  | 'ts-pnpm-workspace'
  | 'ts-yarn-vitest-typecheck'
  | 'py-hatch-vcs'
  | 'py-flat-pytest'
  | 'go-module'
  | 'ruby-gem'
  | 'php-composer'
  | 'rust-crate'
  | 'java-maven'
  | 'js-uvu-colors';

/** How a shape fixture is installed and tested, as its README says. */
export interface ShapeSpec {
  /** The folder of the repository a person runs `tdd-agent task` in (their current folder). */
  sessionDir: string;
  /** The README's install, for messages. */
  install: string;
  /** The project's own test command, run in `sessionDir` of a checkout. */
  test: string;
  /** How many tests that command runs on the fixture as committed. */
  tests: number;
  /** How many tests passed, read from the command's output (default: its `<n> passed`). */
  passed?: (output: string) => number | undefined;
}

/** Each shape fixture's session folder, install and own test command (test counts as the fixture is committed). */
export const SHAPE_FIXTURES: Readonly<Record<ShapeFixture, ShapeSpec>> = {
  'ts-pnpm-workspace': {
    sessionDir: 'packages/table',
    install: 'pnpm install --frozen-lockfile',
    test: 'pnpm test',
    tests: 7,
  },
  'ts-yarn-vitest-typecheck': {
    sessionDir: '.',
    install: 'yarn install --immutable',
    test: 'yarn test',
    tests: 15,
  },
  'py-hatch-vcs': {
    sessionDir: '.',
    install:
      '/usr/bin/python3 -m venv --system-site-packages .venv && .venv/bin/pip install --no-build-isolation --no-index -e .',
    test: '.venv/bin/python -m pytest',
    tests: 20,
  },
  'py-flat-pytest': {
    sessionDir: '.',
    install: '(none: python-dateutil and pytest are installed for the python3 on PATH)',
    test: 'python3 -m pytest',
    tests: 18,
  },
  'go-module': {
    sessionDir: '.',
    install: '(none: the standard library only)',
    test: 'go test -v ./...',
    tests: 33,
    passed: (output) => output.match(/^--- PASS: /gm)?.length,
  },
  'ruby-gem': {
    sessionDir: '.',
    install: '(none: rspec is installed for the ruby on PATH)',
    test: 'rspec',
    tests: 33,
    passed: (output) => {
      const summary = /^(\d+) examples?, (\d+) failures?/m.exec(output);
      return summary ? Number(summary[1]) - Number(summary[2]) : undefined;
    },
  },
  'php-composer': {
    sessionDir: '.',
    install: '(none: phpunit is on PATH, and tests/bootstrap.php maps the autoload without vendor/)',
    test: 'phpunit',
    tests: 33,
    passed: (output) => {
      const ok = /^OK \((\d+) tests?/m.exec(output);
      if (ok) return Number(ok[1]);
      const summary = /^Tests: (\d+), Assertions: \d+(?:, Errors: (\d+))?(?:, Failures: (\d+))?/m.exec(output);
      return summary ? Number(summary[1]) - Number(summary[2] ?? 0) - Number(summary[3] ?? 0) : undefined;
    },
  },
  'rust-crate': {
    sessionDir: '.',
    install: '(none: no dependencies)',
    test: 'cargo test',
    tests: 27,
    // Every test binary's `test result: ok. N passed; …` line (the unit tests, each tests/ file, the doc-tests).
    passed: (output) => {
      const results = [...output.matchAll(/^test result: \w+\. (\d+) passed;/gm)];
      return results.length > 0 ? results.reduce((sum, m) => sum + Number(m[1]), 0) : undefined;
    },
  },
  'java-maven': {
    sessionDir: '.',
    install: '(none: the plugins and JUnit are in ~/.m2/repository, and the build runs offline)',
    test: 'mvn -o -B test',
    tests: 36,
    // Surefire's total after `Results:` (the last `Tests run:` line; each class's own ends with its time elapsed).
    passed: (output) => {
      const total = [...output.matchAll(/^\[\w+\] Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)$/gm)].at(-1);
      return total ? Number(total[1]) - Number(total[2]) - Number(total[3]) - Number(total[4]) : undefined;
    },
  },
  'js-uvu-colors': {
    sessionDir: '.',
    install: 'npm ci',
    test: 'npm test',
    tests: 20,
    // uvu's summary: `Total: 20`, `Passed: 20`.
    passed: (output) => {
      const passed = /^\s*Passed:\s+(\d+)/m.exec(output);
      return passed ? Number(passed[1]) : undefined;
    },
  },
};

/** The Yarn the yarn fixture's `packageManager` names. */
export const FIXTURE_YARN_VERSION = '4.18.1';

/** The tag the hatch-vcs fixture's version comes from (its test checks the version is at least 0.4). */
export const HATCH_VCS_TAG = 'v0.4.0';

/** Debian's packages the hatch-vcs fixture installs from, offline: the build backend, its git plugin, pytest. */
export const HATCH_DEBIAN_PACKAGES = ['python3-hatchling', 'python3-hatch-vcs', 'python3-pytest'];

/** Debian's packages for the flat fixture when the Python on PATH lacks python-dateutil or pytest. */
export const FLAT_DEBIAN_PACKAGES = ['python3-dateutil', 'python3-pytest'];

/** Debian's Python, which the packages above install for. */
const DEBIAN_PYTHON = '/usr/bin/python3';

/** Yarn's own files (its global cache of packages) for every install of this machine. */
const YARN_GLOBAL_FOLDER = join(MACHINE_CACHE, 'yarn-global');

/**
 * Yarn at the fixture's version, installed once per machine from the npm registry (`@yarnpkg/cli-dist`: corepack
 * cannot download here) into `<tmp>/tdd-agent-fixture-installs/yarn-<version>`. `bin` holds `yarn`.
 */
export async function fixtureYarn(): Promise<{ root: string; bin: string }> {
  const root = join(MACHINE_CACHE, `yarn-${FIXTURE_YARN_VERSION}`);
  await oncePerMachine(root, (partial) =>
    tool(
      'npm',
      ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', partial, `@yarnpkg/cli-dist@${FIXTURE_YARN_VERSION}`],
      partial,
    ),
  );
  return { root, bin: join(root, 'node_modules', '.bin') };
}

/** npm's setting `name`, or undefined when it has none. */
async function npmConfig(name: string): Promise<string | undefined> {
  const { stdout } = await run('npm', ['config', 'get', name], { env: toolEnv() });
  const value = stdout.trim();
  return value && value !== 'null' && value !== 'undefined' ? value : undefined;
}

/**
 * Yarn's settings for an install on this machine: the npm registry npm uses (Yarn's default is its own host name),
 * the certificate bundle npm reads (the test workers drop NODE_EXTRA_CA_CERTS, quickNodeStart.ts), no telemetry, and
 * its package cache in the machine's install cache instead of the home folder.
 */
function yarnEnv(): Promise<NodeJS.ProcessEnv> {
  yarnSettings ??= readYarnEnv();
  return yarnSettings;
}

let yarnSettings: Promise<NodeJS.ProcessEnv> | undefined;

async function readYarnEnv(): Promise<NodeJS.ProcessEnv> {
  const registry = (await npmConfig('registry')) ?? 'https://registry.npmjs.org/';
  const cafile = await npmConfig('cafile');
  return {
    YARN_NPM_REGISTRY_SERVER: registry.replace(/\/$/, ''),
    YARN_ENABLE_TELEMETRY: '0',
    YARN_GLOBAL_FOLDER,
    ...(cafile ? { NODE_EXTRA_CA_CERTS: cafile } : {}),
  };
}

/** The Python whose `python3 -m pytest` runs the flat fixture's tests: the one on PATH, else Debian's. */
export interface PathPython {
  /** A folder to put first on PATH (with `python3` in it), or undefined when PATH's own python3 does. */
  binDir?: string;
  /** What `python3` is, for messages. */
  python: string;
}

async function imports(python: string, modules: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  return run(python, ['-c', `import ${modules}`], { env }).then(
    () => true,
    () => false,
  );
}

/**
 * The interpreter a person without a virtual environment runs: `python3` on PATH when it can import dateutil and
 * pytest (this machine's pyenv Python has both), else Debian's `/usr/bin/python3` with python3-dateutil and
 * python3-pytest, linked as `python3` in a folder put first on PATH. Throws, naming the Debian packages, when neither has them.
 */
export async function pathPython(): Promise<PathPython> {
  const env = toolEnv();
  if (await imports('python3', 'dateutil, pytest', env)) return { python: 'python3 on PATH' };
  if (await imports(DEBIAN_PYTHON, 'dateutil, pytest', env)) {
    const binDir = join(MACHINE_CACHE, 'debian-python3-bin');
    await oncePerMachine(binDir, async (partial) => {
      await run('ln', ['-s', DEBIAN_PYTHON, join(partial, 'python3')]);
    });
    return { binDir, python: DEBIAN_PYTHON };
  }
  throw new Error(
    `The py-flat-pytest fixture needs a python3 that imports dateutil and pytest: neither python3 on PATH nor ${DEBIAN_PYTHON} does. Install Debian's ${FLAT_DEBIAN_PACKAGES.join(' ')}.`,
  );
}

/**
 * The environment of what a person runs for a shape fixture: pnpm and Yarn on PATH, Yarn's settings, and for the flat
 * Python fixture Debian's python3 first on PATH when the one on PATH lacks its packages.
 */
export async function shapePersonEnv(fixture: ShapeFixture): Promise<NodeJS.ProcessEnv> {
  const [pnpm, yarn] = await Promise.all([fixturePnpm(), fixtureYarn()]);
  const python = fixture === 'py-flat-pytest' ? await pathPython() : undefined;
  const path = [python?.binDir, pnpm.bin, yarn.bin, process.env.PATH ?? ''].filter(Boolean).join(':');
  return { ...toolEnv(), ...(await yarnEnv()), PATH: path, PIP_RETRIES: process.env.PIP_RETRIES ?? '0' };
}

/** The workspace packages' manifests (`packages/<pkg>/package.json`), relative to `dir`. */
async function workspaceManifests(dir: string): Promise<string[]> {
  const packages = join(dir, 'packages');
  const names = (await readdir(packages, { withFileTypes: true }).catch(() => [])).filter((e) => e.isDirectory());
  return names.map((e) => `packages/${e.name}/package.json`).sort();
}

/** What a shape fixture's install is made from (manifests and lockfiles), relative to the repository. */
async function installInputs(dir: string, fixture: ShapeFixture): Promise<string[]> {
  if (fixture === 'ts-pnpm-workspace')
    return ['package.json', 'pnpm-workspace.yaml', 'pnpm-lock.yaml', ...(await workspaceManifests(dir))];
  if (fixture === 'ts-yarn-vitest-typecheck') return ['package.json', '.yarnrc.yml', 'yarn.lock'];
  if (fixture === 'js-uvu-colors') return ['package.json', 'package-lock.json'];
  return [];
}

/** What a Node install leaves in a project besides its files: each `node_modules`, and Yarn's install state. */
function installOutputs(inputs: string[]): string[] {
  const folders = inputs.filter((p) => p.endsWith('package.json')).map((p) => dirname(p));
  return [...folders.map((f) => (f === '.' ? 'node_modules' : `${f}/node_modules`)), '.yarn/install-state.gz'];
}

/** What an install took: how long, and whether the machine's cache of the same lockfile served it. */
export interface ShapeInstall {
  seconds: number;
  cached: boolean;
}

/**
 * Installs a checkout of a shape fixture (the person's, or a fresh clone of a commit) the way its README says:
 *
 * - pnpm, Yarn and npm: the install runs once per machine and lockfile in `<tmp>/tdd-agent-fixture-installs/<fixture>-<hash>`
 *   (`pnpm install --frozen-lockfile`; `yarn install --immutable`; `npm ci`), then each `node_modules` it made (the root's and
 *   every workspace package's) is copied into `dir` as hard links, links kept as links (pnpm's are relative), and
 *   Yarn's `.yarn/install-state.gz` copied.
 * - hatch-vcs: Debian's Python makes `.venv` with the system's packages (hatchling, hatch-vcs, pytest, packaging) and
 *   pip installs the project editable from it, offline; hatch-vcs writes `src/reqpin/_version.py` from the tag. In
 *   `dir` itself: an editable install points at its checkout.
 * - flat pytest: nothing to install; the Python on PATH has the dependency and pytest (checked).
 * - Go module: nothing to install (the standard library only).
 */
export async function installShape(dir: string, fixture: ShapeFixture): Promise<ShapeInstall> {
  const started = performance.now();
  const env = await shapePersonEnv(fixture);
  const seconds = (): number => (performance.now() - started) / 1000;
  if (fixture === 'py-hatch-vcs') {
    if (!(await imports(DEBIAN_PYTHON, 'hatchling, hatch_vcs, pytest', env)))
      throw new Error(
        `The py-hatch-vcs fixture installs offline with Debian's ${HATCH_DEBIAN_PACKAGES.join(' ')}: install them.`,
      );
    await tool(DEBIAN_PYTHON, ['-m', 'venv', '--system-site-packages', '.venv'], dir, env);
    await tool(
      join(dir, '.venv', 'bin', 'pip'),
      ['install', '-q', '--disable-pip-version-check', '--no-build-isolation', '--no-index', '-e', '.'],
      dir,
      env,
    );
    return { seconds: seconds(), cached: false };
  }
  if (fixture === 'py-flat-pytest') {
    await pathPython();
    return { seconds: seconds(), cached: false };
  }
  if (['go-module', 'ruby-gem', 'php-composer', 'rust-crate', 'java-maven'].includes(fixture))
    return { seconds: seconds(), cached: false };
  const inputs = await installInputs(dir, fixture);
  const hash = createHash('sha256').update(fixture);
  for (const path of inputs) hash.update(`\0${path}\0`).update(await readFile(join(dir, path)));
  const cached = join(MACHINE_CACHE, `${fixture}-${hash.digest('hex').slice(0, 16)}`);
  const hit = await stat(cached).then(
    () => true,
    () => false,
  );
  await oncePerMachine(cached, async (partial) => {
    for (const path of inputs) {
      await mkdir(dirname(join(partial, path)), { recursive: true });
      await copyFile(join(dir, path), join(partial, path));
    }
    if (fixture === 'ts-pnpm-workspace') await tool('pnpm', ['install', '--frozen-lockfile', '--reporter=silent'], partial, env);
    else if (fixture === 'js-uvu-colors') await tool('npm', ['ci', '--no-audit', '--no-fund'], partial, env);
    else await tool('yarn', ['install', '--immutable'], partial, env);
  });
  for (const output of installOutputs(inputs)) {
    const from = join(cached, output);
    if (!(await lstat(from).catch(() => undefined))) continue;
    await mkdir(dirname(join(dir, output)), { recursive: true });
    await tool('cp', ['-al', from, join(dir, output)], dir, env);
  }
  return { seconds: seconds(), cached: hit };
}

/**
 * A shape fixture as the person's repository, installed: copied into `parent` (a new temp folder by default), `git
 * init`, one commit (the hatch-vcs one tagged {@link HATCH_VCS_TAG}, where its version comes from), then installed by
 * {@link installShape}. `setupPy` makes the flat fixture a setup.py-only project (its pyproject.toml replaced, in the
 * same commit).
 */
export async function shapeRepository(
  fixture: ShapeFixture,
  options: { parent?: string; setupPy?: boolean } = {},
): Promise<string> {
  if (options.parent) await mkdir(options.parent, { recursive: true });
  const dir = await fixtureRepository(fixture, options.parent);
  const git = (...args: string[]) => run('git', args, { cwd: dir });
  if (options.setupPy) {
    if (fixture !== 'py-flat-pytest') throw new Error('setupPy is a variant of py-flat-pytest');
    await git('rm', '-q', 'pyproject.toml');
    await writeFile(join(dir, 'setup.py'), SETUP_PY);
    await git('add', 'setup.py');
    await git('commit', '-q', '--amend', '--no-edit');
  }
  if (fixture === 'py-hatch-vcs') await git('tag', HATCH_VCS_TAG);
  await installShape(dir, fixture);
  return dir;
}

/** The flat fixture's pyproject.toml as an older project writes it: setup.py alone. */
const SETUP_PY = `from setuptools import setup

setup(
    name="dateslice",
    version="1.3.0",
    description="Calendar arithmetic on dates: months, quarters of a year, ranges of days (python-dateutil).",
    license="MIT",
    packages=["dateslice"],
    python_requires=">=3.9",
    install_requires=["python-dateutil>=2.8"],
)
`;

/**
 * A fresh clone of `repository` at `commit` in `dir`, installed as the person's checkout was ({@link installShape}:
 * the same machine-wide install for pnpm and Yarn, a new `.venv` for hatch-vcs, nothing for the flat project).
 */
export async function freshClone(repository: string, commit: string, dir: string, fixture: ShapeFixture): Promise<string> {
  await run('git', ['clone', '-q', '--no-hardlinks', repository, dir]);
  await run('git', ['-C', dir, 'checkout', '-q', '--detach', commit]);
  await installShape(dir, fixture);
  return dir;
}

/** Everything of a person's checkout a session must leave as it was: its files and git's view of them. */
export interface CheckoutState {
  /** Every entry outside `.git` by path: a folder's mode, a link's target (not followed), a file's mode and SHA-256. */
  entries: Map<string, string>;
  /** HEAD, the branch, `git status` (untracked and ignored files), the index, the stash and the tags. */
  git: Record<string, string>;
}

/**
 * The state of the person's checkout (ignored files, node_modules, .venv and generated files such as `_version.py`
 * included). `.git` itself is left out: a session adds its branch and worktree records there.
 */
export async function checkoutState(dir: string): Promise<CheckoutState> {
  const entries = new Map<string, string>();
  const walk = async (folder: string, prefix: string): Promise<void> => {
    for (const name of (await readdir(folder)).sort()) {
      if (!prefix && name === '.git') continue;
      const path = join(folder, name);
      const rel = prefix + name;
      const info = await lstat(path);
      if (info.isSymbolicLink()) entries.set(rel, `link ${await readlink(path)}`);
      else if (info.isDirectory()) {
        entries.set(rel, `folder ${info.mode.toString(8)}`);
        await walk(path, `${rel}/`);
      } else
        entries.set(
          rel,
          `file ${info.mode.toString(8)} ${createHash('sha256')
            .update(await readFile(path))
            .digest('hex')}`,
        );
    }
  };
  await walk(dir, '');
  const git = {
    head: gitOrEmpty(dir, 'rev-parse', '--verify', '-q', 'HEAD'),
    branch: gitOrEmpty(dir, 'symbolic-ref', '-q', 'HEAD'),
    status: gitOrEmpty(dir, '--no-optional-locks', 'status', '--porcelain=v1', '--untracked-files=all', '--ignored=matching'),
    index: gitOrEmpty(dir, '--no-optional-locks', 'ls-files', '-s'),
    stash: gitOrEmpty(dir, 'stash', 'list'),
    tags: gitOrEmpty(dir, 'tag', '--list'),
  };
  return { entries, git };
}

/** What differs between two states of a checkout, one line per path or git field (empty: byte-identical). */
export function checkoutChanges(before: CheckoutState, after: CheckoutState): string[] {
  const changes: string[] = [];
  for (const [path, was] of before.entries) {
    const now = after.entries.get(path);
    if (now === undefined) changes.push(`removed ${path}`);
    else if (now !== was) changes.push(`changed ${path} (${was} → ${now})`);
  }
  for (const path of after.entries.keys()) if (!before.entries.has(path)) changes.push(`added ${path}`);
  for (const [field, was] of Object.entries(before.git))
    if (after.git[field] !== was) changes.push(`git ${field}: ${JSON.stringify(was)} → ${JSON.stringify(after.git[field])}`);
  return changes;
}

/** The folder of a shape fixture in this repository. */
export const shapeFixtureDir = (fixture: ShapeFixture): string => join(PROJECT_FIXTURES_DIR, fixture);
