import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { validateWorkflow } from '@action-validator/core';
import { parse } from 'yaml';
import type { EvalReport } from '../../../src/core/eval';
import { ensureCliBundle } from '../../support/cliBundle';
import { evalPlayer } from '../../support/evalPlayers';
import { startOpenAIServer, type OpenAITestServer } from '../../support/openaiServer';

const ROOT = resolve(__dirname, '..', '..', '..');
const WORKFLOW = join(ROOT, 'examples', 'eval-on-github-actions', 'eval.yml');

interface Step {
  id?: string;
  run?: string;
  uses?: string;
  with?: Record<string, unknown>;
}
interface Job {
  env?: Record<string, string>;
  steps: Step[];
  strategy?: { matrix: { model: string[]; shard: number[] } };
}
interface Workflow {
  env: Record<string, string>;
  jobs: { shard: Job; merge: Job };
}

/** A step's shell script as the workflow holds it, run by bash in `cwd` with `env`, as a runner runs it. */
function runStep(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const child = spawn('bash', ['-e', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  return new Promise((res) => child.on('exit', (code) => res({ code, output })));
}

// examples/eval-on-github-actions/eval.yml: valid against GitHub's workflow schema (@action-validator/core, the schema
// SchemaStore keeps), and its shell steps run here as they are, against the loopback model: three shards, a job run
// again (it resumes, nothing left to do), the merge, the job summary.
describe('examples/eval-on-github-actions: the workflow validates, and its steps run as written', function () {
  this.timeout(600_000);
  let server: OpenAITestServer;
  let dir: string;
  let workflow: Workflow;

  before(async () => {
    await ensureCliBundle();
    server = await startOpenAIServer();
    server.setFallback(evalPlayer('disciplined'));
    dir = await mkdtemp(join(tmpdir(), 'eval-actions-'));
    workflow = parse(await readFile(WORKFLOW, 'utf8')) as Workflow;
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('validates against the GitHub Actions workflow schema (and the validator refuses a broken copy)', async () => {
    const text = await readFile(WORKFLOW, 'utf8');
    assert.deepEqual(validateWorkflow(text).errors, []);
    const broken = text.replace(
      '    runs-on: ubuntu-24.04\n    timeout-minutes: 360\n',
      '    timeout-minutes: 360\n    run-on: ubuntu-24.04\n',
    );
    assert.notEqual(broken, text);
    assert.ok(validateWorkflow(broken).errors.length > 0, 'a job without runs-on is refused');
  });

  it('the shard jobs cover the matrix: SHARD counts as many shards as the matrix lists', () => {
    const job = workflow.jobs.shard;
    const count = job.strategy!.matrix.shard.length;
    assert.equal(job.env?.SHARD, `\${{ matrix.shard }}/${count}`);
    assert.deepEqual(
      job.strategy!.matrix.shard,
      Array.from({ length: count }, (_, i) => i + 1),
    );
    const upload = job.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!;
    assert.equal(upload.with?.name, '${{ env.OUT }}');
    const download = workflow.jobs.merge.steps.find((s) => s.uses?.startsWith('actions/download-artifact'))!;
    assert.equal(download.with?.path, 'parts');
  });

  it('three shards, a job run again (it resumes: nothing left), the merge and its job summary', async () => {
    const shardScript = workflow.jobs.shard.steps.find((s) => s.id === 'shard')!.run!;
    const mergeScript = workflow.jobs.merge.steps.find((s) => s.id === 'merge')!.run!;
    // `tdd-agent` on PATH, as `npm install -g tdd-agent` puts it: the CLI built from this tree.
    const bin = join(dir, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'tdd-agent'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'dist', 'cli.js')}" "$@"\n`);
    await chmod(join(bin, 'tdd-agent'), 0o755);
    const summary = join(dir, 'summary.md');
    const env = (shard: number): NodeJS.ProcessEnv => ({
      PATH: `${bin}:${process.env.PATH}`,
      HOME: process.env.HOME,
      TDD_AGENT_CACHE_DIR: process.env.TDD_AGENT_CACHE_DIR,
      // the workflow's env, its matrix and inputs filled in
      KATAS: 'leap',
      LANGUAGE: 'javascript',
      RUNS: '3',
      MODEL: 'test-model',
      SHARD: `${shard}/3`,
      OUT: `part-test-model-${shard}`,
      OPENAI_API_KEY: 'sk-test-secret',
      OPENAI_BASE_URL: server.baseURL,
      GITHUB_STEP_SUMMARY: summary,
    });
    const shards = await Promise.all([1, 2, 3].map((i) => runStep(shardScript, dir, env(i))));
    for (const s of shards) assert.equal(s.code, 0, s.output);
    const again = await runStep(shardScript, dir, env(2));
    assert.equal(again.code, 0, again.output);
    assert.match(again.output, /Resuming: 1 of 1 run\(s\) already done are kept; 0 to run\./);
    // download-artifact with a pattern: parts/<artifact name>/
    await mkdir(join(dir, 'parts'));
    for (const i of [1, 2, 3]) await rename(join(dir, `part-test-model-${i}`), join(dir, 'parts', `part-test-model-${i}`));
    const merged = await runStep(mergeScript, dir, env(1));
    assert.equal(merged.code, 0, merged.output);
    const report = JSON.parse(await readFile(join(dir, 'report', 'report.json'), 'utf8')) as EvalReport;
    assert.deepEqual(
      report.runs.map((r) => [r.kata, r.run, r.passed]),
      [
        ['leap', 1, true],
        ['leap', 2, true],
        ['leap', 3, true],
      ],
    );
    const published = await readFile(summary, 'utf8');
    assert.match(published, /^# TDD Agent eval: test-model \(openai\), javascript$/m);
    assert.match(published, /^\| pass@3 \| 100 % \|$/m);
    assert.doesNotMatch(published + JSON.stringify(report), /sk-test-secret/);
    if (process.env.EVAL_SHOW_REPORT) process.stdout.write(`per session: ${report.runs.map((r) => r.wall_ms).join(', ')} ms\n`);
  });
});
