import { PassThrough } from 'node:stream';
import type { CliIo } from '../../../src/cli/cliIo';
import { runCli } from '../../../src/cli/runCli';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with captured streams, a non-TTY stdin and the given environment. */
export async function cli(
  argv: string[],
  env: NodeJS.ProcessEnv,
  options: { stdin?: string; signal?: AbortSignal } = {},
): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += String(d)));
  stderr.on('data', (d) => (err += String(d)));
  stdin.end(options.stdin ?? '');
  const io: CliIo = { stdout, stderr, stdin, env, signal: options.signal ?? new AbortController().signal };
  const code = await runCli(argv, io);
  return { code, stdout: out, stderr: err };
}

/**
 * An environment with no provider configured and no Ollama reachable (port 9 refuses). Like every child of a test
 * worker, the built binary runs without c8's coverage (test/support/workerCoverage.ts): the core code it runs is
 * covered by the in-process tests (its coverage added no line).
 */
export function isolatedEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    OLLAMA_HOST: 'http://127.0.0.1:9',
    TDD_AGENT_CACHE_DIR: process.env.TDD_AGENT_CACHE_DIR,
  };
  return { ...env, ...extra };
}

/** `kata <kata> --workspace <dir> --base-url <baseURL> --model test-model`: the start of a kata run against the loopback server. */
export function kataArgs(kata: string, workspace: string, baseURL: string): string[] {
  return ['kata', kata, '--workspace', workspace, '--base-url', baseURL, '--model', 'test-model'];
}
