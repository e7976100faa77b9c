/**
 * What the OS sandbox adds to a test run (`npm run bench:sandbox`, i.e. `tsx bench/sandboxOverhead.ts [runs]`):
 * in one process, alternates sandboxed and unsandboxed runs of the same small `node --test` suite
 * (through CommandTestRunner, as a kata runs it) and of `true` (process start only) in a real
 * `git worktree add` worktree, reports the median wall time of each, the ratio and the added
 * milliseconds, and rewrites the sandbox section of docs/benchmarks.md (between the
 * `<!-- bench:sandbox:start -->` / `<!-- bench:sandbox:end -->` markers; everything else is kept). With `--no-doc`
 * it only prints the table (to compare two trees without touching the document).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { setLogLevel } from '../src/core/logging/logger';
import { percentile } from '../src/core/metrics/percentile';
import {
  createProcessSandbox,
  findBubblewrap,
  openProjectView,
  probeSandbox,
  removeProjectViewLayer,
  type ProcessSandbox,
} from '../src/core/osSandbox';
import { runProcess } from '../src/core/process/runProcess';
import { CommandTestRunner } from '../src/core/testRunners/commandTestRunner';
import { createWorktree } from '../test/integration/osSandbox/fixture';

const START = '<!-- bench:sandbox:start -->';
const END = '<!-- bench:sandbox:end -->';
const DOC = join(__dirname, '..', 'docs', 'benchmarks.md');
const WRITE_DOC = !process.argv.includes('--no-doc');
const RUNS = Number(process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 20);
const TARGET_ADDED_MS = 50;
const TARGET_RATIO = 1.2;
/** Issue 34: the project view costs at most this much per sandboxed run. */
const TARGET_VIEW_ADDED_MS = 15;

const SUITE = `import { test } from 'node:test';
import assert from 'node:assert/strict';
const fizzbuzz = (n) => (n % 15 === 0 ? 'FizzBuzz' : n % 3 === 0 ? 'Fizz' : n % 5 === 0 ? 'Buzz' : String(n));
test('1 is 1', () => assert.equal(fizzbuzz(1), '1'));
test('3 is Fizz', () => assert.equal(fizzbuzz(3), 'Fizz'));
test('5 is Buzz', () => assert.equal(fizzbuzz(5), 'Buzz'));
test('15 is FizzBuzz', () => assert.equal(fizzbuzz(15), 'FizzBuzz'));
test('98 is 98', () => assert.equal(fizzbuzz(98), '98'));
`;

interface Figure {
  name: string;
  sandboxed: number;
  plain: number;
}

/** Times `run(sandbox)` and `run(baseline)` (default: unsandboxed) RUNS times each, alternating which goes first. */
async function alternate(
  name: string,
  sandbox: ProcessSandbox,
  run: (sandbox?: ProcessSandbox) => Promise<void>,
  baseline?: ProcessSandbox,
): Promise<Figure> {
  for (let i = 0; i < 2; i++) {
    await run(sandbox);
    await run(baseline);
  }
  const sandboxed: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const order = i % 2 === 0 ? [sandbox, baseline] : [baseline, sandbox];
    for (const s of order) {
      const t = performance.now();
      await run(s);
      (s === sandbox ? sandboxed : plain).push(performance.now() - t);
    }
  }
  return { name, sandboxed: percentile(sandboxed, 50), plain: percentile(plain, 50) };
}

function row(f: Figure): string {
  const added = f.sandboxed - f.plain;
  const ratio = f.sandboxed / f.plain;
  const met = added < TARGET_ADDED_MS || ratio < TARGET_RATIO;
  return `| ${f.name} | ${f.plain.toFixed(1)} ms → ${f.sandboxed.toFixed(1)} ms: +${added.toFixed(1)} ms (${ratio.toFixed(2)}×) | < ${TARGET_ADDED_MS} ms added or < ${TARGET_RATIO}× | ${met ? 'yes' : '**no**'} | median of ${RUNS} sandboxed and ${RUNS} unsandboxed runs, alternated |`;
}

