import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { isoTime } from '../../../src/core/logging/isoTime';

describe('isoTime', () => {
  it('writes the text toISOString writes, across days, months, leap days and fractions of a millisecond', () => {
    const samples = [
      0,
      1,
      999,
      1000,
      59_999,
      86_399_999,
      86_400_000,
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(2024, 2, 1, 0, 0, 0, 0),
      Date.UTC(1999, 11, 31, 23, 59, 59, 5),
      Date.UTC(2026, 10, 26, 11, 5, 28, 42) + 0.75,
      Date.now(),
      253_402_300_799_999, // the last millisecond of 9999
    ];
    // Consecutive times move back and forth across days, so the cached day is replaced and reused.
    for (let i = 0; i < 2000; i++) samples.push(Math.floor(Math.random() * 4_102_444_800_000) + Math.random());
    for (const ms of samples) assert.equal(isoTime(ms), new Date(ms).toISOString(), String(ms));
  });

  it('leaves times outside the years 0000–9999 to toISOString (a sign and six digits)', () => {
    for (const ms of [-1, -62_198_755_200_000, 253_402_300_800_000, 8.64e15])
      assert.equal(isoTime(ms), new Date(ms).toISOString());
    assert.throws(() => isoTime(Number.NaN), RangeError);
  });
});
