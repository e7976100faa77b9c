import assert from 'node:assert/strict';
import { UsageError } from '../../../src/cli/cliIo';
import { SANDBOX_OFF_FLAG, SANDBOX_USAGE, sandboxFlag } from '../../../src/cli/sandboxFlag';
import { SANDBOX_MODES } from '../../../src/core';

describe('--sandbox: the core’s sandbox modes on the command line', () => {
  it('takes each of the core’s modes, auto when not given; another word is a usage error naming them', () => {
    for (const mode of SANDBOX_MODES) assert.equal(sandboxFlag(mode), mode);
    assert.equal(sandboxFlag(undefined), 'auto');
    assert.throws(
      () => sandboxFlag('maybe'),
      (err) => err instanceof UsageError && err.message === "--sandbox takes auto or off, got 'maybe'.",
    );
  });

  it('the help lists every mode with what it means; the way out names a mode there is', () => {
    for (const mode of SANDBOX_MODES) assert.match(SANDBOX_USAGE, new RegExp(`(MODE {9}|\\| )${mode} \\(`));
    assert.match(SANDBOX_USAGE, /auto \(default: refuse to run without an OS sandbox\)/);
    assert.equal(SANDBOX_OFF_FLAG, '--sandbox=off');
  });
});
