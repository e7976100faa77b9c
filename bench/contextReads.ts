/**
 * What a session costs when its player reads what it cannot see (`npm run bench:reads`, i.e. `tsx bench/contextReads.ts`):
 * each project of test/fixtures/projects, installed as its README says, and the two shapes of issue 35
 * (test/fixtures/context: tests reaching a 143-line root `index.js` through `require('..')`, a package re-exporting a
 * 582-line module) gets a two-cycle session started from its task sentence alone, in process, the roles played by the
 * scripted kata model (test/support/fixturePlans.ts, projectShapePlans.ts, contextShapes.ts) behind a careful player
 * (test/support/readingPlayer.ts): before it edits a file that is not whole in its turn's context, it reads it with
 * read_file, one more request. Real git, the project's real runner in bubblewrap, real commits; every chat request
 * counted with gpt-tokenizer (o200k_base), as bench/projectPrompts.ts counts them. Rewrites the part of
 * docs/benchmarks.md between `<!-- bench:context-reads:start -->` and `<!-- bench:context-reads:end -->`
 * (`BENCH_NO_WRITE=1` only prints it). `--only <name>` measures one project (and prints only).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { setLogLevel } from '../src/core/logging/logger';
import { runKataSession } from '../src/core/tdd/supervisor/kataSession';
import { CONTEXT_SHAPE_PLANS, contextShapeRepository, type ContextShape } from '../test/support/contextShapes';
import { FIXTURE_PLANS, type FixturePlan } from '../test/support/fixturePlans';
import {
  fixtureRepository,
  installFixture,
  personEnv,
  PROJECT_FIXTURES,
  type ProjectFixture,
} from '../test/support/projectFixtures';
import { SHAPE_PLANS } from '../test/support/projectShapePlans';
import { pathPython, shapePersonEnv, shapeRepository, SHAPE_FIXTURES, type ShapeFixture } from '../test/support/projectShapes';
import { readingPlayer, wholeInContext, type FileRead } from '../test/support/readingPlayer';
import { scriptedKataModel } from '../test/support/scriptedKataModel';
import { createScriptedLlmClient } from '../test/support/scriptedLlmClient';
import { machineLines, publishSection, withBenchCache } from './benchDoc';
import { requestText } from './promptTokens';

/** Issue 35's targets, for the fixture projects. */
const TARGET_TOKENS_PER_COMMIT = 12_000;
const TARGET_REQUESTS_PER_CYCLE = 3.5;
/** The commit measured as "before": the main this change started from. */
const BEFORE_COMMIT = 'd80c2bc';
/** What this bench measured there (2026-12-04, same machine): requests per green cycle, prompt tokens per green commit. */
const BEFORE: Record<string, { perCycle: number; perCommit: number }> = {
  'ts-vitest-pnpm': { perCycle: 3.5, perCommit: 8567 },
  'js-jest': { perCycle: 3.5, perCommit: 7137 },
  'py-src-pytest': { perCycle: 4, perCommit: 15380 },
  'ts-pnpm-workspace': { perCycle: 3.5, perCommit: 7094 },
  'ts-yarn-vitest-typecheck': { perCycle: 3.5, perCommit: 7201 },
  'py-hatch-vcs': { perCycle: 4, perCommit: 7917 },
  'py-flat-pytest': { perCycle: 4, perCommit: 8759 },
  'js-root-index': { perCycle: 4, perCommit: 11086 },
  'py-long-module': { perCycle: 5, perCommit: 11608 },
};

/** One project of the bench: where its repository comes from, how it is installed, its plan. */
interface Project {
  name: string;
  /** A fixture project (held to the targets) or one of the shapes (reported beside them). */
  kind: 'fixture' | 'shape';
  plan: FixturePlan;
  /** The person's repository, installed; the folder the session starts in; the environment its tools need. */
  prepare(temp: string): Promise<{ workspace: string; env: NodeJS.ProcessEnv }>;
}

