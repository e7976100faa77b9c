import { strict as assert } from 'node:assert';
import { fizzbuzzJs, JS_SOURCE_PATH } from '../../support/fizzbuzzPlans';
import type { RecordedRequest } from '../../support/openaiServer';
import { scriptedKataModel } from '../../support/scriptedKataModel';
import { expectOk, runExample, userText, useExampleServer } from './exampleRunner';

/** The text of a request's system message (its first line names the agent: `agent: reviewer/v1`). */
function systemText(req: RecordedRequest): string {
  const messages = (req.body as { messages?: Array<{ role: string; content: unknown }> } | undefined)?.messages ?? [];
  const system = messages.find((m) => m.role === 'system');
  return typeof system?.content === 'string' ? system.content : '';
}

describe('examples of new phases and role rules (docs/extending.md) against the loopback OpenAI server', function () {
  this.timeout(120_000);
  const { server, env } = useExampleServer();

  it('reviewer-phase.ts: the Reviewer comments on the Refactorer’s diff after cycle 3, and changes nothing', async function () {
    // Four cycles test every example the bundled kata states, so the Tester's KATA_COMPLETE is taken (issue 35).
    const model = scriptedKataModel({ cycles: fizzbuzzJs(4) });
    server().setFallback((req) =>
      systemText(req).startsWith('agent: reviewer/v1')
        ? { text: 'LGTM: the named divisibility check reads well' }
        : model.reply(req),
    );
    const run = await runExample('reviewer-phase.ts', { ...env(), MAX_CYCLES: '5' }, [], { timeoutMs: 110_000 });
    expectOk(run);
    assert.match(run.stdout, /cycle 3: green/);
    assert.match(run.stdout, /commit refactor: name the divisibility check/);
    // Once, after the only refactor commit (cycles 1 and 2 had no refactoring to review).
    assert.deepEqual(run.stdout.match(/review of cycle \d+: .*/g), [
      'review of cycle 3: LGTM: the named divisibility check reads well',
    ]);
    assert.match(run.stdout, /status: completed; 5 cycles, 5 commits/);
    const reviews = server().requests.filter((r) => systemText(r).startsWith('agent: reviewer/v1'));
    assert.equal(reviews.length, 1);
    const context = userText(reviews[0]!);
    assert.match(context, /# The Refactorer's diff\n```diff\ndiff --git a\/src\/fizzbuzz\.js b\/src\/fizzbuzz\.js/);
    const offered = (reviews[0]!.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name).sort();
    assert.deepEqual(offered, ['list_files', 'read_file']);
  });

  it('role-rule-hook.ts: the team’s hook refuses the Implementer’s console.log before it is written; the next attempt goes green', async function () {
    const model = scriptedKataModel({
      cycles: fizzbuzzJs(4, { refactor: false }),
      overrides: {
        'implementer:1:1': {
          writes: [
            { path: JS_SOURCE_PATH, content: `export function fizzbuzz(n) {\n  console.log(n);\n  return String(n);\n}\n` },
          ],
          report: 'return the number, and log it',
        },
      },
    });
    server().setFallback(model.reply);
    const run = await runExample('role-rule-hook.ts', { ...env(), MAX_CYCLES: '5' }, [], { timeoutMs: 110_000 });
    expectOk(run);
    assert.match(
      run.stdout,
      /refused write_file of the implementer: Error: refused by the role rules, nothing was changed: src\/fizzbuzz\.js: production code must not call console\.log/,
    );
    assert.deepEqual(
      model.played.filter((t) => t.role === 'implementer' && t.cycle === 1).map((t) => t.attempt),
      [1, 2],
    );
    assert.match(run.stdout, /cycle 1: green\n[\s\S]*cycle 2: green\n[\s\S]*cycle 4: green\n[\s\S]*cycle 5: kata_complete/);
    assert.match(run.stdout, /status: completed; 5 cycles, 4 commits/);
  });
});
