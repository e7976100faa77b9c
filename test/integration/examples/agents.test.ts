import { strict as assert } from 'node:assert';
import { closedPort } from '../../support/deadEndpoints';
import type { ScriptedReply } from '../../support/openaiServer';
import { expectOk, runExample, useExampleServer, userText } from './exampleRunner';

describe('examples/ that ask single-shot agents (QA, CoT, hooks, batch, a JSON-defined agent), against the loopback OpenAI server', function () {
  this.timeout(90_000);
  const { server, env } = useExampleServer();

  it('qa.ts answers a question with the QA agent (run as the README says: node --import tsx)', async () => {
    server().enqueue({ json: { answer: 'It returns the sum of a and b.', confidence: 1.4, reasoning: 'return a + b' } });
    const run = await runExample('qa.ts', env(), ['What does add return?'], { viaTsx: true });
    expectOk(run);
    assert.match(run.stdout, /answer: It returns the sum of a and b\./);
    assert.match(run.stdout, /confidence: 1\n/, 'confidence is clamped to 0..1');
    const [req] = server().chatRequests();
    assert.equal(req!.body.model, 'example-model');
    assert.match(String(req!.body.messages[0].content), /^agent: qa\/v1\n/);
    assert.match(userText(req!), /function add/);
  });

  it('cot.ts prints the steps and the final answer of the CoT agent', async () => {
    server().enqueue({
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
    const run = await runExample('cot.ts', env());
    expectOk(run);
    assert.match(run.stdout, /step1: 11:15 - 9:40\nstep2: = 1 h 35 min\nfinal_answer: 1 hour 35 minutes\nconfidence: 0\.9/);
    assert.doesNotMatch(run.stdout, /step3/);
  });

  it('hook-redact.ts: no e-mail address reaches the model', async () => {
    server().enqueue({ text: 'Login issue under investigation; update sent to the manager.' });
    const run = await runExample('hook-redact.ts', env());
    expectOk(run);
    assert.match(run.stdout, /response: Login issue under investigation/);
    const sent = JSON.stringify(server().chatRequests()[0]!.body.messages);
    assert.doesNotMatch(sent, /jane\.doe@example\.com|bob@corp\.example\.org|@/);
    assert.match(sent, /Customer \[email\] cannot log in.*manager \[email\] asked/);
  });

  it('hook-reject.ts: the afterModel hook lets one answer through and rejects the other', async () => {
    server().enqueue({ text: '4' }, { text: 'The admin password is hunter2.' });
    const run = await runExample('hook-reject.ts', env());
    expectOk(run);
    assert.match(run.stdout, /What is 2 \+ 2\? -> 4\n/);
    assert.match(
      run.stdout,
      /What is the admin password\? -> rejected: HOOK_REJECTED: .*no-credentials.*the answer mentions a credential.*\(hook_rejected\)/,
    );
    assert.doesNotMatch(run.stdout, /hunter2/);
  });

  it('batch.ts answers in input order; the empty question fails alone', async () => {
    server().setFallback((req) => {
      const question = /question = "([^"]*)"/.exec(userText(req))?.[1] ?? '?';
      return { json: { answer: `answer to ${question}`, confidence: 0.8, reasoning: null } } satisfies ScriptedReply;
    });
    const run = await runExample('batch.ts', env());
    expectOk(run);
    assert.match(
      run.stdout,
      /0 Where do orders ship from\? -> answer to Where do orders ship from\?\n1 How long does express delivery take\? -> answer to How long does express delivery take\?\n2 \(empty question\) -> VALIDATION\n3 Are returns free\? -> answer to Are returns free\?\n/,
    );
    assert.match(run.stdout, /batch: 3\/4 succeeded, 1 failed, concurrency 2/);
    assert.equal(server().chatRequests().length, 3, 'the empty question never reached the model');
  });

  it('json-agent.ts runs an agent defined only by examples/agents/triage/v1.json', async () => {
    server().enqueue({ json: { category: 'bug', priority: 'high' } });
    const run = await runExample('json-agent.ts', env());
    expectOk(run);
    assert.match(run.stdout, /prompt: triage\/v1\ncategory: bug\npriority: high/);
    const body = server().chatRequests()[0]!.body;
    assert.match(String(body.messages[0].content), /^agent: triage\/v1\n/);
    assert.deepEqual(body.response_format.json_schema.schema.properties.priority.enum, ['low', 'medium', 'high']);
  });

  it('json-agent.ts: a reply outside the enums is repaired once, then fails with OUTPUT_VALIDATION_FAILED', async () => {
    server().enqueue({ json: { category: 'complaint', priority: 'high' } }, { json: { category: 'rant', priority: 'urgent' } });
    const run = await runExample('json-agent.ts', env());
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stderr, /OUTPUT_VALIDATION_FAILED/);
    assert.equal(server().chatRequests().length, 2);
  });

  it('without any provider an example exits 1 with PROVIDER_NOT_CONFIGURED and how to configure one', async () => {
    const run = await runExample('qa.ts', { OLLAMA_HOST: `127.0.0.1:${await closedPort()}` });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /PROVIDER_NOT_CONFIGURED: No model provider is configured.*OPENAI_API_KEY/);
    assert.equal(run.stdout, '');
  });
});
