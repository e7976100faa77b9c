// `npm test` (under c8): every unit and integration test, in parallel. See CONTRIBUTING's test tiers.
const { availableParallelism } = require('node:os');
const { testFiles } = require('./test/support/testFiles.cjs');

module.exports = {
  'node-option': ['import=tsx'],
  extension: ['ts'],
  spec: testFiles(['integration', 'unit']),
  parallel: true,
  // Most of a test's time is spent waiting on git, test runners and the sandbox: twice the cores (at most 4).
  jobs: Number(process.env.TEST_JOBS) || Math.min(4, Math.max(2, 2 * availableParallelism())),
  timeout: 60000,
  reporter: 'spec',
  exit: true,
  // testBuilds.ts builds dist/cli.js and the example programs once, before the workers start (its mochaGlobalSetup).
  require: ['test/support/isolatedCache.ts', 'test/support/testBuilds.ts'],
};
