// `npm test` (under c8): every unit and integration test, in parallel. See CONTRIBUTING's test tiers.
const { availableParallelism } = require('node:os');
const { testFiles } = require('./test/support/testFiles.cjs');

module.exports = {
  'node-option': ['import=tsx'],
  extension: ['ts'],
  spec: testFiles(['integration', 'unit']),
  parallel: true,
  // The suite is bound by CPU (CONTRIBUTING): one worker per core, and one more for the tests that wait on a
  // timeout. On 2 cores, 3 workers took 134-139 s where 4 took 143-151 s, in runs alternating with each other.
  jobs: Number(process.env.TEST_JOBS) || Math.min(8, availableParallelism() + 1),
  timeout: 60000,
  reporter: 'spec',
  exit: true,
  // testBuilds.ts builds dist/cli.js and the example programs once, before the workers start (its mochaGlobalSetup).
  // unitStartsNoProcess.ts fails a test under test/unit/ that starts a child process.
  require: ['test/support/isolatedCache.ts', 'test/support/testBuilds.ts', 'test/support/unitStartsNoProcess.ts'],
};