const PROJECTS: Project[] = [
  ...(Object.keys(PROJECT_FIXTURES) as ProjectFixture[]).map((fixture): Project => ({
    name: fixture,
    kind: 'fixture',
    plan: FIXTURE_PLANS[fixture],
    prepare: async (temp) => {
      const dir = await fixtureRepository(fixture, await mkdtemp(join(temp, `${fixture}-`)));
      await installFixture(dir, fixture);
      return { workspace: dir, env: await personEnv() };
    },
  })),
  ...(Object.keys(SHAPE_FIXTURES) as ShapeFixture[]).map((fixture): Project => ({
    name: fixture,
    kind: 'fixture',
    plan: SHAPE_PLANS[fixture],
    prepare: async (temp) => {
      const dir = await shapeRepository(fixture, { parent: await mkdtemp(join(temp, `${fixture}-`)) });
      return { workspace: join(dir, SHAPE_FIXTURES[fixture].sessionDir), env: await shapePersonEnv(fixture) };
    },
  })),
  ...(Object.keys(CONTEXT_SHAPE_PLANS) as ContextShape[]).map((shape): Project => ({
    name: shape,
    kind: 'shape',
    plan: CONTEXT_SHAPE_PLANS[shape],
    prepare: async (temp) => {
      const python = shape === 'py-long-module' ? await pathPython() : undefined;
      const env = { ...process.env, PATH: [python?.binDir, process.env.PATH].filter(Boolean).join(':') };
      return { workspace: await contextShapeRepository(shape, temp), env };
    },
  })),
];

interface Figures {
  project: Project;
  /** Why the session could not be measured. */
  failed?: string;
  requests: number;
  greenCycles: number;
  tokens: number;
  largest: number;
  reads: FileRead[];
  /** Whether the file the plan's Implementer changes was whole in its first request of each cycle. */
  wholeAtImplementer: boolean[];
}

