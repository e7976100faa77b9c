import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { stripAnsi } from '../../src/core/testRunners/parsers/testCounts';
import { git } from './personRepo';
import { startOpenAIServer } from './openaiServer';
import { SHAPE_PLANS } from './projectShapePlans';
import {
  checkoutChanges,
  checkoutState,
  freshClone,
  shapePersonEnv,
  shapeRepository,
  SHAPE_FIXTURES,
  type ShapeFixture,
} from './projectShapes';
import { scriptedKataModel } from './scriptedKataModel';

const run = promisify(execFile);
const CLI = join(resolve(__dirname, '..', '..'), 'dist', 'cli.js');

/** What `tdd-agent task` printed and how it exited. */
export interface TaskRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The end of a long text, for assertion messages. */
const tail = (text: string, chars = 3000): string => (text.length > chars ? `…${text.slice(-chars)}` : text);

/**
 * Runs the built `tdd-agent task "<sentence>" --base-url … --model test-model --yes --json` in `cwd` (no --workspace,
 * no --test-command: zero-config, as a person types it in their project's folder), with the person's PATH (pnpm,
 * Yarn, their python3), HOME, the worker's cache folder and no pytest plugins. A non-zero exit is returned, not thrown.
 */
export async function runTask(cwd: string, args: string[], personEnv: NodeJS.ProcessEnv): Promise<TaskRun> {
  const env: NodeJS.ProcessEnv = {
    PATH: personEnv.PATH,
    HOME: process.env.HOME,
    OLLAMA_HOST: 'http://127.0.0.1:9',
    TDD_AGENT_CACHE_DIR: process.env.TDD_AGENT_CACHE_DIR,
    PYTEST_DISABLE_PLUGIN_AUTOLOAD: process.env.PYTEST_DISABLE_PLUGIN_AUTOLOAD,
  };
  try {
    const { stdout, stderr } = await run('node', [CLI, 'task', ...args], {
      cwd,
      env,
      timeout: 400_000,
      maxBuffer: 32 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** `env` without NO_COLOR and FORCE_COLOR (a CI machine's own would otherwise reach the project's tests). */
function withoutColourSettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => name !== 'NO_COLOR' && name !== 'FORCE_COLOR'));
}

/** The project's own test command in `dir` (a checkout's session folder), through a shell, as the person runs it. */
async function ownTests(dir: string, command: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run('sh', ['-c', `${command} 2>&1`], {
      cwd: dir,
      // No colour setting, as in runTask's environment: the js-uvu-colors fixture's own test reads them.
      env: { ...withoutColourSettings(env), CI: 'true' },
      timeout: 240_000,
      maxBuffer: 32 * 1024 * 1024,
    });
    return { code: 0, output: stripAnsi(stdout + stderr) };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, output: stripAnsi((e.stdout ?? '') + (e.stderr ?? '')) };
  }
}

/**
 * Issue 34's check on one shape fixture: the person's repository, installed as its README says; a scripted two-cycle
 * `tdd-agent task` from its session folder, zero-config, against the loopback model server, its tests in bubblewrap.
 * It must complete with two green commits that change only the test file and the module the plan edits; each commit
 * must pass the project's own test command in a fresh clone installed the same way; and the person's checkout (every
 * file outside .git, ignored ones, node_modules, .venv and generated files included, and git's view of it) must be
 * byte-identical afterwards.
 */
export async function assertTaskOnShape(
  fixture: ShapeFixture,
  options: { setupPy?: boolean; /** More flags for `tdd-agent task`. */ args?: string[] } = {},
): Promise<void> {
  const spec = SHAPE_FIXTURES[fixture];
  const plan = SHAPE_PLANS[fixture];
  const temp = await mkdtemp(join(tmpdir(), `tdd-shape-${fixture}-`));
  const server = await startOpenAIServer();
  try {
    const person = await shapeRepository(fixture, { parent: join(temp, 'person'), setupPy: options.setupPy });
    const env = await shapePersonEnv(fixture);
    const base = git(person, 'rev-parse', 'HEAD');
    const before = await checkoutState(person);
    server.setFallback(scriptedKataModel({ cycles: plan.cycles }).reply);

    const task = await runTask(
      join(person, spec.sessionDir),
      [plan.task, '--base-url', server.baseURL, '--model', 'test-model', '--yes', '--json', ...(options.args ?? [])],
      env,
    );
    assert.equal(task.code, 0, `tdd-agent task exited ${task.code}:\n${tail(task.stderr)}\n${tail(task.stdout, 1500)}`);
    const summary = JSON.parse(task.stdout) as {
      status: string;
      branch: string;
      totals: { commits: number };
      cycles: Array<{ outcome: string }>;
    };
    assert.equal(summary.status, 'completed', tail(task.stderr));
    assert.deepEqual(
      summary.cycles.map((c) => c.outcome),
      ['green', 'green', 'kata_complete'],
    );
    assert.equal(summary.totals.commits, 2);

    const changes = checkoutChanges(before, await checkoutState(person));
    assert.deepEqual(
      changes.slice(0, 40),
      [],
      `the person’s checkout (installs included) is byte-identical: ${changes.length} changes`,
    );

    const changed = git(person, 'diff', '--name-only', `${base}..${summary.branch}`).split('\n').filter(Boolean);
    assert.deepEqual(changed.sort(), [plan.sourcePath, plan.testPath].sort(), 'only what the roles wrote is on the branch');

    // Each commit passes the project's own test command in a fresh clone, installed as the person's checkout was.
    const commits = git(person, 'rev-list', '--reverse', `${base}..${summary.branch}`).split('\n').filter(Boolean);
    assert.equal(commits.length, 2);
    for (const [i, commit] of commits.entries()) {
      const clone = await freshClone(person, commit, join(temp, `clone-${commit.slice(0, 8)}`), fixture);
      const own = await ownTests(join(clone, spec.sessionDir), spec.test, env);
      assert.equal(own.code, 0, `${commit}: '${spec.test}' failed in a fresh clone:\n${tail(own.output)}`);
      // Each cycle added one test, and the project's command ran it.
      if (spec.passed) assert.equal(spec.passed(own.output), spec.tests + i + 1, tail(own.output));
      else assert.match(own.output, new RegExp(`\\b${spec.tests + i + 1} passed`), tail(own.output));
    }
  } finally {
    await server.close();
    await rm(temp, { recursive: true, force: true });
  }
}
