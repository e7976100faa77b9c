/** The shared deadline timer of tool calls in a real Node process: it keeps the process alive only while an item waits. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

describe('tool calls: deadlines on one shared timer, in a real node process', () => {
  it('holds the process open while an item waits and not after', async () => {
    const run = promisify(execFile);
    const module = join(__dirname, '../../../src/core/tools/callDeadlines.ts');
    const script = (body: string) =>
      `const { Deadlines } = require(${JSON.stringify(module)}); const d = new Deadlines(); const t0 = Date.now(); ${body}`;
    // Deleted before its 60 s deadline: the process exits on its own (one that waited for it is killed at 30 s, and
    // execFile rejects).
    await run(
      process.execPath,
      ['--import', 'tsx', '-e', script(`const it = { expire() {} }; d.add(it, 60000); d.delete(it);`)],
      {
        timeout: 30_000,
      },
    );
    // Waiting with nothing else to do: the process stays until the deadline and the item expires.
    const { stdout } = await run(process.execPath, [
      '--import',
      'tsx',
      '-e',
      script(
        `d.add({ expire() { console.log('expired after', Date.now() - t0 >= 290 ? 'the deadline' : 'too early'); } }, 300);`,
      ),
    ]);
    assert.equal(stdout.trim(), 'expired after the deadline');
  });
});
