/**
 * What every bench script shares: the machine lines of a section, writing a section between its markers in
 * docs/benchmarks.md (`<!-- bench:<name>:start -->` … `<!-- bench:<name>:end -->`; everything else is kept), and a
 * temporary cache folder for session worktrees.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';

/** docs/benchmarks.md */
export const BENCHMARKS_DOC = join(__dirname, '..', 'docs', 'benchmarks.md');

/** The date, machine and Node lines each section starts with. */
export function machineLines(): string[] {
  const cpus = os.cpus();
  return [
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${cpus[0]?.model ?? 'unknown'} × ${cpus.length}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GB RAM, ${os.platform()} ${os.release()}`,
    `- Node ${process.version}`,
  ];
}

/** Replaces the section `name` between its markers (appends the markers when the doc has none yet). */
export async function writeSection(name: string, section: string): Promise<void> {
  const startMarker = `<!-- bench:${name}:start -->`;
  const endMarker = `<!-- bench:${name}:end -->`;
  const doc = await readFile(BENCHMARKS_DOC, 'utf8');
  const start = doc.indexOf(startMarker);
  const end = doc.indexOf(endMarker);
  const block = `${startMarker}\n${section}\n${endMarker}`;
  const next =
    start >= 0 && end > start
      ? doc.slice(0, start) + block + doc.slice(end + endMarker.length)
      : `${doc.trimEnd()}\n\n${block}\n`;
  await writeFile(BENCHMARKS_DOC, next);
}

/** Prints the section and writes it to docs/benchmarks.md, unless BENCH_NO_WRITE=1. */
export async function publishSection(name: string, section: string): Promise<void> {
  process.stdout.write(`${section}\n`);
  if (process.env.BENCH_NO_WRITE === '1') return;
  await writeSection(name, section);
  process.stdout.write(`\nwrote ${BENCHMARKS_DOC}\n`);
}

/** Runs `fn` with session worktrees in a temporary cache folder of this run (as the tests do), then removes it. */
export async function withBenchCache<T>(fn: () => Promise<T>): Promise<T> {
  const cache = mkdtempSync(join(os.tmpdir(), 'tdd-agent-bench-cache-'));
  const previous = process.env.TDD_AGENT_CACHE_DIR;
  process.env.TDD_AGENT_CACHE_DIR = cache;
  try {
    return await fn();
  } finally {
    if (previous === undefined) delete process.env.TDD_AGENT_CACHE_DIR;
    else process.env.TDD_AGENT_CACHE_DIR = previous;
    rmSync(cache, { recursive: true, force: true });
  }
}
