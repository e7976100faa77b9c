/**
 * Runs the programs in examples/ against the loopback OpenAI-compatible server with scripted replies
 * (OPENAI_BASE_URL, MODEL), so the examples never rot. Each runs as its own `node` process, compiled once per
 * test run (test/support/exampleBundles.ts); `viaTsx` runs one exactly as the README says
 * (`node --import tsx examples/<file>`). The example tests are split over a few files so that `npm test`'s
 * parallel workers can run them side by side.
 *
 * The examples run without c8's NODE_V8_COVERAGE, as every child of a test worker (test/support/workerCoverage.ts):
 * what they execute of the core is covered by the in-process tests (test/unit/publicApi.test.ts covers the public
 * barrel, the one part only the examples reached), and collecting it cost a second per run.
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { ensureExampleBundles, exampleBundle } from '../../support/exampleBundles';
import { startOpenAIServer, type OpenAITestServer, type RecordedRequest } from '../../support/openaiServer';

const ROOT = join(__dirname, '..', '..', '..');

/** What an example printed and how it exited. */
export interface ExampleRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of a person running an example: no credentials of this machine, only what the test gives. */
export function exampleEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of [
    'OPENAI_API_KEY',
    'OPENAI_BASE_URL',
    'OLLAMA_HOST',
    'MODEL',
    'MAX_CYCLES',
    'KEEP',
    'TDD_AGENT_AGENTS_DIR',
    'NODE_OPTIONS',
  ])
    delete env[key];
  return { ...env, ...extra };
}

/** Runs the example `file` with `args` and collects its output (the time limit is generous: under `npm test` the examples share the machine with other workers). */
export function runExample(
  file: string,
  env: Record<string, string>,
  args: string[] = [],
  { timeoutMs = 60_000, viaTsx = false }: { timeoutMs?: number; viaTsx?: boolean } = {},
): Promise<ExampleRun> {
  const program = viaTsx ? ['--import', 'tsx', join('examples', file)] : [exampleBundle(file)];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...program, ...args],
      { cwd: ROOT, env: exampleEnv(env), timeout: timeoutMs, maxBuffer: 8 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

/** The text of the first user message of a request. */
export function userText(req: RecordedRequest): string {
  const user = (req.body.messages as Array<{ role: string; content: unknown }>).find((m) => m.role === 'user');
  return typeof user?.content === 'string' ? user.content : '';
}

/** Asserts that an example exited 0, showing its output when it did not. */
export function expectOk(run: ExampleRun): void {
  assert.equal(run.code, 0, `exit ${run.code}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`);
}

/** A fresh loopback server per test and the environment an example needs to reach it. */
export function useExampleServer(): { server: () => OpenAITestServer; env: () => Record<string, string> } {
  let server: OpenAITestServer;
  let env: Record<string, string>;
  before(async function () {
    this.timeout(60_000);
    await ensureExampleBundles();
  });
  beforeEach(async () => {
    server = await startOpenAIServer({ models: ['example-model'] });
    env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'sk-example-loopback-000', MODEL: 'example-model' };
  });
  afterEach(() => server.close());
  return { server: () => server, env: () => env };
}
