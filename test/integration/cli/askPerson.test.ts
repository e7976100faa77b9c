import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import type { CliIo } from '../../../src/cli/cliIo';
import { runCli } from '../../../src/cli/runCli';
import { FIZZBUZZ_WITHOUT_EXAMPLES, fizzbuzzJs } from '../../support/fizzbuzzPlans';
import { scriptedKataModel } from '../../support/scriptedKataModel';
import { cli, isolatedEnv, kataArgs, useCliSession } from './cliHarness';

const QUESTION = 'Should fizzbuzz(0) return "FizzBuzz" or "0"?';

/** FizzBuzz, one cycle, the Tester asking the person first. */
function script() {
  const cycles = fizzbuzzJs(1);
  cycles[0]!.tester = { ...cycles[0]!.tester, ask: QUESTION };
  return scriptedKataModel({ cycles }).reply;
}

/**
 * `ask_person` on the command line (issue 24): in a terminal the Tester's question is a prompt and the typed line is
 * the answer; with no terminal (CI, a pipe) the role is told no one is there and the session goes on.
 */
describe('tdd-agent kata: a role asks the person in the terminal', function () {
  this.timeout(120_000);
  const session = useCliSession('cli-ask-');

  it('in a terminal: the question is a prompt, the typed line goes back to the Tester', async () => {
    session.server.setFallback(script());
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    let err = '';
    stderr.on('data', (d) => {
      err += String(d);
      // The person types the answer once the prompt is shown.
      if (err.includes(`? The Tester asks: ${QUESTION}`) && !stdin.writableEnded) stdin.end('start at 1, never 0\n');
    });
    const io: CliIo = { stdout, stderr, stdin, env: isolatedEnv(), signal: new AbortController().signal };
    const code = await runCli(
      [...kataArgs(FIZZBUZZ_WITHOUT_EXAMPLES, session.dir, session.server.baseURL), '--yes', '--max-cycles', '2'],
      io,
    );
    assert.equal(code, 0, err);
    assert.match(err, /tester asked: Should fizzbuzz\(0\)[^\n]*\n\s+answer \(terminal\): start at 1, never 0/);
    const toolMessages = session.server
      .chatRequests()
      .flatMap((r) => r.body.messages as Array<{ role: string; content: string }>)
      .filter((m) => m.role === 'tool');
    assert.ok(toolMessages.some((m) => m.content === 'The person answered: start at 1, never 0'));
  });

  it('without a terminal (--yes in CI): the Tester is told no one is there and goes on', async () => {
    session.server.setFallback(script());
    const r = await cli(
      [...kataArgs(FIZZBUZZ_WITHOUT_EXAMPLES, session.dir, session.server.baseURL), '--yes', '--max-cycles', '2'],
      isolatedEnv(),
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /no one can answer here: continuing without an answer/);
    assert.match(r.stderr, /tester asked: .*\n\s+no answer \(no one can answer here\): the tester decides by itself/);
  });
});
