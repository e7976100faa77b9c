import { strict as assert } from 'node:assert';
import { configArgs, driverOverrides, PROGRAM_OVERRIDES } from '../../../src/core/hostGit/gitConfigOverrides';

describe('git config overrides', () => {
  it('turns off every filter, diff and merge driver the config names, once each, keeping the driver name’s case and dots', () => {
    assert.deepEqual(
      driverOverrides([
        'core.bare',
        'diff.external',
        'diff.ignoresubmodules',
        'credential.https://example.com.helper',
        'filter.lfs.process',
        'filter.lfs.required',
        'filter.lfs.clean',
        'diff.Word.Doc.textconv',
        'merge.ours.driver',
        'merge.ours.name',
      ]),
      [
        'filter.lfs.clean=',
        'filter.lfs.smudge=',
        'filter.lfs.process=',
        'filter.lfs.required=false',
        'diff.Word.Doc.textconv=',
        'diff.Word.Doc.command=',
        'merge.ours.driver=',
      ],
    );
    assert.deepEqual(driverOverrides([]), []);
  });

  it('refuses a driver name that -c cannot express, rather than leave it running', () => {
    assert.throws(() => driverOverrides(['filter.a=b.clean']), /cannot be turned off/);
  });

  it('gives every setting as its own -c, hooks and fsmonitor first among the program overrides', () => {
    assert.deepEqual(configArgs(['a.b=1', 'c.d=']), ['-c', 'a.b=1', '-c', 'c.d=']);
    assert.ok(PROGRAM_OVERRIDES.includes('core.fsmonitor=false'));
    assert.match(PROGRAM_OVERRIDES[0]!, /^core\.hooksPath=/);
  });
});
