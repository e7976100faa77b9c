/** Role boundaries of the TDD cycle, checked from the diff. */
export { isTestFile, type TestFileRules } from './isTestFile';
export { testRegionFinder, testRegionsText } from './testRegions';
export {
  checkRoleBoundary,
  describeViolations,
  type BoundaryRule,
  type BoundaryTestCounts,
  type BoundaryViolation,
  type TddRole,
} from './checkRoleBoundary';
