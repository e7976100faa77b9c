import { strict as assert } from 'node:assert';
import { recordedStatus } from '../../../../src/core/tdd/session';
import { RECORDED_SESSION_STATUSES, SESSION_STATUSES } from '../../../../src/core/vocabulary';

describe('recordedStatus: how a session record reads to a person (the one definition of "interrupted")', () => {
  const record = (status: 'running' | 'cancelled', pid?: number) => ({ id: 's-1', running: false, state: { status, pid } });

  it('a running record is running while its process lives elsewhere or this process runs it, otherwise interrupted', () => {
    assert.equal(recordedStatus({ ...record('running', 4242), running: true }), 'running');
    assert.equal(
      recordedStatus(record('running', 4242), () => true, 4242),
      'running',
    );
    assert.equal(
      recordedStatus(record('running', 4242), () => false, 4242),
      'interrupted',
    );
    assert.equal(
      recordedStatus(record('running', 1), () => true, 4242),
      'interrupted',
      'another, dead process',
    );
    assert.equal(recordedStatus(record('running', 4242)), 'interrupted', 'the CLI runs no session: a dead one is interrupted');
  });

  it('a finished record reads as the status it ended with', () => {
    assert.equal(
      recordedStatus(record('cancelled', 4242), () => true, 4242),
      'cancelled',
    );
  });

  it('the recorded statuses are the session statuses and interrupted, nothing retyped', () => {
    assert.deepEqual([...RECORDED_SESSION_STATUSES], [...SESSION_STATUSES, 'interrupted']);
  });
});
