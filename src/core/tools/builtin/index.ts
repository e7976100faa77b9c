/** The built-in tools and their helpers; see `builtinTools.ts` for the two factories. */
export { createBuiltinTools, createWorkspaceTools, type BuiltinToolsOptions } from './builtinTools';
export { BuiltinToolError } from './errors';
export { readFileTool, createReadFileTool, readFileParameters } from './readFile';
export { writeFileTool, writeFileParameters, type FileChangeData } from './writeFile';
export {
  editFileTool,
  editFileParameters,
  editBlocksOf,
  editedText,
  planEdit,
  planEdits,
  type EditBlock,
  type PlannedEdit,
} from './editFile';
export { deleteFileTool, deleteFileParameters } from './deleteFile';
export {
  listFilesTool,
  createListFilesTool,
  createWorkspaceListFilesTool,
  listFilesParameters,
  type ListFilesData,
} from './listFiles';
export { searchFilesTool, searchFilesParameters, type SearchMatch } from './searchFiles';
export {
  runCommandTool,
  createRunCommandTool,
  runCommandParameters,
  type RunCommandOptions,
  type RunCommandData,
} from './runCommand';
export { createRunTestsTool, runTestsParameters, type RunTestsOptions } from './runTests';
export { gitStatusTool, gitDiffTool, gitCommitTool, type GitStatusData, type GitCommitData } from './gitTools';
export { createHttpRequestTool, httpRequestParameters, type HttpRequestOptions, type HttpResponseData } from './httpRequest';
export { previewToolCall, type ToolCallPreview } from './preview';
export { unifiedDiff } from './unifiedDiff';
export { compactFileContents } from './compactFileContents';
export { createAskPersonTool, askPersonParameters, type AskPerson } from './askPerson';
