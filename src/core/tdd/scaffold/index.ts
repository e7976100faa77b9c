/** Minimal projects for an empty workspace, per kata language. */
export { scaffoldProject, isEmptyWorkspace, type ScaffoldResult } from './scaffoldProject';
export { scaffoldPlan, type ScaffoldKata, type ScaffoldPlan } from './scaffoldFiles';
