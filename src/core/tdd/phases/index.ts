/** The phases of a TDD cycle as data (`PhaseSpec`), the one `runPhase` that runs any of them, and what they work with. */
export { runPhase } from './runPhase';
export { TDD_PHASES, MAX_ATTEMPTS } from './tddPhases';
export { redPhase } from './redPhase';
export { greenPhase } from './greenPhase';
export { refactorPhase } from './refactorPhase';
export type { CycleSoFar, FileRule, PhaseAttempt, PhaseResult, PhaseSpec, PhaseVerdict } from './phaseSpec';
export type { TurnCheckpoint } from './phaseContract';
export { PhaseHost, roleTitle, type FileRefusal } from './phaseHost';
export { fileRuleHook, refuseCall, type FileRuleHookOptions } from './fileRuleHook';
export { LoopState } from './loopState';
export { TestRuns, describeRun, type TurnFiles } from './testRuns';
export type { KataInfo, LoopSetup } from './loopSetup';
