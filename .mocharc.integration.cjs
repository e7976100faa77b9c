// `npm run test:integration`: the integration tier alone, in parallel, no coverage.
module.exports = { ...require('./.mocharc.cjs'), spec: require('./test/support/testFiles.cjs').testFiles(['integration']) };
