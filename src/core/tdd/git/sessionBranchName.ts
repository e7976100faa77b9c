/** Prefix of every session branch. */
export const SESSION_BRANCH_PREFIX = 'tdd/';

/** `YYYYMMDD-HHMMSS` in UTC. */
export function branchTimestamp(date: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return (
    `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}-` +
    `${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}`
  );
}

/** A slug safe inside a git ref: lowercase letters, digits and single dashes. */
export function refSafeSlug(slug: string): string {
  const safe = slug
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return safe || 'kata';
}

/** `tdd/<slug>-<YYYYMMDD-HHMMSS>`: the branch a session works on. */
export function sessionBranchName(slug: string, date: Date = new Date()): string {
  return `${SESSION_BRANCH_PREFIX}${refSafeSlug(slug)}-${branchTimestamp(date)}`;
}
