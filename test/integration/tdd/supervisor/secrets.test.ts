import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAIClient } from '../../../../src/core/llm';
import { SessionSummarySchema, type SessionSummary } from '../../../../src/core/tdd/sessionSummary';
import { fizzbuzzJs } from '../../../support/fizzbuzzPlans';
import { scriptedKataModel } from '../../../support/scriptedKataModel';
import { runWithReply, savedSession, SessionHarness } from './sessionHarness';

/** A key that does not look like `sk-…`, so only its registration (not a pattern) can hide it. */
const API_KEY = 'tdd-secret-Q7xW9pLm2ZrT4vKc';

describe('TDD supervisor: the API key never leaks', function () {
  this.timeout(120_000);
  const h = new SessionHarness({ wire: true }); // about what reaches the network: the loopback server
  let markers = '';
  const savedEnv = process.env.OPENAI_API_KEY;
  beforeEach(async () => {
    await h.setUp();
    markers = await mkdtemp(join(tmpdir(), 'tdd-gate-'));
    process.env.OPENAI_API_KEY = API_KEY;
  });
  afterEach(async () => {
    if (savedEnv === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = savedEnv;
    await rm(markers, { recursive: true, force: true });
    await h.cleanup();
  });

  /** Everything the session leaves behind for people to read: its record, every commit message, the events, the summary. */
  async function leftovers(events: unknown[], summary: SessionSummary): Promise<Record<string, string>> {
    return {
      record: JSON.stringify(await savedSession(h.workspace, summary)),
      commits: await h.git().raw(['log', '--all', '--format=%H%n%B']),
      events: JSON.stringify(events),
      summary: JSON.stringify(summary),
    };
  }

  it('keeps it out of session.json, commit messages, events and the summary when the model repeats it', async () => {
    const llm = createOpenAIClient({ baseURL: h.wireServer!.baseURL, apiKey: API_KEY, maxRetries: 0 });
    const cycles = fizzbuzzJs(1);
    cycles[0]!.tester.report = `returns the number itself (key ${API_KEY})`;
    cycles[0]!.implementer.report = `return String(n); I used ${API_KEY} to call the API`;
    // A gate that fails once printing the key, from its environment (scrubbed) and from a config file of the
    // person's (as a misconfigured tool might): its output goes to an event and to the implementer's hint.
    const marker = join(markers, 'ran');
    const keyFile = join(markers, 'openai-key');
    await writeFile(keyFile, API_KEY);
    const gate = `node -e "const fs = require('fs'); if (!fs.existsSync('${marker}')) { fs.writeFileSync('${marker}', ''); console.log('key=' + process.env.OPENAI_API_KEY + ' file=' + fs.readFileSync('${keyFile}', 'utf8')); process.exit(1); }"`;
    const model = scriptedKataModel({ cycles });
    // Unsandboxed on purpose: the sandbox would hide the key file from the gate; redaction is checked on its own here.
    const { summary, events } = await runWithReply(h, model.reply, { llm, qualityGates: [gate], sandbox: 'off' });

    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    SessionSummarySchema.parse(summary);
    // The key did reach the places under test (so their redaction is what is checked).
    assert.ok(
      events.some((e) => e.type === 'quality_gate_failed' && /key=undefined file=\[REDACTED\]/.test(e.output)),
      JSON.stringify(events.filter((e) => e.type === 'quality_gate_failed')),
    );
    assert.ok(
      h.wireServer!.chatRequests().every((r) => r.headers.authorization === `Bearer ${API_KEY}`),
      'the model server did get the key',
    );
    for (const [where, text] of Object.entries(await leftovers(events, summary))) {
      assert.ok(
        !text.includes(API_KEY),
        `the API key appears in ${where}: ${where === 'events' ? JSON.stringify(JSON.parse(text).filter((e: unknown) => JSON.stringify(e).includes(API_KEY))) : ''}`,
      );
    }
    assert.match(await h.git().raw(['log', '-1', '--format=%B', summary.cycles[0]!.commit!]), /\[REDACTED\]/);
  });

  it('keeps it out of the error when the provider rejects the key and echoes it back', async () => {
    const llm = createOpenAIClient({ baseURL: h.wireServer!.baseURL, apiKey: API_KEY, maxRetries: 0 });
    const { summary, events } = await runWithReply(
      h,
      () => ({
        error: {
          status: 401,
          code: 'invalid_api_key',
          message: `Incorrect API key provided: ${API_KEY}. You can find your API key at https://example.invalid/keys.`,
        },
      }),
      { llm },
    );

    assert.equal(summary.status, 'failed');
    SessionSummarySchema.parse(summary);
    assert.ok(summary.error, 'the summary says what went wrong');
    assert.ok(events.some((e) => e.type === 'error'));
    for (const [where, text] of Object.entries(await leftovers(events, summary))) {
      assert.ok(!text.includes(API_KEY), `the API key appears in ${where}: ${text.slice(0, 2000)}`);
    }
  });
});
