import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { CliIo } from '../../../src/cli/cliIo';
import { runCli } from '../../../src/cli/runCli';
import { ensureCliBundle } from '../../support/cliBundle';
import { startOpenAIServer, type OpenAITestServer } from '../../support/openaiServer';

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

/** What `useCliSession` gives the tests of a describe: the current loopback model server and temp folder. */
export interface CliSession {
  /** The loopback OpenAI-compatible server the CLI is pointed at (`--base-url session.server.baseURL`). */
  readonly server: OpenAITestServer;
  /** An empty temp folder (its real path: the CLI reports real paths), removed afterwards. */
  readonly dir: string;
  /** Another temp folder named `<prefix>…`, removed with `dir`. */
  tempDir(prefix: string): Promise<string>;
}

/**
 * Registers the hooks of a CLI test in the calling `describe`: the built CLI once (`bundle`, for the tests that start
 * `dist/cli.js`), then for each test (for the whole describe with `once`) a loopback model server and a temp folder
 * `<tmp>/<prefix>…`, closed and removed after it. The describe's own hooks run after these, so they can use both.
 */
export function useCliSession(prefix: string, options: { bundle?: boolean; once?: boolean } = {}): CliSession {
  let server: OpenAITestServer | undefined;
  let dir: string | undefined;
  const folders: string[] = [];
  const session: CliSession = {
    get server() {
      if (!server) throw new Error('useCliSession: the server starts in a before hook; read it in a test or a hook');
      return server;
    },
    get dir() {
      if (!dir) throw new Error('useCliSession: the folder is made in a before hook; read it in a test or a hook');
      return dir;
    },
    async tempDir(folderPrefix) {
      const folder = await realpath(await mkdtemp(join(tmpdir(), folderPrefix)));
      folders.push(folder);
      return folder;
    },
  };
  if (options.bundle)
    before(async function () {
      this.timeout(60_000);
      await ensureCliBundle();
    });
  const [setUp, tearDown] = options.once ? [before, after] : [beforeEach, afterEach];
  setUp(async () => {
    server = await startOpenAIServer();
    dir = await session.tempDir(prefix);
  });
  tearDown(async () => {
    await server?.close();
    server = undefined;
    dir = undefined;
    for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
  });
  return session;
}
