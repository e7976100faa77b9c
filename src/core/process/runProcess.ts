import { spawn, type ChildProcess } from 'node:child_process';
import { settleOnce } from '../async/settleOnce';
import type { ProcessSandbox, WrappedLaunch } from '../osSandbox/types';
import { scrubEnv } from './scrubEnv';

/** Options of {@link runProcess}. */
export interface RunProcessOptions {
  cwd: string;
  /** Executable, or a whole command line when `shell` is true. */
  command: string;
  args?: string[];
  shell?: boolean;
  /**
   * Environment for the child; credential-like variables are always removed. With a sandbox, the sandbox passes on
   * only its allow-list of it. Default: this process's env.
   */
  env?: NodeJS.ProcessEnv;
  /** Kill the whole process group after this many ms. Default 60 000. */
  timeoutMs?: number;
  /** Keep at most this many bytes of output (stdout and stderr each, and combined). Default 1 MiB. */
  maxOutputBytes?: number;
  signal?: AbortSignal;
  /** Written to the child's stdin, which is then closed. */
  input?: string;
  /** Runs the child inside this OS sandbox, which decides what of the environment gets in and bounds the run. */
  sandbox?: ProcessSandbox;
}

/** What a finished child process did; {@link runProcess} always resolves with one, never rejects. */
export interface RunProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved in arrival order. */
  output: string;
  timedOut: boolean;
  cancelled: boolean;
  truncated: boolean;
  /** The child could not be started (e.g. command not found); `output` says why. */
  spawnError?: string;
  /**
   * The sandbox limit the run ran into (`the sandbox's file-size limit (1 GiB per file)`); a line saying so ends
   * `output` and `stderr` too, so the person and the model reading the output learn why the run failed.
   */
  limitHit?: string;
  durationMs: number;
}

/** The line added to the output of a run that ran into a sandbox limit. */
export function limitHitNote(limitHit: string): string {
  return `[tdd-agent] the run hit ${limitHit}\n`;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_OUTPUT = 1024 * 1024;

/** Appends to a bounded buffer; once full, further data is dropped and a marker added once. */
class BoundedText {
  private chunks: string[] = [];
  private bytes = 0;
  truncated = false;
  constructor(private readonly limit: number) {}
  push(text: string): void {
    if (this.truncated) return;
    const size = Buffer.byteLength(text);
    if (this.bytes + size <= this.limit) {
      this.chunks.push(text);
      this.bytes += size;
      return;
    }
    const room = Math.max(0, this.limit - this.bytes);
    this.chunks.push(Buffer.from(text).subarray(0, room).toString());
    this.chunks.push(`\n…[output truncated at ${this.limit} bytes]…\n`);
    this.bytes = this.limit;
    this.truncated = true;
  }
  toString(): string {
    return this.chunks.join('');
  }
}

/** The launch wrapped by the sandbox (which filters the environment itself), or with a scrubbed environment when there is none. */
function prepareLaunch(options: RunProcessOptions): WrappedLaunch {
  const launch = {
    command: options.command,
    args: options.args ?? [],
    shell: options.shell ?? false,
    cwd: options.cwd,
    env: options.env ?? process.env,
  };
  return options.sandbox ? options.sandbox.wrap(launch) : { ...launch, env: scrubEnv(launch.env) };
}

/**
 * Runs a child process in its own process group and always resolves (never rejects for a
 * non-zero exit). On timeout or abort the whole group is killed, so a generated infinite loop
 * or a forked grandchild cannot outlive the call. Output is capped with a visible marker.
 * With a `sandbox`, the group leader is the sandbox (bubblewrap dies with its parent and takes its
 * PID namespace along), so the same kill ends everything inside it.
 */
export function runProcess(options: RunProcessOptions): Promise<RunProcessResult> {
  const started = Date.now();
  const limit = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  const stdout = new BoundedText(limit);
  const stderr = new BoundedText(limit);
  const output = new BoundedText(limit);

  return new Promise((resolve) => {
    let timedOut = false;
    let cancelled = false;

    let launch: WrappedLaunch;
    try {
      launch = prepareLaunch(options);
    } catch (err) {
      resolve(sandboxLaunchFailure(options.command, err, started));
      return;
    }

    const child = spawn(launch.command, launch.args, {
      cwd: options.cwd,
      env: launch.env,
      shell: launch.shell,
      detached: true, // own process group: kill(-pid) reaches every descendant
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });

    // The deadline and the abort kill the group; the run ends (once) when the child closes.
    const wait = settleOnce({
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      onTimeout: () => {
        timedOut = true;
        killGroup(child);
      },
      signal: options.signal,
      onAbort: () => {
        cancelled = true;
        killGroup(child);
      },
      unref: true,
    });

    const finish = (exitCode: number | null, signal: NodeJS.Signals | null, spawnError?: string): void => {
      if (!wait.settle()) return;
      // The group may still hold a grandchild that kept running after the leader exited.
      if (timedOut || cancelled) killGroup(child);
      const result: RunProcessResult = {
        exitCode,
        signal,
        stdout: stdout.toString(),
        stderr: stderr.toString(),
        output: output.toString(),
        timedOut,
        cancelled,
        truncated: stdout.truncated || stderr.truncated || output.truncated,
        spawnError,
        durationMs: Date.now() - started,
      };
      if (!launch.release) return resolve(result);
      void releaseSandbox(launch, result, timedOut || cancelled, started).then(resolve);
    };

    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout.push(d);
      output.push(d);
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr.push(d);
      output.push(d);
    });
    child.stdin.on('error', () => undefined); // the child may exit before reading its input
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();

    child.on('error', (err) => {
      output.push(`Could not start '${options.command}': ${err.message}\n`);
      finish(null, null, err.message);
    });
    child.on('close', (code, signal) => finish(code, signal));
  });
}

/** The result of a run the sandbox could not even prepare: nothing started. */
function sandboxLaunchFailure(command: string, err: unknown, started: number): RunProcessResult {
  const message = err instanceof Error ? err.message : String(err);
  return {
    exitCode: null,
    signal: null,
    stdout: '',
    stderr: '',
    output: `Could not start '${command}' in the sandbox: ${message}\n`,
    timedOut: false,
    cancelled: false,
    truncated: false,
    spawnError: message,
    durationMs: Date.now() - started,
  };
}

/** Kills the child's whole process group (the child alone when the group is gone). */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    try {
      child.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

/**
 * Releases the sandbox after the run, which says whether a limit of its own ended it; the note of that limit ends the
 * output. A timeout or a cancel is its own reason: only a run that ended by itself is checked for a limit.
 */
async function releaseSandbox(
  launch: WrappedLaunch,
  result: RunProcessResult,
  stopped: boolean,
  started: number,
): Promise<RunProcessResult> {
  const checked = stopped ? { ...result, exitCode: 0, signal: null } : result;
  const limitHit = await launch.release?.(checked).catch(() => undefined);
  if (limitHit) {
    const note = limitHitNote(limitHit);
    const end = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`) + note;
    Object.assign(result, { limitHit, output: end(result.output), stderr: end(result.stderr) });
  }
  result.durationMs = Date.now() - started;
  return result;
}