/** The project view's row: the same sandbox with and without the view, against its own target. */
function viewRow(f: Figure): string {
  const added = f.sandboxed - f.plain;
  return `| ${f.name} | ${f.plain.toFixed(1)} ms → ${f.sandboxed.toFixed(1)} ms: +${added.toFixed(1)} ms | ≤ ${TARGET_VIEW_ADDED_MS} ms added per run | ${added <= TARGET_VIEW_ADDED_MS ? 'yes' : '**no**'} | median of ${RUNS} runs with the view and ${RUNS} without (both sandboxed), alternated |`;
}

/** Ignored entries of a typical project, mounted by the view: node_modules (two levels), a venv, a generated module. */
function personIgnoredFiles(repo: string): string[] {
  writeFileSync(join(repo, '.gitignore'), 'node_modules/\n.venv/\n_version.py\n');
  for (const dir of ['node_modules/dep', 'packages/app/node_modules/own', '.venv/bin', 'src/pkg'])
    mkdirSync(join(repo, dir), { recursive: true });
  writeFileSync(join(repo, 'node_modules/dep/index.js'), '');
  writeFileSync(join(repo, 'packages/app/node_modules/own/index.js'), '');
  writeFileSync(join(repo, 'src/pkg/_version.py'), "version = '1'\n");
  return ['node_modules/', 'packages/app/node_modules/', '.venv/', 'src/pkg/_version.py'];
}

/** The fixture gem's 33 RSpec examples (issue 38) run by `rspec` with its JSON report, when rspec is installed. */
async function rspecFigure(worktree: string, sandbox: ProcessSandbox): Promise<Figure[]> {
  try {
    execFileSync('rspec', ['--version'], { stdio: 'ignore' });
  } catch {
    process.stderr.write('rspec is not installed (apt-get install ruby ruby-rspec): its row is left out\n');
    return [];
  }
  const gem = join(worktree, 'ruby-gem');
  cpSync(join(__dirname, '..', 'test', 'fixtures', 'projects', 'ruby-gem'), gem, { recursive: true });
  const runner = (s?: ProcessSandbox) => new CommandTestRunner({ workspace: gem, kind: 'rspec', command: 'rspec', sandbox: s });
  const runners = { sandboxed: runner(sandbox), plain: runner() };
  return [
    await alternate('`rspec` on the fixture gem (3 spec files, 33 examples) via CommandTestRunner', sandbox, async (s) => {
      const r = await (s ? runners.sandboxed : runners.plain).run();
      if (r.status !== 'passed' || r.tests?.length !== 33) throw new Error(`the fixture gem did not pass: ${r.output}`);
    }),
  ];
}

/** The fixture Composer package's 33 PHPUnit tests (issue 38) run by the system's `phpunit` with its JUnit report, when installed. */
async function phpunitFigure(worktree: string, sandbox: ProcessSandbox): Promise<Figure[]> {
  try {
    execFileSync('phpunit', ['--version'], { stdio: 'ignore' });
  } catch {
    process.stderr.write('phpunit is not installed (apt-get install php-cli phpunit): its row is left out\n');
    return [];
  }
  const pkg = join(worktree, 'php-composer');
  cpSync(join(__dirname, '..', 'test', 'fixtures', 'projects', 'php-composer'), pkg, { recursive: true });
  const runner = (s?: ProcessSandbox) =>
    new CommandTestRunner({ workspace: pkg, kind: 'phpunit', command: 'phpunit', sandbox: s });
  const runners = { sandboxed: runner(sandbox), plain: runner() };
  return [
    await alternate('`phpunit` on the fixture package (2 test classes, 33 tests) via CommandTestRunner', sandbox, async (s) => {
      const r = await (s ? runners.sandboxed : runners.plain).run();
      if (r.status !== 'passed' || r.tests?.length !== 33) throw new Error(`the fixture package did not pass: ${r.output}`);
    }),
  ];
}

