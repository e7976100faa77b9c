import { AgentError } from '../errors/agentError';
import { acceptanceFor, type EvalExercise } from './evalSet';
import { type Language } from '../vocabulary';

/** One session of an eval: an exercise and the run's number (1-based) among its `--runs`. */
export interface EvalJob {
  exercise: EvalExercise;
  run: number;
}

/** `--shard i/n`: the i-th (1-based) of n parts of an eval's runs. */
export interface EvalShard {
  index: number;
  count: number;
}

/**
 * Reads `i/n` (`--shard 2/3`): whole numbers, 1 ≤ i ≤ n. A bad value is an AgentError (`CONFIG`) saying the shape.
 */
export function parseShard(text: string): EvalShard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = match ? Number(match[1]) : NaN;
  const count = match ? Number(match[2]) : NaN;
  if (!match || count < 1 || index < 1 || index > count)
    throw new AgentError('CONFIG', `--shard takes i/n with 1 ≤ i ≤ n (e.g. 2/3), got '${text}'.`, { shard: text });
  return { index, count };
}

const DIFFICULTY: Record<string, number> = { easy: 1, medium: 2, hard: 3 };

/**
 * What one run of an exercise is expected to cost, in relative units: its difficulty tag (easy 1, medium 2, hard 3;
 * none of them: 2), which says how many cycles a session takes, plus one per 25 acceptance cases (the acceptance run
 * and the behaviours to drive). Only the ratios matter: shards are balanced by it.
 */
export function expectedCost(exercise: EvalExercise, language: Language): number {
  const difficulty = exercise.tags.map((t) => DIFFICULTY[t]).find((w) => w !== undefined) ?? 2;
  return difficulty + (acceptanceFor(exercise, language)?.cases ?? 0) / 25;
}

/** Every run of an eval, in the report's order: each exercise in the set's order, its runs 1..runs. */
export function evalJobs(exercises: readonly EvalExercise[], runs: number): EvalJob[] {
  return exercises.flatMap((exercise) => Array.from({ length: runs }, (_, i) => ({ exercise, run: i + 1 })));
}

/**
 * The runs of shard `index` of `count`: the runs sorted by {@link expectedCost} (most expensive first, then in the
 * report's order), each given to the shard with the least expected cost so far (the lowest index on a tie). The same
 * exercises, language, runs and count give the same split on every machine; every run is in exactly one shard.
 * Returned in the report's order.
 */
export function shardJobs(jobs: readonly EvalJob[], language: Language, shard: EvalShard): EvalJob[] {
  if (shard.count === 1) return [...jobs];
  const order = jobs
    .map((job, position) => ({ job, position, cost: expectedCost(job.exercise, language) }))
    .sort((a, b) => b.cost - a.cost || a.position - b.position);
  const load = new Array<number>(shard.count).fill(0);
  const mine: number[] = [];
  for (const { position, cost } of order) {
    let target = 0;
    for (let i = 1; i < shard.count; i++) if (load[i]! < load[target]!) target = i;
    load[target]! += cost;
    if (target === shard.index - 1) mine.push(position);
  }
  return mine.sort((a, b) => a - b).map((position) => jobs[position]!);
}
