/** runProcess with real child processes: groups killed whole, output capped, abort, stdin, a scrubbed environment. */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from '../../../src/core/process/runProcess';

describe('runProcess', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'runproc-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('captures stdout, stderr and the exit code without rejecting', async () => {
    const r = await runProcess({ cwd: dir, command: 'sh', args: ['-c', 'echo out; echo err 1>&2; exit 3'] });
    assert.equal(r.exitCode, 3);
    assert.equal(r.stdout, 'out\n');
    assert.equal(r.stderr, 'err\n');
    assert.match(r.output, /out/);
    assert.equal(r.timedOut, false);
  });

  it('kills the whole process group on timeout, grandchildren included', async () => {
    const marker = join(dir, 'grandchild-alive');
    // The grandchild would write the marker after 1.5 s if it survived the group kill.
    const r = await runProcess({
      cwd: dir,
      command: `(sleep 1.5; touch ${marker}) & while true; do :; done`,
      shell: true,
      timeoutMs: 300,
    });
    assert.equal(r.timedOut, true);
    await new Promise((res) => setTimeout(res, 2000));
    const { existsSync } = await import('node:fs');
    assert.equal(existsSync(marker), false, 'grandchild outlived the timeout');
  });

  it('caps huge output with a visible marker', async () => {
    const r = await runProcess({
      cwd: dir,
      command: 'sh',
      args: ['-c', 'head -c 50000000 /dev/zero | tr "\\0" x'],
      maxOutputBytes: 64 * 1024,
    });
    assert.equal(r.truncated, true);
    assert.ok(r.stdout.length < 70 * 1024);
    assert.match(r.stdout, /output truncated at 65536 bytes/);
  });

  it('stops on abort and reports cancellation', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const r = await runProcess({ cwd: dir, command: 'sleep', args: ['30'], signal: ac.signal });
    assert.equal(r.cancelled, true);
  });

  it('reports a command that cannot start instead of throwing', async () => {
    const r = await runProcess({ cwd: dir, command: 'definitely-not-a-command-xyz' });
    assert.ok(r.spawnError);
    assert.equal(r.exitCode, null);
  });

  it('passes stdin and never hands credentials to the child', async () => {
    const r = await runProcess({
      cwd: dir,
      command: 'sh',
      args: ['-c', 'cat; echo "[$OPENAI_API_KEY][$GITHUB_TOKEN][$PATH_OK]"'],
      env: { ...process.env, OPENAI_API_KEY: 'sk-test-should-not-leak', GITHUB_TOKEN: 'ghp_x', PATH_OK: 'yes' },
      input: 'hello ',
    });
    assert.equal(r.stdout, 'hello [][][yes]\n');
  });
});
