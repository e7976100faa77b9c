/**
 * The unbiased estimator of pass@k (Chen et al., 2021, "Evaluating Large Language Models Trained on Code"): the
 * chance that at least one of k runs drawn from `n` runs, `c` of which passed, passes: 1 − C(n−c, k) / C(n, k),
 * computed as a product to stay exact for large n. Undefined when k > n (not enough runs to say).
 */
export function passAtK(n: number, c: number, k: number): number | undefined {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k) || n < 0 || c < 0 || c > n || k < 1) return undefined;
  if (k > n) return undefined;
  if (n - c < k) return 1;
  let fail = 1;
  for (let i = n - c + 1; i <= n; i++) fail *= 1 - k / i;
  return 1 - fail;
}

/** The median of some numbers (the mean of the middle two for an even count); undefined for none. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
