import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { closedPort } from '../../support/deadEndpoints';
import { fizzbuzzJs } from '../../support/fizzbuzzPlans';
import { startOpenAIServer, type OpenAITestServer, type RecordedRequest, type ScriptedReply } from '../../support/openaiServer';
import { scriptedKataModel } from '../../support/scriptedKataModel';

const ROOT = join(__dirname, '..', '..', '..');

interface ExampleRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of a person running an example: no credentials of this machine, only what the test gives. */
function exampleEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
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

/** Runs `node --import tsx examples/<file> [...args]` as a person would, and collects its output (the time limit is generous: under `npm test` the examples share the machine with other workers). */
function runExample(file: string, env: Record<string, string>, args: string[] = [], timeoutMs = 60_000): Promise<ExampleRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join('examples', file), ...args],
      { cwd: ROOT, env: exampleEnv(env), timeout: timeoutMs, maxBuffer: 8 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

function userText(req: RecordedRequest): string {
  const user = (req.body.messages as Array<{ role: string; content: unknown }>).find((m) => m.role === 'user');
  return typeof user?.content === 'string' ? user.content : '';
}

/**
 * Every example in examples/ runs as a child process against the loopback OpenAI-compatible server with
 * scripted replies, exactly as a person would run it against a real endpoint (OPENAI_BASE_URL, MODEL).
 * The assertions are on what it prints, its exit code, and what reached the model — so the examples never rot.
 */
describe('examples/ run against the loopback OpenAI server', function () {
  this.timeout(90_000);
  let server: OpenAITestServer;
  let env: Record<string, string>;

  beforeEach(async () => {
    server = await startOpenAIServer({ models: ['example-model'] });
    env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'sk-example-loopback-000', MODEL: 'example-model' };
  });
  afterEach(() => server.close());

  const expectOk = (run: ExampleRun): void =>
    assert.equal(run.code, 0, `exit ${run.code}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`);

  it('qa.ts answers a question with the QA agent', async () => {
    server.enqueue({ json: { answer: 'It returns the sum of a and b.', confidence: 1.4, reasoning: 'return a + b' } });
    const run = await runExample('qa.ts', env, ['What does add return?']);
    expectOk(run);
    assert.match(run.stdout, /answer: It returns the sum of a and b\./);
    assert.match(run.stdout, /confidence: 1\n/, 'confidence is clamped to 0..1');
    const [req] = server.chatRequests();
    assert.equal(req!.body.model, 'example-model');
    assert.match(String(req!.body.messages[0].content), /^agent: qa\/v1\n/);
    assert.match(userText(req!), /function add/);
  });

  it('cot.ts prints the steps and the final answer of the CoT agent', async () => {
    server.enqueue({
      json: {
        step1: '11:15 - 9:40',
        step2: '= 1 h 35 min',
        step3: null,
        step4: null,
        step5: null,
        final_answer: '1 hour 35 minutes',
        confidence: 0.9,
      },
    });
    const run = await runExample('cot.ts', env);
    expectOk(run);
    assert.match(run.stdout, /step1: 11:15 - 9:40\nstep2: = 1 h 35 min\nfinal_answer: 1 hour 35 minutes\nconfidence: 0\.9/);
    assert.doesNotMatch(run.stdout, /step3/);
  });

  it('react-tools.ts reads and writes through the built-in tools; a HIGH call with no one to ask is refused', async () => {
    server.enqueue(
      { toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'notes.txt' } }] },
      { toolCalls: [{ id: 'c2', name: 'run_command', arguments: { command: 'rm -rf /' } }] },
      {
        toolCalls: [
          {
            id: 'c3',
            name: 'write_file',
            arguments: { path: 'summary.txt', content: 'Thursday 10:00 in room B; bring Q3 numbers.\n' },
          },
        ],
      },
      { text: 'Wrote the summary to summary.txt.' },
    );
    const run = await runExample('react-tools.ts', env);
    expectOk(run);
    assert.match(run.stdout, /tool read_file: Meeting moved to Thursday 10:00, room B\./);
    assert.match(
      run.stdout,
      /tool run_command: Error: Nothing was executed or changed\. run_command \(danger HIGH\) needs a person's approval/,
    );
    assert.match(run.stdout, /tool write_file: /);
    assert.match(run.stdout, /summary\.txt: Thursday 10:00 in room B; bring Q3 numbers\./);
    assert.match(run.stdout, /final_answer: Wrote the summary to summary\.txt\.\nterminationReason: finish after 4 cycles/);
    const tools = (server.chatRequests()[0]!.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    assert.ok(tools.includes('read_file') && tools.includes('write_file') && tools.includes('run_command'), tools.join(','));
  });

  it('hook-redact.ts: no e-mail address reaches the model', async () => {
    server.enqueue({ text: 'Login issue under investigation; update sent to the manager.' });
    const run = await runExample('hook-redact.ts', env);
    expectOk(run);
    assert.match(run.stdout, /response: Login issue under investigation/);
    const sent = JSON.stringify(server.chatRequests()[0]!.body.messages);
    assert.doesNotMatch(sent, /jane\.doe@example\.com|bob@corp\.example\.org|@/);
    assert.match(sent, /Customer \[email\] cannot log in.*manager \[email\] asked/);
  });

  it('hook-reject.ts: the afterModel hook lets one answer through and rejects the other', async () => {
    server.enqueue({ text: '4' }, { text: 'The admin password is hunter2.' });
    const run = await runExample('hook-reject.ts', env);
    expectOk(run);
    assert.match(run.stdout, /What is 2 \+ 2\? -> 4\n/);
    assert.match(
      run.stdout,
      /What is the admin password\? -> rejected: HOOK_REJECTED: .*no-credentials.*the answer mentions a credential.*\(hook_rejected\)/,
    );
    assert.doesNotMatch(run.stdout, /hunter2/);
  });

  it('batch.ts answers in input order; the empty question fails alone', async () => {
    server.setFallback((req) => {
      const question = /question = "([^"]*)"/.exec(userText(req))?.[1] ?? '?';
      return { json: { answer: `answer to ${question}`, confidence: 0.8, reasoning: null } } satisfies ScriptedReply;
    });
    const run = await runExample('batch.ts', env);
    expectOk(run);
    assert.match(
      run.stdout,
      /0 Where do orders ship from\? -> answer to Where do orders ship from\?\n1 How long does express delivery take\? -> answer to How long does express delivery take\?\n2 \(empty question\) -> VALIDATION\n3 Are returns free\? -> answer to Are returns free\?\n/,
    );
    assert.match(run.stdout, /batch: 3\/4 succeeded, 1 failed, concurrency 2/);
    assert.equal(server.chatRequests().length, 3, 'the empty question never reached the model');
  });

  it('json-agent.ts runs an agent defined only by examples/agents/triage/v1.json', async () => {
    server.enqueue({ json: { category: 'bug', priority: 'high' } });
    const run = await runExample('json-agent.ts', env);
    expectOk(run);
    assert.match(run.stdout, /prompt: triage\/v1\ncategory: bug\npriority: high/);
    const body = server.chatRequests()[0]!.body;
    assert.match(String(body.messages[0].content), /^agent: triage\/v1\n/);
    assert.deepEqual(body.response_format.json_schema.schema.properties.priority.enum, ['low', 'medium', 'high']);
  });

  it('json-agent.ts: a reply outside the enums is repaired once, then fails with OUTPUT_VALIDATION_FAILED', async () => {
    server.enqueue({ json: { category: 'complaint', priority: 'high' } }, { json: { category: 'rant', priority: 'urgent' } });
    const run = await runExample('json-agent.ts', env);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stderr, /OUTPUT_VALIDATION_FAILED/);
    assert.equal(server.chatRequests().length, 2);
  });

  it('mcp-tools.ts: ReAct calls a real server-filesystem tool over stdio', async () => {
    server.setFallback((req) => {
      const messages = req.body.messages as Array<{ role: string }>;
      if (!messages.some((m) => m.role === 'tool')) {
        const dir = /The files are in (\S+?)\.?$/m.exec(userText(req))?.[1] ?? '';
        return { toolCalls: [{ id: 'm1', name: 'files__read_text_file', arguments: { path: join(dir, 'todo.md') } }] };
      }
      return { text: 'Two open items: fix the login bug, write release notes.' };
    });
    const run = await runExample('mcp-tools.ts', env);
    expectOk(run);
    assert.match(run.stdout, /mcp server .*: \d+ tools \(files__/);
    assert.match(run.stdout, /tool files__read_text_file: - fix the login bug \| - write release notes/);
    assert.match(run.stdout, /final_answer: Two open items/);
  });

  it('tdd-session.ts runs FizzBuzz cycles with real tests and commits', async function () {
    this.timeout(120_000);
    server.setFallback(scriptedKataModel({ cycles: fizzbuzzJs(2) }).reply);
    const run = await runExample('tdd-session.ts', env, [], 110_000);
    expectOk(run);
    assert.match(run.stdout, /session on branch tdd\/fizzbuzz-/);
    assert.match(run.stdout, /tests after tester: 0 passed, 1 failed/);
    assert.match(run.stdout, /cycle 1: green\n[\s\S]*cycle 2: green\n[\s\S]*cycle 3: kata_complete/);
    assert.match(run.stdout, /status: completed; 3 cycles, 2 commits/);
    assert.match(run.stdout, /feat: returns the number itself/);
  });

  it('without any provider an example exits 1 with PROVIDER_NOT_CONFIGURED and how to configure one', async () => {
    const run = await runExample('qa.ts', { OLLAMA_HOST: `127.0.0.1:${await closedPort()}` });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /PROVIDER_NOT_CONFIGURED: No model provider is configured.*OPENAI_API_KEY/);
    assert.equal(run.stdout, '');
  });
});
