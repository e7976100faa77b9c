/**
 * The words the tools, the control protocol, the MCP hub and the TDD events share: danger levels and
 * approval outcomes. A leaf: it imports nothing, so any folder of the core may import it.
 */
export { DANGER_LEVELS, dangerRank, type DangerLevel } from './dangerLevels';
export type { ApprovalOutcome } from './approvalOutcome';
