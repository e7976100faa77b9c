import { realpath } from 'node:fs/promises';
import { z } from 'zod';
import { AgentError } from '../../errors/agentError';
import { runProcess } from '../../process/runProcess';
import { redactSecrets } from '../../security/redact';
import { defineTool } from '../types';
import { formatDuration } from './textLimits';

/** Default time limit of `run_command` (2 minutes). */
export const DEFAULT_COMMAND_TIMEOUT_MS = 120_000;
/** Default output cap of `run_command` (64 KiB). */
export const DEFAULT_COMMAND_MAX_OUTPUT_BYTES = 64 * 1024;

/** Limits of `run_command`, set by the host, never by the model. */
export interface RunCommandOptions {
  /** Default and ceiling for one command; the model may ask for less, never more. */
  timeoutMs?: number;
  /** Output kept per stream (and combined); the rest is dropped with a marker. */
  maxOutputBytes?: number;
}

/** Parameters of `run_command`. */
export const runCommandParameters = z.object({
  command: z
    .string()
    .min(1)
    .describe('Shell command line, run with /bin/sh in the workspace root (e.g. "npm test -- --grep add").'),
  timeout_seconds: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Kill the command after this many seconds. Capped by the session limit, which is also the default.'),
});

/** What `run_command` returns as `data`. */
export interface RunCommandData {
  command: string;
  exitCode: number | null;
  timedOut: boolean;
  truncated: boolean;
  durationMs: number;
}

/**
 * `run_command` (HIGH: arbitrary code runs with the person's rights inside the workspace):
 * one shell command line in the workspace root through `runProcess` (inside the context's OS
 * sandbox when the host gave one), which runs it in its own
 * process group (killed as a whole on timeout or cancel), caps the output with a marker, and
 * removes API keys and tokens from the child's environment. A non-zero exit is a normal
 * result (the model needs the output); the content reports exit code, time-out and truncation.
 */
export function createRunCommandTool(options: RunCommandOptions = {}) {
  const ceilingMs = options.timeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_COMMAND_MAX_OUTPUT_BYTES;
  return defineTool({
    name: 'run_command',
    description: `Run a shell command in the workspace root and return its exit code and output (output is capped at ${maxOutputBytes} bytes).`,
    category: 'shell',
    dangerLevel: 'HIGH',
    parameters: runCommandParameters,
    preview: (params) => ({ kind: 'command', commandLine: params.command }),
    async execute(params, context) {
      const timeoutMs = Math.min(ceilingMs, (params.timeout_seconds ?? Infinity) * 1000);
      const cwd = await realpath(context.workspaceRoot);
      context.logger.debug('run_command', { command: params.command, timeoutMs });
      const result = await runProcess({
        cwd,
        command: params.command,
        shell: true,
        timeoutMs,
        maxOutputBytes,
        signal: context.signal,
        sandbox: context.sandbox,
      });
      if (result.cancelled)
        throw new AgentError('CANCELLED', `The command was cancelled and its process group killed: ${params.command}`);
      const status = result.spawnError
        ? `[could not start: ${result.spawnError}]`
        : result.timedOut
          ? `[timed out after ${formatDuration(timeoutMs)}; the whole process group was killed]`
          : `[exit code ${result.exitCode ?? `none (signal ${result.signal})`}]`;
      const notes = result.truncated ? `\n[output truncated at ${maxOutputBytes} bytes]` : '';
      const output = redactSecrets(result.output);
      const data: RunCommandData = {
        command: redactSecrets(params.command),
        exitCode: result.exitCode,
        timedOut: result.timedOut,
        truncated: result.truncated,
        durationMs: result.durationMs,
      };
      return {
        content: `$ ${redactSecrets(params.command)}\n${output}${output.endsWith('\n') || output === '' ? '' : '\n'}${status}${notes}`,
        data,
      };
    },
  });
}

/** `run_command` with default limits. */
export const runCommandTool = createRunCommandTool();
