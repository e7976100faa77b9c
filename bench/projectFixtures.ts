/**
 * What a session on a real project costs (`npm run bench:projects`, i.e. `tsx bench/projectFixtures.ts [runs]`): for
 * each project of test/fixtures/projects (pnpm + vitest, npm + jest, pip + pytest), installed once the way its README
 * says, the median wall time of its whole suite run directly in the person's repository and run by the session in
 * bubblewrap (alternated), and what a session spends on the project's dependencies: reusing the person's install,
 * installing the lockfile into the shared store (once per lockfile on a machine) and reusing it, and, for comparison,
 * the per-session `npm install --ignore-scripts` into the worktree that sessions ran before. Rewrites the section
 * between `<!-- bench:projects:start -->` and `<!-- bench:projects:end -->` of docs/benchmarks.md (`--no-doc`: print only).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { setLogLevel } from '../src/core/logging/logger';
import { detectTestRunner } from '../src/core/testRunners';
import { percentile } from '../src/core/metrics/percentile';
import { createProcessSandbox, findBubblewrap, probeSandbox, worktreePolicy } from '../src/core/osSandbox';
import { runProcess } from '../src/core/process/runProcess';
import { readRepository, SessionWorktree } from '../src/core/tdd/git';
import { installDependencies, sessionManifests } from '../src/core/tdd/dependencies/installDependencies';
import { prepareProjectDependencies } from '../src/core/tdd/dependencies/projectDependencies';
import {
  fixturePnpm,
  fixtureRepository,
  installFixture,
  PROJECT_FIXTURES,
  type ProjectFixture,
} from '../test/support/projectFixtures';
import { machineLines, publishSection, withBenchCache } from './benchDoc';

const RUNS = Number(process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 5);
const WRITE_DOC = !process.argv.includes('--no-doc');
const TARGET_REUSE_MS = 1000;
const APPROVE = { autoApproveUpTo: 'MEDIUM' as const };
const KATA = { language: 'javascript' as const, slug: 'library', title: 'Library', sourceDir: 'src', testDir: 'test' };

const median = (values: number[]): number => percentile(values, 50);
/** The test file a cycle's fast run takes alone, per fixture. */
const FAST_RUN_FILE: Record<ProjectFixture, string> = {
  'ts-vitest-pnpm': 'src/units.test.ts',
  'js-jest': '__tests__/expand.test.js',
  'py-src-pytest': 'tests/test_bump.py',
};
const ms = (value: number): string => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(0)} ms`);

interface Row {
  fixture: ProjectFixture;
  tests: number;
  direct: number;
  sandboxed: number;
  personInstall: string;
  reuse: number;
  /** A cycle's related run (one test file) and the whole suite, both through the session's test runner in the sandbox. */
  related: number;
  full: number;
  storeFirst?: number;
  storeReuse?: number;
  before?: number;
}

/** A session's dependency set-up, as the supervisor does it, timed (the worktree itself is made before and not counted). */
async function sessionSetup(repo: string, temp: string) {
  const { worktree } = await SessionWorktree.create(await readRepository(repo), { slug: 'library', worktreesRoot: temp });
  const started = performance.now();
  const dependencies = await prepareProjectDependencies(worktree.info);
  const policy = worktreePolicy(worktree.dir, worktree.info.commonDir, undefined, dependencies.sandbox);
  const sandbox = await createProcessSandbox('auto', policy);
  const installed = await installDependencies(worktree.dir, {
    manifests: await sessionManifests(worktree.info, { resumed: false, kata: KATA }),
    dependencies,
    policy: APPROVE,
  });
  return { worktree, sandbox, installed, elapsed: performance.now() - started, policy };
}

async function measure(fixture: ProjectFixture, temp: string): Promise<Row> {
  const spec = PROJECT_FIXTURES[fixture];
  const pnpm = await fixturePnpm();
  const env = { ...process.env, PATH: `${pnpm.bin}:${process.env.PATH ?? ''}`, CI: 'true', NO_COLOR: '1' };
  const repo = await fixtureRepository(fixture, await mkdtemp(join(temp, `${fixture}-`)));
  const install = await installFixture(repo, fixture);
  const personInstall = `${spec.install}: ${install.seconds.toFixed(1)} s${install.cached ? ' (copied from the machine’s cache of this lockfile)' : ''}`;

  const reuse: number[] = [];
  let session = await sessionSetup(repo, temp);
  for (let i = 0; i < RUNS; i++) reuse.push((await sessionSetup(repo, temp)).elapsed);
  const policy = session.policy;
  policy.readableRoots!.push(pnpm.root);
  const sandbox = await createProcessSandbox('auto', policy);
  const command = fixture === 'py-src-pytest' ? 'python -m pytest -q -p no:cacheprovider' : spec.test;
  const directCommand = fixture === 'py-src-pytest' ? '.venv/bin/python -m pytest -q -p no:cacheprovider' : spec.test;
  const suite = async (inSandbox: boolean): Promise<number> => {
    const started = performance.now();
    const r = await runProcess({
      cwd: inSandbox ? session.worktree.dir : repo,
      command: inSandbox ? command : directCommand,
      shell: true,
      env,
      sandbox: inSandbox ? sandbox : undefined,
      timeoutMs: 300_000,
    });
    if (r.exitCode !== 0) throw new Error(`${fixture}: the suite failed (${inSandbox ? 'sandboxed' : 'direct'}):\n${r.output}`);
    return performance.now() - started;
  };
  await suite(true);
  await suite(false);
  const direct: number[] = [];
  const sandboxed: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    for (const inSandbox of i % 2 === 0 ? [true, false] : [false, true])
      (inSandbox ? sandboxed : direct).push(await suite(inSandbox));
  }
  // A cycle's fast run (the test file a Tester wrote, alone) against the whole suite, as the supervisor runs them.
  const runner = await detectTestRunner(session.worktree.dir, { testCommand: command, sandbox, env, timeoutMs: 300_000 });
  const oneFile = FAST_RUN_FILE[fixture];
  const related: number[] = [];
  const full: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    for (const subset of i % 2 === 0 ? [true, false] : [false, true]) {
      const r = await runner.run(subset ? { only: { testFiles: [oneFile] } } : {});
      if (r.status !== 'passed' || (subset && r.scope !== 'related'))
        throw new Error(`${fixture}: the ${subset ? 'related' : 'full'} run did not pass as expected (${r.status}, ${r.scope})`);
      (subset ? related : full).push(r.durationMs);
    }
  }
  const row: Row = {
    fixture,
    tests: spec.tests,
    related: median(related),
    full: median(full),
    direct: median(direct),
    sandboxed: median(sandboxed),
    personInstall,
    reuse: median(reuse),
  };

  if (spec.manager !== 'pip') {
    // No install of the person's: the first session installs the lockfile into the shared store, the next ones reuse it.
    const bare = await fixtureRepository(fixture, await mkdtemp(join(temp, `${fixture}-bare-`)));
    session = await sessionSetup(bare, temp);
    if (!session.installed) throw new Error(`${fixture}: the first session was expected to install into the store`);
    row.storeFirst = session.elapsed;
    const again: number[] = [];
    for (let i = 0; i < RUNS; i++) again.push((await sessionSetup(bare, temp)).elapsed);
    row.storeReuse = median(again);
    // Before: every session ran npm install --ignore-scripts into its own worktree (npm's cache warm from the above).
    const { worktree } = await SessionWorktree.create(await readRepository(bare), { slug: 'library', worktreesRoot: temp });
    const started = performance.now();
    await installDependencies(worktree.dir, {
      manifests: await sessionManifests(worktree.info, { resumed: false, kata: KATA }),
      policy: APPROVE,
    });
    row.before = performance.now() - started;
  }
  return row;
}

async function main(): Promise<void> {
  setLogLevel('error');
  const probe = await probeSandbox();
  if (!probe.available) throw new Error(`bench:projects needs bubblewrap: ${probe.reason}`);
  const bwrap = execFileSync(findBubblewrap().path!, ['--version'], { encoding: 'utf8' }).trim();
  const temp = await mkdtemp(join(os.tmpdir(), 'tdd-agent-bench-projects-'));
  const rows: Row[] = [];
  try {
    await withBenchCache(async () => {
      for (const fixture of Object.keys(PROJECT_FIXTURES) as ProjectFixture[]) {
        process.stderr.write(`measuring ${fixture}…\n`);
        rows.push(await measure(fixture, temp));
      }
    });
  } finally {
    await rm(temp, { recursive: true, force: true });
  }

  const table = [
    '| Project | Whole suite: direct → in the session’s sandbox (median) | A cycle’s fast run (one test file) → the whole suite, in the sandbox (median) | Dependencies per session: the person’s install reused (median) | Target | Met | No install of the person’s: first session (once per lockfile) → next sessions (median) | Before: `npm install` in every session |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => {
      const added = r.sandboxed - r.direct;
      const store =
        r.storeFirst === undefined
          ? 'n/a (the person’s virtual environment is required)'
          : `${ms(r.storeFirst)} → ${ms(r.storeReuse!)}`;
      return `| \`${r.fixture}\` (${r.tests} tests) | ${ms(r.direct)} → ${ms(r.sandboxed)} (${added >= 0 ? '+' : ''}${ms(added)}) | ${ms(r.related)} → ${ms(r.full)} (${(r.full / r.related).toFixed(1)}×) | ${ms(r.reuse)} | < 1 s | ${r.reuse < TARGET_REUSE_MS ? 'yes' : 'no'} | ${store} | ${r.before === undefined ? 'n/a (nothing was installed: pytest from the system, the project’s dependencies missing)' : ms(r.before)} |`;
    }),
  ];
  const section = [
    '## Sessions on real projects: the project’s own dependencies',
    '',
    `Reproduce: \`npm run bench:projects\` (runs \`tsx bench/projectFixtures.ts ${RUNS}\`): each project of \`test/fixtures/projects\` copied into a fresh repository and installed as its README says (the Node installs once per machine and lockfile, in the temp folder, then hard-linked), its whole suite run directly in that repository and by a session in bubblewrap (${RUNS} runs each, alternated); a session's dependency set-up is \`prepareProjectDependencies\` + the sandbox + \`installDependencies\` after \`SessionWorktree.create\` (${RUNS} sessions, median).`,
    '',
    ...machineLines(),
    `- ${bwrap}`,
    '',
    ...table,
    '',
    'Notes: the person’s `node_modules` is shown read-only at the worktree’s `node_modules` (a private tmpfs with a link per',
    'top-level entry into a read-only mount of it, so vite’s `.vite-temp` and other caches are written in the tmpfs); the',
    'virtual environment is used as the interpreter with the worktree’s `src` first on PYTHONPATH. The “first session” column',
    'is the frozen install (`pnpm install --frozen-lockfile` through `npx pnpm@<packageManager>`, `npm ci`) in the sandbox with',
    'the network and cold caches of a fresh product cache folder; “before” is the confined `npm install --ignore-scripts` into',
    'the worktree that every session ran until now (npm’s cache warm from the column before; the issue measured 27–38 s on',
    'a TypeScript project). vitest ran faster in the sandbox than directly in every run here; not investigated (in the sandbox',
    'its config bundle and caches are written in a tmpfs). Shared machines are noisy: rerun before drawing conclusions.',
  ].join('\n');
  if (WRITE_DOC) await publishSection('projects', section);
  else process.stdout.write(`${section}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
