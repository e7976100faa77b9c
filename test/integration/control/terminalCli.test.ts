import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { withCoverage } from '../../support/workerCoverage';

const FIXTURE = join(__dirname, 'fixtures', 'terminalApproval.ts');

/** Runs the fixture CLI as a real child process with piped (non-TTY) stdin; optional typed input. */
function runCli(
  args: string[],
  typed?: string,
): Promise<{ code: number | null; answer: Record<string, string>; stderr: string }> {
  return new Promise((resolve, reject) => {
    // The fixture runs src/core's control protocol: its coverage counts.
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: withCoverage(),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      // Answer once the prompt is on stderr, like a person would.
      if (typed !== undefined && stderr.includes('> ')) {
        child.stdin.write(typed);
        typed = undefined;
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        resolve({ code, answer: JSON.parse(stdout.trim()), stderr });
      } catch {
        reject(new Error(`no JSON answer on stdout (${code}): ${stdout}\n${stderr}`));
      }
    });
  });
}

describe('TerminalTransport in a real CLI process', function () {
  this.timeout(20_000);

  it('with piped stdin and no --yes: denies at once with a reason, and the process exits', async () => {
    const { code, answer, stderr } = await runCli(['HIGH']);
    assert.equal(code, 0);
    assert.equal(answer.outcome, 'denied');
    assert.match(answer.reason!, /not an interactive terminal.*--yes=HIGH/);
    assert.match(stderr, /run_command \(HIGH\) denied/);
  });

  it('--yes=HIGH approves a HIGH call without reading stdin', async () => {
    const { answer, stderr } = await runCli(['HIGH', '--yes=HIGH']);
    assert.deepEqual([answer.outcome, answer.answeredBy], ['approved', 'terminal:--yes']);
    assert.match(stderr, /approved by --yes=HIGH/);
  });

  it('an interactive terminal shows the command line and takes the typed answer', async () => {
    const { answer, stderr } = await runCli(['MEDIUM', '--interactive'], 'y\n');
    assert.deepEqual([answer.outcome, answer.answeredBy], ['approved', 'terminal']);
    assert.match(stderr, /\| \$ npm test/);
  });
});
