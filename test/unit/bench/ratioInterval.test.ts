import { strict as assert } from 'node:assert';
import { ratioInterval } from '../../../bench/ratioInterval';

describe('bench/ratioInterval: how far one run of the agent-vs-SDK figure can be trusted', () => {
  it('is a single point when every round gives the same ratio', () => {
    const [low, high] = ratioInterval(Array(50).fill(1.1), Array(50).fill(1.0));
    assert.ok(Math.abs(low - 1.1) < 1e-12 && Math.abs(high - 1.1) < 1e-12, `${low}–${high}`);
  });

  it('holds the quotient of the medians, and is wider for noisier rounds', () => {
    // A fixed pseudo-noise: the same rounds every time the test runs.
    const noise = (i: number, size: number) => size * Math.sin(i * 12.9898 + 78.233);
    const quiet = Array.from({ length: 300 }, (_, i) => 1.1 + noise(i, 0.01));
    const loud = Array.from({ length: 300 }, (_, i) => 1.1 + noise(i, 0.1));
    const floor = Array.from({ length: 300 }, (_, i) => 1.02 + noise(i + 7, 0.01));
    const [ql, qh] = ratioInterval(quiet, floor);
    const [ll, lh] = ratioInterval(loud, floor);
    const point = 1.1 / 1.02;
    assert.ok(ql < point && point < qh, `${ql}–${qh} should hold ${point}`);
    assert.ok(ll < point && point < lh, `${ll}–${lh} should hold ${point}`);
    assert.ok(lh - ll > 3 * (qh - ql), `loud ${lh - ll} should be much wider than quiet ${qh - ql}`);
  });

  it('gives the same interval for the same rounds (seeded), and refuses rounds that do not pair up', () => {
    const top = Array.from({ length: 100 }, (_, i) => 1 + (i % 7) / 100);
    const bottom = Array.from({ length: 100 }, (_, i) => 1 + (i % 5) / 200);
    assert.deepEqual(ratioInterval(top, bottom), ratioInterval(top, bottom));
    assert.throws(() => ratioInterval([1, 2], [1]), /2 rounds against 1/);
    assert.deepEqual(ratioInterval([], []).map(Number.isNaN), [true, true]);
  });
});
