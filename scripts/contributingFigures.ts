/**
 * CONTRIBUTING.md's figures, from the suite itself: `npm run figures` counts the tests of each tier without running
 * them (mocha's `--dry-run` with the tier's own config) and writes the count between the `figures:tests` markers;
 * `npm run figures -- --time` also runs `npm run test:unit` and `npm test` and writes how long they took, with the
 * date and the machine, between the `figures:time` markers. Everything outside the markers is kept.
 * test/integration/scripts/contributingFigures.test.ts fails when the written count is not the suite's.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..');
const MOCHA = join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js');
/** The file the figures are written into. */
export const CONTRIBUTING = join(ROOT, 'CONTRIBUTING.md');

/** Each tier's mocha config, as `npm run test:unit` and `npm run test:integration` use them (serially, to list). */
const TIERS = {
  unit: ['--config', '.mocharc.unit.json'],
  integration: ['--config', '.mocharc.integration.cjs', '--no-parallel'],
} as const;

/** The number of tests of each tier. */
export type TestCounts = Record<keyof typeof TIERS, number>;

/** Counts one tier's tests as mocha finds them, running none (`--dry-run`). */
async function countTier(tier: keyof typeof TIERS): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'tdd-agent-figures-'));
  try {
    const report = join(dir, 'report.json');
    const args = [MOCHA, ...TIERS[tier], '--dry-run', '--reporter', 'json', '--reporter-option', `output=${report}`];
    await promisify(execFile)(process.execPath, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
    const { stats } = JSON.parse(await readFile(report, 'utf8')) as { stats: { tests: number } };
    return stats.tests;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Counts the tests of both tiers, running none. */
export async function countTests(): Promise<TestCounts> {
  return { unit: await countTier('unit'), integration: await countTier('integration') };
}

const number = (n: number): string => n.toLocaleString('en-US');

/** The count as CONTRIBUTING says it. */
export function testsFigure(counts: TestCounts): string {
  return `${number(counts.unit + counts.integration)} tests (${number(counts.unit)} unit, ${number(counts.integration)} integration)`;
}

/** `doc` with the text between `<!-- figures:<name>:start -->` and `<!-- figures:<name>:end -->` replaced. */
export function withFigure(doc: string, name: string, text: string): string {
  const start = `<!-- figures:${name}:start -->`;
  const end = `<!-- figures:${name}:end -->`;
  const from = doc.indexOf(start);
  const to = doc.indexOf(end, from);
  if (from < 0 || to < 0) throw new Error(`CONTRIBUTING.md has no ${start} … ${end} markers`);
  return doc.slice(0, from + start.length) + text + doc.slice(to);
}

/** The text between a pair of markers, or undefined without them. */
export function figureIn(doc: string, name: string): string | undefined {
  const match = new RegExp(`<!-- figures:${name}:start -->([\\s\\S]*?)<!-- figures:${name}:end -->`).exec(doc);
  return match?.[1];
}

/** Seconds of wall time `npm run <script>` takes here (its output shown as it runs). */
async function timeNpm(script: string): Promise<number> {
  const started = Date.now();
  const code = await new Promise<number | null>((resolve) =>
    spawn('npm', ['run', '-s', script], { cwd: ROOT, stdio: 'inherit' }).on('exit', resolve),
  );
  if (code !== 0) throw new Error(`npm run ${script} exited with ${code}: its time would not be the suite's`);
  return (Date.now() - started) / 1000;
}

const duration = (seconds: number): string =>
  seconds < 120 ? `${Math.round(seconds)} s` : `${Math.round(seconds / 60)} minutes`;

async function main(args: string[]): Promise<void> {
  let doc = await readFile(CONTRIBUTING, 'utf8');
  const counts = await countTests();
  doc = withFigure(doc, 'tests', testsFigure(counts));
  process.stdout.write(`${testsFigure(counts)}\n`);
  if (args.includes('--time')) {
    const unit = await timeNpm('test:unit');
    const all = await timeNpm('test');
    const cpu = cpus();
    const machine = `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.versions.node}`;
    const timed = `${duration(all)} for \`npm test\` and ${duration(unit)} for \`npm run test:unit\` on ${new Date().toISOString().slice(0, 10)} (${machine})`;
    doc = withFigure(doc, 'time', timed);
    process.stdout.write(`${timed}\n`);
  }
  await writeFile(CONTRIBUTING, doc);
}

if (require.main === module)
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
