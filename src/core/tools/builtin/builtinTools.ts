import type { TestRunner } from '../../testRunners/types';
import type { ToolDefinition } from '../types';
import { deleteFileTool } from './deleteFile';
import { editFileTool } from './editFile';
import { gitCommitTool, gitDiffTool, gitStatusTool } from './gitTools';
import { createHttpRequestTool, type HttpRequestOptions } from './httpRequest';
import { createListFilesTool, createWorkspaceListFilesTool } from './listFiles';
import { createReadFileTool } from './readFile';
import { createRunCommandTool, type RunCommandOptions } from './runCommand';
import { createRunTestsTool } from './runTests';
import { searchFilesTool } from './searchFiles';
import { writeFileTool } from './writeFile';

/** Host settings for the built-in tools (never chosen by the model). */
export interface BuiltinToolsOptions {
  /** Runs the workspace's tests for `run_tests`; without it `run_tests` returns a clear error. */
  testRunner?: TestRunner;
  /** `http_request`: allow-listed hosts, body cap (default 1 MiB), time limit (default 30 s). */
  http?: Pick<HttpRequestOptions, 'allowHosts' | 'maxResponseBytes' | 'timeoutMs'>;
  /** `run_command`: time limit (default 2 min) and output cap (default 64 KiB). */
  command?: RunCommandOptions;
  /** `run_tests`: time limit passed to the runner. */
  testTimeoutMs?: number;
}

/**
 * All twelve built-in tools: read_file, write_file, edit_file, delete_file, list_files,
 * search_files, run_command, run_tests, git_status, git_diff, git_commit, http_request.
 * Register them in a ToolRegistry; every file path goes through the workspace sandbox.
 */
export function createBuiltinTools(options: BuiltinToolsOptions = {}): ToolDefinition[] {
  return [
    createReadFileTool(),
    writeFileTool,
    editFileTool,
    deleteFileTool,
    createListFilesTool(),
    searchFilesTool,
    createRunCommandTool(options.command),
    createRunTestsTool({ testRunner: options.testRunner, timeoutMs: options.testTimeoutMs }),
    gitStatusTool,
    gitDiffTool,
    gitCommitTool,
    createHttpRequestTool(options.http),
  ] as ToolDefinition[];
}

/**
 * The five tools the TDD session registers, with exactly these parameters: `list_files { path? }`,
 * `read_file { path }`, `write_file { path, content }`, `edit_file { path, edits }`, `run_tests {}`.
 * A role is offered the ones its config's `tools` list names.
 */
export function createWorkspaceTools(options: { testRunner?: TestRunner; testTimeoutMs?: number } = {}): ToolDefinition[] {
  return [
    createWorkspaceListFilesTool(),
    createReadFileTool(),
    writeFileTool,
    editFileTool,
    createRunTestsTool({ testRunner: options.testRunner, timeoutMs: options.testTimeoutMs }),
  ] as ToolDefinition[];
}
