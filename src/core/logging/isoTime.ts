/**
 * Epoch milliseconds as an ISO 8601 UTC string, the same text as `new Date(ms).toISOString()`. The day's part is
 * made once per day and the time of day by arithmetic: between two model calls, a Date object and its formatting
 * cost a few microseconds each, and a run stamps every action it took.
 */
const DAY_MS = 86_400_000;

let dayStart = Number.NaN;
let dayPrefix = '';

export function isoTime(ms: number): string {
  // Outside the years 0000–9999 toISOString writes a sign and six digits: leave those to it.
  if (!Number.isFinite(ms) || ms < 0 || ms >= 253_402_300_800_000) return new Date(ms).toISOString();
  let offset = ms - dayStart;
  if (!(offset >= 0 && offset < DAY_MS)) {
    dayStart = ms - (ms % DAY_MS);
    dayPrefix = new Date(dayStart).toISOString().slice(0, 11);
    offset = ms - dayStart;
  }
  const whole = Math.floor(offset);
  const millis = whole % 1000;
  const seconds = Math.floor(whole / 1000);
  return `${dayPrefix}${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}.${
    millis < 10 ? '00' : millis < 100 ? '0' : ''
  }${millis}Z`;
}

function two(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}
