import { strict as assert } from 'node:assert';
import { fizzbuzzJs } from '../../support/fizzbuzzPlans';
import { scriptedKataModel } from '../../support/scriptedKataModel';
import { expectOk, runExample, useExampleServer } from './exampleRunner';

describe('examples/tdd-session.ts against the loopback OpenAI server', function () {
  this.timeout(90_000);
  const { server, env } = useExampleServer();

  it('tdd-session.ts runs FizzBuzz cycles with real tests and commits', async function () {
    this.timeout(120_000);
    // Four cycles test every example the bundled kata states, so the Tester's KATA_COMPLETE is taken (issue 35).
    server().setFallback(scriptedKataModel({ cycles: fizzbuzzJs(4, { refactor: false }) }).reply);
    const run = await runExample('tdd-session.ts', { ...env(), MAX_CYCLES: '5' }, [], { timeoutMs: 110_000 });
    expectOk(run);
    assert.match(run.stdout, /session on branch tdd\/fizzbuzz-/);
    assert.match(run.stdout, /tests after tester: 0 passed, 1 failed/);
    assert.match(run.stdout, /cycle 1: green\n[\s\S]*cycle 2: green\n[\s\S]*cycle 4: green\n[\s\S]*cycle 5: kata_complete/);
    assert.match(run.stdout, /status: completed; 5 cycles, 4 commits/);
    assert.match(run.stdout, /feat: returns the number itself/);
  });
});
