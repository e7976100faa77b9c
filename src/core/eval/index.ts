/** Evaluating a model: a set of katas run as sessions, judged by held-back acceptance tests, written as a report. */
export {
  acceptanceFor,
  bundledEvalSetDir,
  describeEvalSet,
  EvalExerciseSchema,
  EvalLanguageSchema,
  identifyEvalSet,
  kataFileOf,
  loadEvalSet,
  matchExercises,
  productVersion,
  selectExercises,
  type EvalExercise,
  type EvalLanguage,
  type EvalSet,
  type EvalSetIdentity,
} from './evalSet';
export { acceptanceOf, SessionCheckout, type AcceptanceResult, type CommitReplay, type RunLimits } from './acceptance';
export { median, passAtK } from './passAtK';
export {
  costOf,
  noPriceHint,
  priceTableShape,
  renderMarkdown,
  replayCommand,
  summarize,
  type DisciplineEvents,
  type EvalFrontEnd,
  type EvalKataSummary,
  type EvalReport,
  type EvalRunOptions,
  type EvalRunResult,
  type EvalSummary,
  type TokenPrice,
} from './report';
export {
  defaultConcurrency,
  evalFolderStamp,
  greenCycles,
  isProviderFailure,
  runEval,
  type EvalOptions,
  type EvalOutcome,
  type EvalProgress,
  type EvalStop,
} from './runEval';
export { evalJobs, expectedCost, parseShard, shardJobs, type EvalJob, type EvalShard } from './shard';
export { mergeEvalReports, type EvalReportPart, type MergedEvalReport } from './merge';
export { evalMismatch } from './sameEval';
export { compareModels, passAtKInterval, renderComparison, type EvalComparison, type EvalComparisonRow } from './compare';
export { readEvalReport } from './reportFile';
export { progressFigure, timeLeft } from './progressFigure';
