// The test files of each tier, in the order a `--parallel` run should start them, each once.
//
// Mocha's parallel mode sends every file its globs match to a worker, duplicates included (a serial run
// hides them: a file is only loaded once), and a run lasts at least as long as its slowest file. So the
// files that take longest (measured with a per-file timing reporter; see CONTRIBUTING) are listed first and
// start first, and the short ones fill the workers at the end. A file not listed here runs after them.
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..', '..');

/** Slowest first: real kata sessions in Python, example programs, npm pack, CLI processes, JS sessions. */
const SLOW_FIRST = [
  'test/integration/supervisor/pythonKatas.test.ts',
  'test/integration/examples/tddSession.test.ts',
  'test/integration/examples/agents.test.ts',
  'test/integration/examples/tools.test.ts',
  'test/integration/package/packedLibrary.test.ts',
  'test/integration/cli/signals.test.ts',
  'test/integration/supervisor/happyPath.test.ts',
  'test/integration/supervisor/personWorkUntouched.test.ts',
  'test/integration/control/terminalCli.test.ts',
  'test/integration/cli/preflight.test.ts',
  'test/integration/supervisor/roleBoundaries.test.ts',
  'test/integration/cli/cli.test.ts',
  'test/integration/vscode/repositorySessions.test.ts',
];

function walk(dir) {
  return readdirSync(join(ROOT, dir), { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory() ? walk(`${dir}/${entry.name}`) : entry.name.endsWith('.test.ts') ? [`${dir}/${entry.name}`] : [],
    )
    .sort();
}

/** Every `*.test.ts` under `test/<tier>/` for the given tiers, slow files first, no file twice. */
function testFiles(tiers) {
  const all = tiers.flatMap((tier) => walk(`test/${tier}`));
  const slow = SLOW_FIRST.filter((file) => all.includes(file));
  return [...slow, ...all.filter((file) => !slow.includes(file))];
}

module.exports = { testFiles };
