import { strict as assert } from 'node:assert';
import { getEventListeners } from 'node:events';
import { settleOnce } from '../../../src/core/async/settleOnce';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
const abortListeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

/** A wait whose deadline and abort each settle it, noting which did in `calls`. */
function raceOf(timeoutMs: number) {
  const controller = new AbortController();
  const calls: string[] = [];
  const before = timers();
  const wait = settleOnce({
    timeoutMs,
    onTimeout: (w) => w.settle(() => calls.push('timeout')),
    signal: controller.signal,
    onAbort: (w) => w.settle(() => calls.push('abort')),
  });
  return { controller, calls, before, wait };
}

describe('settleOnce', () => {
  it('the deadline ends the wait once; the abort listener is gone and a later abort or settle does nothing', async () => {
    const { controller, calls, wait } = raceOf(5);
    assert.equal(abortListeners(controller.signal), 1);
    await pause(30);
    assert.deepEqual(calls, ['timeout']);
    assert.equal(wait.settled, true);
    assert.equal(abortListeners(controller.signal), 0);
    controller.abort();
    assert.equal(
      wait.settle(() => calls.push('work')),
      false,
    );
    assert.deepEqual(calls, ['timeout']);
  });

  it('an abort ends the wait once and clears the timer', async () => {
    const { controller, calls, before, wait } = raceOf(20);
    assert.equal(timers(), before + 1);
    controller.abort();
    controller.abort();
    assert.equal(timers(), before);
    assert.equal(abortListeners(controller.signal), 0);
    await pause(40);
    assert.deepEqual(calls, ['abort']);
    assert.equal(wait.settled, true);
  });

  it('an already aborted signal runs onAbort at once, before settleOnce returns, and arms no timer', () => {
    const controller = new AbortController();
    controller.abort();
    const calls: string[] = [];
    const before = timers();
    const wait = settleOnce({
      timeoutMs: 20,
      onTimeout: () => calls.push('timeout'),
      signal: controller.signal,
      onAbort: (w) => w.settle(() => calls.push('abort')),
    });
    assert.deepEqual(calls, ['abort']);
    assert.equal(wait.settled, true);
    assert.equal(timers(), before);
    assert.equal(abortListeners(controller.signal), 0);
  });

  it('the work settling first runs its own callback once, clears the timer and detaches from the signal', async () => {
    const { controller, calls, before, wait } = raceOf(20);
    assert.equal(wait.settled, false);
    assert.equal(
      wait.settle(() => calls.push('work')),
      true,
    );
    assert.equal(
      wait.settle(() => calls.push('work again')),
      false,
    );
    assert.equal(timers(), before);
    assert.equal(abortListeners(controller.signal), 0);
    controller.abort();
    await pause(40);
    assert.deepEqual(calls, ['work']);
  });

  it('a handler that does not settle leaves the rest armed: an abort after such a timeout still runs', async () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const wait = settleOnce({
      timeoutMs: 5,
      onTimeout: () => calls.push('timeout (kill)'),
      signal: controller.signal,
      onAbort: () => calls.push('abort (kill)'),
    });
    await pause(30);
    assert.equal(wait.settled, false);
    controller.abort();
    assert.deepEqual(calls, ['timeout (kill)', 'abort (kill)']);
    assert.equal(wait.settle(), true);
    assert.equal(abortListeners(controller.signal), 0);
  });

  it('with no deadline and no signal, only the work ends the wait', () => {
    const before = timers();
    const wait = settleOnce({});
    assert.equal(timers(), before);
    assert.equal(wait.settle(), true);
    assert.equal(wait.settle(), false);
  });
});
