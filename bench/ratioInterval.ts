/**
 * How far one run's figure can be trusted: a bootstrap interval over the rounds of the run. A figure of
 * bench/agentVsSdk.ts is the median over rounds of one ratio divided by the median of another (the agent's and its
 * floor's, each to the bare SDK in the same round). Resampling whole rounds, with replacement, and taking that quotient
 * again gives its spread from the rounds' own noise. It says nothing of what changes between processes (code placement,
 * the host's load), which the notes measure separately.
 */
import { percentile } from '../src/core/metrics/percentile';

/** Options of {@link ratioInterval}. */
export interface IntervalOptions {
  /** Resamples (default 2000). */
  resamples?: number;
  /** Coverage in per cent (default 95). */
  coverage?: number;
  /** Seed of the resampling, so the same rounds always give the same interval (default 1). */
  seed?: number;
}

/**
 * The bootstrap interval of `median(top) / median(bottom)`, where `top[i]` and `bottom[i]` come from the same round.
 * Returns `[low, high]`; `[NaN, NaN]` without rounds.
 */
export function ratioInterval(
  top: readonly number[],
  bottom: readonly number[],
  options: IntervalOptions = {},
): [number, number] {
  if (top.length !== bottom.length) throw new Error(`ratioInterval: ${top.length} rounds against ${bottom.length}`);
  const rounds = top.length;
  if (rounds === 0) return [Number.NaN, Number.NaN];
  const resamples = options.resamples ?? 2000;
  const tail = (100 - (options.coverage ?? 95)) / 2;
  const random = mulberry32(options.seed ?? 1);
  const quotients: number[] = [];
  const a = new Array<number>(rounds);
  const b = new Array<number>(rounds);
  for (let s = 0; s < resamples; s++) {
    for (let i = 0; i < rounds; i++) {
      const pick = Math.floor(random() * rounds);
      a[i] = top[pick]!;
      b[i] = bottom[pick]!;
    }
    quotients.push(percentile(a, 50) / percentile(b, 50));
  }
  return [percentile(quotients, tail), percentile(quotients, 100 - tail)];
}

/** A small seeded generator of numbers in [0, 1) (mulberry32): the same seed, the same sequence. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
