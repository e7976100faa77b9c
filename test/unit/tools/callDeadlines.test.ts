import assert from 'node:assert/strict';
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
});
