// The test files of each tier, in the order a `--parallel` run should start them, each once.
//
// Mocha's parallel mode sends every file its globs match to a worker, duplicates included (a serial run
// hides them: a file is only loaded once), and a run lasts at least as long as its slowest file. So the
// files that take longest are listed first and start first (longest-first scheduling), and the short ones fill
// the workers at the end. A file not listed here runs after them.
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..', '..');

/**
 * Slowest first, by the wall time of each file run alone on the 2-core machine (29 s down to 5 s; each file with
 * `npx mocha --no-config --node-option import=tsx --require test/support/isolatedCache.ts <file>`): the packed
 * library, real kata sessions, CLI processes, example programs. Files under 5 s follow in name order.
 */
const SLOW_FIRST = [
  'test/integration/tdd/supervisor/javaKatas.test.ts', // ~7 min: two Java kata sessions and a disciplined one, real mvn in the sandbox (two JVMs a run)
  'test/integration/cli/eval.test.ts', // ~60 s: three evals of two sessions each, a Ctrl-C and a replay
  'test/integration/cli/evalWholeSet.test.ts', // ~25 s: three evals of three bundled katas each
  'test/integration/cli/evalGo.test.ts', // ~2 min: two evals of three katas in Go, real go test in the sandbox (cold build caches)
  'test/integration/cli/evalRuby.test.ts', // ~50 s: two evals of three katas in Ruby, real rspec in the sandbox
  'test/integration/cli/evalPhp.test.ts', // two evals of three katas in PHP, real phpunit in the sandbox
  'test/integration/cli/evalRust.test.ts', // ~90 s: two evals of three katas in Rust, real cargo in the sandbox (cold builds)
  'test/integration/cli/evalJava.test.ts', // ~5 min: two evals of three katas in Java, real mvn and Surefire in the sandbox (a JVM or two a run)
  'test/integration/cli/evalShards.test.ts', // ~5 min alone: one eval of four runs three ways (whole, 3 shards, stopped and resumed)
  'test/integration/project/ownProjectTask.test.ts',
  // Issue 34's projects as the person has them (each a built-CLI session, then its two commits' tests in fresh clones;
  // the first run on a machine installs pnpm, Yarn and the fixtures once): ~30-60 s each once the sessions pass.
  'test/integration/project/pytestWithoutVenv.test.ts',
  'test/integration/project/yarnVitestTypecheck.test.ts',
  'test/integration/project/hatchVcsVersionFile.test.ts',
  'test/integration/project/pnpmWorkspacePackage.test.ts',
  'test/integration/project/goModule.test.ts', // issue 38: a built-CLI Go session (~40 s, a cold build cache first), two fresh clones
  'test/integration/project/rustCrate.test.ts', // issue 38: a built-CLI Rust session (~60 s, cold cargo builds), two fresh clones
  'test/integration/project/rubyGem.test.ts', // issue 38: a built-CLI Ruby session (~20 s), two fresh clones
  'test/integration/project/phpComposer.test.ts', // issue 38: a built-CLI PHP session (~20 s), two fresh clones
  'test/integration/project/javaMaven.test.ts', // issue 38: a built-CLI Java session (~90 s, mvn in the sandbox each run), two fresh clones
  'test/integration/project/uvuColors.test.ts', // a built-CLI uvu session (~17 s, npm ci once per machine), two fresh clones
  'test/integration/project/editedFileWhole.test.ts', // issue 35: two built-CLI sessions (node --test, pytest), ~30-50 s each
  'test/integration/cli/verdicts.test.ts', // ~2.5 min: four built-CLI sessions of clumsy players (issue 35), one of six cycles
  'test/integration/cli/hostileWorktree.test.ts',
  'test/integration/package/packedLibrary.test.ts',
  'test/integration/tdd/supervisor/pythonKatas.test.ts',
  'test/integration/tdd/supervisor/goKatas.test.ts', // ~85 s: two Go kata sessions, real go test in the sandbox (a cold build cache first)
  'test/integration/tdd/supervisor/goDiscipline.test.ts', // ~20 s: a Go session with an overshoot and a caught Implementer
  'test/integration/tdd/supervisor/rustKatas.test.ts', // ~110 s: three Rust kata sessions, real cargo test in the sandbox (a cold build each)
  'test/integration/testRunners/cargoTestRuns.test.ts', // ~20 s: cargo test in the sandbox, cold builds
  'test/integration/tdd/supervisor/rubyKatas.test.ts', // ~60 s: two Ruby kata sessions and a disciplined one, real rspec in the sandbox
  'test/integration/tdd/supervisor/phpKatas.test.ts', // ~60 s: two PHP kata sessions and a disciplined one, real phpunit in the sandbox
  'test/integration/testRunners/mavenRuns.test.ts', // ~75 s: mvn in the sandbox, five runs of a cold JVM each
  'test/integration/testRunners/goTestRuns.test.ts', // ~25 s: go test in the sandbox with a cold build cache
  'test/integration/testRunners/rspecRuns.test.ts', // ~10 s: rspec in the sandbox, three runs and a gem under the hidden HOME
  'test/integration/testRunners/mavenHostile.test.ts', // ~45 s: a hostile Maven repository, three mvn runs in the sandbox
  'test/integration/tdd/supervisor/projectDependencies.test.ts', // ~35 s; the first run on a machine installs the fixtures too
  'test/integration/agentRuntime/batchAudit.test.ts',
  'test/integration/cli/cli.test.ts',
  'test/integration/cli/signals.test.ts',
  'test/integration/vscode/repositorySessions.test.ts',
  'test/integration/vscode/taskImportLine.test.ts', // ~25 s: a task session through the extension host's kata runner
  'test/integration/cli/mcpConfigAndTimeout.test.ts',
  'test/integration/tdd/supervisor/personWorkUntouched.test.ts',
  'test/integration/examples/agents.test.ts',
  'test/integration/evalKatas/acceptance.test.ts', // 50-70 s: 32 real node --test, 32 pytest and 30 go test runs (and 30 cargo test runs, ~80 s; two mvn runs of 15 classes, ~45 s)
  'test/integration/eval/sessionCheckoutRust.test.ts', // ~15 s: four cargo builds of a tiny crate in the sandbox
  'test/integration/tdd/supervisor/happyPath.test.ts',
  'test/integration/tdd/supervisor/clumsyFeedback.test.ts', // six two-cycle FizzBuzz sessions
  'test/integration/cli/clumsyPlayer.test.ts', // a built-CLI session of four cycles
  'test/integration/tdd/supervisor/toolCallsInText.test.ts', // four FizzBuzz sessions over the wire, ~40 s alone
  'test/integration/cli/preflight.test.ts',
  'test/integration/cli/task.test.ts',
  'test/integration/tdd/supervisor/hostileGeneratedTest.test.ts',
  'test/integration/tdd/supervisor/roleBoundaries.test.ts',
  'test/integration/tdd/supervisor/implementerRetries.test.ts',
  'test/integration/tdd/supervisor/qualityGates.test.ts',
  'test/integration/testRunners/realRunners.test.ts',
  'test/integration/testRunners/runnerReports.test.ts',
  'test/integration/agentRuntime/hooks.test.ts',
  'test/integration/tdd/supervisor/implementerContext.test.ts',
  'test/integration/tdd/supervisor/mcpServers.test.ts',
  'test/integration/tdd/supervisor/typescriptKata.test.ts',
  'test/integration/agentRuntime/repair.test.ts',
  'test/integration/tdd/supervisor/refactorRed.test.ts',
  'test/integration/examples/tddSession.test.ts',
  'test/integration/tdd/supervisor/infiniteLoop.test.ts',
  'test/integration/tdd/supervisor/secrets.test.ts',
  'test/integration/tdd/supervisor/roleMessages.test.ts',
  'test/integration/tdd/git/sessionWorktree.test.ts',
  'test/integration/tdd/supervisor/overshoot.test.ts',
  'test/integration/agentRuntime/extensionPoints.test.ts',
  'test/integration/tools/builtin/processTools.test.ts',
  'test/integration/builtinAgents/react.test.ts',
  'test/integration/tdd/supervisor/unrunnableTest.test.ts',
  'test/integration/mcp/mcpServers.test.ts',
  'test/integration/tdd/scaffold/scaffold.test.ts',
  'test/integration/examples/tools.test.ts',
  'test/integration/osSandbox/probe.test.ts',
  'test/integration/tdd/supervisor/resumeRefusals.test.ts',
  'test/integration/agentRuntime/runtime.test.ts',
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
