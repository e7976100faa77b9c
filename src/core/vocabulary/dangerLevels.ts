/** How much harm a tool call can do, lowest first: reads, scratch changes, file writes, commands, outside the workspace. */
export const DANGER_LEVELS = ['SAFE', 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
/** One of {@link DANGER_LEVELS}. */
export type DangerLevel = (typeof DANGER_LEVELS)[number];

/** Orders danger levels: `dangerRank('HIGH') > dangerRank('MEDIUM')`. */
export function dangerRank(level: DangerLevel): number {
  return DANGER_LEVELS.indexOf(level);
}