/**
 * The fixture Maven project's tests (issue 38) run by the system's `mvn -o -B test`, read from Surefire's reports, when
 * mvn is installed: each run starts a JVM for Maven and one for Surefire's fork, and compiles nothing after the
 * warm-up (javac's outputs in target/ are up to date).
 */
async function mavenFigure(worktree: string, sandbox: ProcessSandbox): Promise<Figure[]> {
  try {
    execFileSync('mvn', ['-v', '-B'], { stdio: 'ignore' });
  } catch {
    process.stderr.write('mvn is not installed (apt-get install default-jdk-headless maven): its row is left out\n');
    return [];
  }
  const project = join(worktree, 'java-maven');
  cpSync(join(__dirname, '..', 'test', 'fixtures', 'projects', 'java-maven'), project, { recursive: true });
  const runner = (s?: ProcessSandbox) =>
    new CommandTestRunner({ workspace: project, kind: 'maven', command: 'mvn -o -B test', sandbox: s });
  const runners = { sandboxed: runner(sandbox), plain: runner() };
  return [
    await alternate('`mvn -o -B test` on the fixture project (4 test classes) via CommandTestRunner', sandbox, async (s) => {
      const r = await (s ? runners.sandboxed : runners.plain).run();
      if (r.status !== 'passed' || !r.tests?.length) throw new Error(`the fixture project did not pass: ${r.output}`);
    }),
  ];
}

/**
 * The fixture crate's 27 tests (issue 38) run by `cargo test`, read test by test, when cargo is installed: both sides
 * build in the same `.tdd/cargo-target`, so after the warm-up runs every run is a warm one (a session's first run
 * compiles the crate once; see docs/benchmarks.md).
 */
async function cargoFigure(worktree: string, sandbox: ProcessSandbox): Promise<Figure[]> {
  try {
    execFileSync('cargo', ['--version'], { stdio: 'ignore' });
  } catch {
    process.stderr.write('cargo is not installed (apt-get install cargo): its row is left out\n');
    return [];
  }
  const crate = join(worktree, 'rust-crate');
  cpSync(join(__dirname, '..', 'test', 'fixtures', 'projects', 'rust-crate'), crate, { recursive: true });
  const runner = (s?: ProcessSandbox) =>
    new CommandTestRunner({ workspace: crate, kind: 'cargo-test', command: 'cargo test', sandbox: s });
  const runners = { sandboxed: runner(sandbox), plain: runner() };
  return [
    await alternate(
      '`cargo test` on the fixture crate (3 modules, tests/, 27 tests) via CommandTestRunner',
      sandbox,
      async (s) => {
        const r = await (s ? runners.sandboxed : runners.plain).run();
        if (r.status !== 'passed' || r.tests?.length !== 27) throw new Error(`the fixture crate did not pass: ${r.output}`);
      },
    ),
  ];
}

