import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Deadlines, type Expiring } from '../../../src/core/tools/callDeadlines';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function item(name: string, log: string[]): Expiring {
  return { expire: () => log.push(name) };
}

describe('tool calls: deadlines on one shared timer', () => {
  it('expires each item once at its own deadline, earliest first; a deleted item never expires', async () => {
    const deadlines = new Deadlines();
    const log: string[] = [];
    const late = item('late', log);
    const early = item('early', log);
    const gone = item('gone', log);
    deadlines.add(late, 120); // armed for this one first
    deadlines.add(early, 20); // earlier: the timer is re-armed for it
    deadlines.add(gone, 40);
    deadlines.delete(gone);
    await sleep(70);
    assert.deepEqual(log, ['early'], 'only the earliest has expired so far');
    assert.equal(deadlines.size, 1);
    await sleep(120);
    assert.deepEqual(log, ['early', 'late'], 'the timer re-armed itself for the later one');
    assert.equal(deadlines.size, 0);
  });

  it('an item added after the timer was armed for a later one still expires on time', async () => {
    const deadlines = new Deadlines();
    const log: string[] = [];
    deadlines.add(item('a', log), 60_000);
    deadlines.add(item('b', log), 15);
    await sleep(80);
    assert.deepEqual(log, ['b']);
  });

  it('holds the process open while an item waits and not after (real node processes)', async () => {
    const run = promisify(execFile);
    const module = join(__dirname, '../../../src/core/tools/callDeadlines.ts');
    const script = (body: string) =>
      `const { Deadlines } = require(${JSON.stringify(module)}); const d = new Deadlines(); const t0 = Date.now(); ${body}`;
    // Deleted before its 60 s deadline: the process exits at once.
    const started = Date.now();
    await run(process.execPath, ['--import', 'tsx', '-e', script(`const it = { expire() {} }; d.add(it, 60000); d.delete(it);`)]);
    assert.ok(Date.now() - started < 30_000, 'the process did not wait for the deleted deadline');
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