/** Runs `fn` with `env`'s PATH and settings in process.env (the session's test runs read them), then puts them back. */
async function withEnv<T>(env: NodeJS.ProcessEnv, fn: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    return await fn();
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

async function measure(project: Project, temp: string): Promise<Figures> {
  const figures: Figures = {
    project,
    requests: 0,
    greenCycles: 0,
    tokens: 0,
    largest: 0,
    reads: [],
    wholeAtImplementer: [],
  };
  const { workspace, env } = await project.prepare(temp);
  const llm = createScriptedLlmClient();
  const player = readingPlayer(scriptedKataModel({ cycles: project.plan.cycles }).reply);
  llm.setFallback(player.reply);
  const summary = await withEnv(env, () =>
    runKataSession({
      workspace,
      task: project.plan.task,
      llm,
      model: 'test-model',
      provider: 'openai',
      maxCycles: 4,
      approvalPolicy: { autoApproveUpTo: 'MEDIUM' },
      testTimeoutMs: 120_000,
    }),
  );
  if (summary.status !== 'completed') {
    figures.failed = `${summary.status}: ${summary.error?.message.split('\n')[0] ?? 'no green commit'}`;
    return figures;
  }
  const requests = llm.chatRequests();
  const sizes = requests.map((r) => encode(requestText(r.body)).length);
  figures.requests = sizes.length;
  figures.greenCycles = summary.cycles.filter((c) => c.outcome === 'green').length;
  figures.tokens = sizes.reduce((a, b) => a + b, 0);
  figures.largest = Math.max(...sizes);
  figures.reads = player.reads;
  for (const req of requests) {
    const messages = req.body.messages as Array<{ role: string; content?: unknown }>;
    const system = String(messages.find((m) => m.role === 'system')?.content ?? '');
    if (!system.startsWith('agent: implementer/') || messages.some((m) => m.role === 'assistant')) continue;
    const user = String(messages.find((m) => m.role === 'user')?.content ?? '');
    if (/- attempt: 1\b/.test(user)) figures.wholeAtImplementer.push(wholeInContext(user, project.plan.sourcePath));
  }
  return figures;
}

const perCommit = (f: Figures): number => Math.round(f.tokens / f.greenCycles);
const perCycle = (f: Figures): number => f.requests / f.greenCycles;

function readsText(f: Figures): string {
  if (f.reads.length === 0) return 'none';
  return f.reads.map((r) => `${r.role} ${r.cycle}: \`${r.path}\``).join('; ');
}

function row(f: Figures): string {
  if (f.failed) return `| \`${f.project.name}\` | not measured: ${f.failed} | | | | |`;
  const met =
    f.project.kind === 'shape'
      ? 'n/a'
      : perCommit(f) <= TARGET_TOKENS_PER_COMMIT && perCycle(f) <= TARGET_REQUESTS_PER_CYCLE
        ? 'yes'
        : 'no';
  const whole = f.wholeAtImplementer.map((w) => (w ? 'whole' : 'not whole')).join(', ');
  const before = BEFORE[f.project.name];
  const was = (value: string | undefined) => (value === undefined ? '' : `${value} → `);
  return `| \`${f.project.name}\` | ${was(before?.perCycle.toFixed(2))}**${perCycle(f).toFixed(2)}** (${f.requests} / ${f.greenCycles}) | ${was(before?.perCommit.toString())}**${perCommit(f)}** (largest request ${f.largest}) | ${met} | ${readsText(f)} | \`${f.project.plan.sourcePath}\`: ${whole} |`;
}

function render(rows: Figures[]): string {
  const table = (kind: Project['kind']) => rows.filter((r) => r.project.kind === kind).map(row);
  return [
    '## The roles see what they change: requests and prompt tokens with a player that reads what it cannot see',
    '',
    'Reproduce: `npm run bench:reads` (runs `tsx bench/contextReads.ts`): each project of `test/fixtures/projects`,',
    'installed as its README says, and the two shapes of issue 35 in `test/fixtures/context` get a two-cycle session started',
    'from their task sentence alone, in process, the roles played by the scripted kata model (`test/support/fixturePlans.ts`,',
    '`projectShapePlans.ts`, `contextShapes.ts`: the Tester adds a test to an existing test file with edit_file, the',
    'Implementer adds a function where that test reaches it) behind a careful player (`test/support/readingPlayer.ts`):',
    'before it edits a file that is not whole in its turn’s context, it reads it with read_file — one more request, and the',
    'file in the conversation. Real git, the project’s runner in bubblewrap, real commits; every chat request counted with',
    '`gpt-tokenizer` (o200k_base). Requests per green cycle include the Tester’s closing KATA_COMPLETE turn. Each figure',
    `is written "before → now": before is this bench on ${BEFORE_COMMIT}, the main issue 35's item 5 started from.`,
    '',
    ...machineLines(),
    '',
    `| Project | Model requests per green cycle (requests / green cycles) | Prompt tokens per green commit | Met (≤ ${TARGET_REQUESTS_PER_CYCLE} requests, ≤ ${TARGET_TOKENS_PER_COMMIT} tokens) | Files the player had to read first (role, cycle) | The file the Implementer changes, in its first request of each cycle |`,
    '|---|---|---|---|---|---|',
    ...table('fixture'),
    '',
    'The two shapes of issue 35, where the file the Implementer changes was not whole in its first request on real',
    "libraries (a 143-line `index.js` reached through `require('..')`, a long module behind a package’s `__init__.py`):",
    '',
    '| Shape | Model requests per green cycle | Prompt tokens per green commit | Met | Files the player had to read first | The file the Implementer changes |',
    '|---|---|---|---|---|---|',
    ...table('shape'),
    '',
    'Notes: the player is deterministic; the figures move by a few tokens between runs (the runners’ timings in the test',
    'output). Before, a Tester’s first turn showed one example test, which in the three Python projects was not the file the',
    'task’s test goes in: the player read that file first. A first turn now shows the test files by relevance to the task',
    '(its words in their paths, their text and the code they reach) as far as the Tester’s budget goes, and the code a test',
    'reaches is followed by name through re-exports, so the Implementer and the Refactorer of `py-src-pytest` no longer see',
    'the modules its `__init__.py` re-exports beside the one under test. The JavaScript and TypeScript projects pay a few',
    'hundred tokens a commit for the other test files on the first turn. In the issue’s shapes the file the Implementer',
    'changes is now whole in its first request and the player reads nothing; the 582-line module (about 6,000 tokens) is',
    'then in every request of the Implementer and of the Refactorer, which changes that code too, where the reading player',
    'paid it once per Implementer turn and the Refactorer never saw it: more tokens per commit for that shape, fewer',
    'requests. Not in the targets: those shapes are here to show the file whole, not what a small fixture costs.',
  ].join('\n');
}

async function main(): Promise<void> {
  setLogLevel('error');
  const onlyAt = process.argv.indexOf('--only');
  const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
  const temp = await mkdtemp(join(tmpdir(), 'bench-context-reads-'));
  try {
    await withBenchCache(async () => {
      const rows: Figures[] = [];
      for (const project of PROJECTS.filter((p) => !only || p.name === only)) {
        process.stderr.write(`measuring ${project.name}…\n`);
        rows.push(
          await measure(project, temp).catch((e: unknown) => ({
            project,
            failed: (e instanceof Error ? e.message : String(e)).split('\n')[0]!,
            requests: 0,
            greenCycles: 0,
            tokens: 0,
            largest: 0,
            reads: [],
            wholeAtImplementer: [],
          })),
        );
      }
      const section = render(rows);
      if (only) process.stdout.write(`${section}\n`);
      else await publishSection('context-reads', section);
    });
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