async function main(): Promise<void> {
  setLogLevel('error');
  // The sandbox does not pass NODE_EXTRA_CA_CERTS in (no network inside). Set, it would make only the unsandboxed
  // side read a certificate bundle at every Node start; removed here, both sides start alike.
  delete process.env.NODE_EXTRA_CA_CERTS;
  const probe = await probeSandbox();
  if (!probe.available) throw new Error(`No OS sandbox to measure: ${probe.reason}`);
  const fx = createWorktree();
  try {
    writeFileSync(join(fx.worktree, 'fizzbuzz.test.mjs'), SUITE);
    const sandbox = await createProcessSandbox('auto', fx.policy);
    const runner = (s?: ProcessSandbox) =>
      new CommandTestRunner({ workspace: fx.worktree, kind: 'node-test', command: 'node --test', sandbox: s });
    const runners = { sandboxed: runner(sandbox), plain: runner() };
    const figures = [
      await alternate('`node --test` suite (1 file, 5 tests) via CommandTestRunner', sandbox, async (s) => {
        const r = await (s ? runners.sandboxed : runners.plain).run();
        if (r.status !== 'passed' || r.passed !== 5) throw new Error(`the bench suite did not pass: ${r.output}`);
      }),
      ...(await rspecFigure(fx.worktree, sandbox)),
      ...(await phpunitFigure(fx.worktree, sandbox)),
      ...(await cargoFigure(fx.worktree, sandbox)),
      ...(await mavenFigure(fx.worktree, sandbox)),
      await alternate('`true` (process start only) via runProcess', sandbox, async (s) => {
        const r = await runProcess({ cwd: fx.worktree, command: 'true', sandbox: s });
        if (r.exitCode !== 0) throw new Error(`true failed: ${r.output}`);
      }),
    ];
    const view = await openProjectView({ checkout: fx.repo, worktree: fx.worktree, entries: personIgnoredFiles(fx.repo) });
    if (!view?.pid) throw new Error('the project view could not be opened here');
    const viewed = await createProcessSandbox('auto', { ...fx.policy, view });
    const viewFigure = await alternate(
      `\`true\` via runProcess: the project view (${view.mounted.length} mounts: node_modules at two levels, a venv, a generated file) entered or not`,
      viewed,
      async (s) => {
        const r = await runProcess({ cwd: fx.worktree, command: 'true', sandbox: s });
        if (r.exitCode !== 0) throw new Error(`true failed: ${r.output}`);
      },
      sandbox,
    );
    view.close();
    const table = [
      '| Figure | Unsandboxed → sandboxed (median) | Target | Met | How |',
      '|---|---|---|---|---|',
      ...figures.map(row),
      viewRow(viewFigure),
    ].join('\n');
    process.stdout.write(`${table}\n`);
    if (!WRITE_DOC) return;
    await writeDoc(table, sandbox.kind);
    process.stdout.write(`\nwrote ${DOC}\n`);
  } finally {
    removeProjectViewLayer(fx.worktree);
    fx.cleanup();
  }
}

async function writeDoc(table: string, kind: string): Promise<void> {
  const cpus = os.cpus();
  const bwrap = findBubblewrap().path;
  const version = bwrap ? execFileSync(bwrap, ['--version'], { encoding: 'utf8' }).trim() : kind;
  const section = [
    START,
    '## OS sandbox overhead',
    '',
    "Reproduce: `npm run bench:sandbox` (runs `tsx bench/sandboxOverhead.ts 20`: a real repository and `git worktree add` worktree in the temp folder, the session's sandbox policy).",
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${cpus[0]?.model ?? 'unknown CPU'} × ${cpus.length}, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GB RAM, ${os.platform()} ${os.release()}`,
    `- Node ${process.version}, ${version}`,
    '',
    table,
    '',
    'Notes: each sandboxed run starts bubblewrap with a read-only `/`, fresh `/dev` and `/proc`, sized tmpfs `/tmp` and HOME, the worktree',
    'bound writable, a sanitised copy over the git config, and new PID, network, IPC and UTS namespaces, the command under `prlimit`',
    '(file size, data) and, where RLIMIT_NPROC does not bind (root), a pids cgroup of its own joined by `sh` before `exec bwrap`',
    '(`echo 0 > tasks`: moving the one thread skips the lock whose RCU grace period cost ~10 ms with `cgroup.procs`);',
    "that setup is the added time. With the project view (the person's ignored files copy-on-write, issue 34), `nsenter`",
    "joins the session's user and mount namespace and bubblewrap makes a user namespace of its own inside it: the last row.",
    'Runs are alternated in one',
    'process so drift hits both sides alike; shared machines are noisy, rerun before drawing conclusions from one figure.',
    'Both sides run without `NODE_EXTRA_CA_CERTS` (the sandbox does not pass it in since 2026-11-23). These machines set it,',
    'and with it every Node start parses a 220 KB certificate bundle: a one-file `node --test` run took 0.27–0.44 s with it',
    'and 0.15 s without (2026-11-23, three runs each); the figures here before that date include it on both sides.',
    END,
  ].join('\n');
  const doc = await readFile(DOC, 'utf8');
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  const updated =
    start >= 0 && end > start ? doc.slice(0, start) + section + doc.slice(end + END.length) : `${doc.trimEnd()}\n\n${section}\n`;
  await writeFile(DOC, updated);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
