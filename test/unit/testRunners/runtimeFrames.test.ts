import { strict as assert } from 'node:assert';
import { withoutRuntimeFrames } from '../../../src/core/testRunners/runtimeFrames';

describe('withoutRuntimeFrames: test output as the model gets it', () => {
  it("counts node:test's runtime frames in a YAML stack and keeps the workspace's own frame", () => {
    const out = [
      '  stack: |-',
      '    TestContext.<anonymous> (file://./test/fizzbuzz.test.js:10:10)',
      '    Test.runInAsyncScope (node:async_hooks:206:9)',
      '    Test.run (node:internal/test_runner/test:796:25)',
      '    async Test.processPendingSubtests (node:internal/test_runner/test:526:7)',
      '  ...',
    ].join('\n');
    assert.equal(
      withoutRuntimeFrames(out),
      ['  stack: |-', '    TestContext.<anonymous> (file://./test/fizzbuzz.test.js:10:10)', '    (3 Node.js runtime frames left out)', '  ...'].join('\n'),
    );
  });

  it('counts `at` frames in TAP comments, keeps the source location header, the message and other lines', () => {
    const out = [
      '# node:internal/modules/esm/resolve:283',
      "# Error [ERR_MODULE_NOT_FOUND]: Cannot find module './src/fizzbuzz.js'",
      '#     at finalizeResolution (node:internal/modules/esm/resolve:283:11)',
      '#     at node:internal/main/run_main_module:28:49 {',
      "#   code: 'ERR_MODULE_NOT_FOUND',",
      '    at add (/work/src/add.js:3:9)',
    ].join('\n');
    assert.equal(
      withoutRuntimeFrames(out),
      [
        '# node:internal/modules/esm/resolve:283',
        "# Error [ERR_MODULE_NOT_FOUND]: Cannot find module './src/fizzbuzz.js'",
        '#     (2 Node.js runtime frames left out) {',
        "#   code: 'ERR_MODULE_NOT_FOUND',",
        '    at add (/work/src/add.js:3:9)',
      ].join('\n'),
    );
  });

  it('leaves output without runtime frames as it is', () => {
    const pytest = 'E   assert 1 == 2\ntests/test_fizzbuzz.py:4: AssertionError\n1 failed in 0.02s';
    assert.equal(withoutRuntimeFrames(pytest), pytest);
  });
});
