import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { EvalReport } from '../../../src/core/eval';
import { ensureCliBundle } from '../../support/cliBundle';
import { evalPlayer } from '../../support/evalPlayers';
import { startOpenAIServer, type OpenAITestServer } from '../../support/openaiServer';
import { cli, isolatedEnv } from '../cli/cliHarness';

const ROOT = resolve(__dirname, '..', '..', '..');

/** Runs `command` with bash in `cwd`, `tdd-agent` being the built CLI; resolves whatever the exit code. */
function sh(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile('bash', ['-c', command], { cwd, env, timeout: 110_000 }, (error, stdout, stderr) =>
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

// A report is made to be shared: it names what ran (set, digest, source commit, tdd-agent version) and no path of the
// machine, and its folder replays a run on its own with the command report.md and the README print.
describe('eval: a report made to be shared', function () {
  this.timeout(240_000);
  let server: OpenAITestServer;
  let dir: string;
  let out: string;
  let report: EvalReport;

  before(async () => {
    await ensureCliBundle();
    server = await startOpenAIServer();
    server.setFallback(evalPlayer('disciplined'));
    dir = await realpath(await mkdtemp(join(tmpdir(), 'eval-shared-')));
    out = join(dir, 'report');
    const args = ['eval', '--katas', 'leap', '--out', out, '--json', '--base-url', server.baseURL, '--model', 'test-model'];
    const result = await cli(args, isolatedEnv());
    assert.equal(result.code, 0, result.stderr);
    report = JSON.parse(result.stdout) as EvalReport;
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('names the set (name, digest, source commit) and the tdd-agent version, in report.json and report.md', async () => {
    const { version } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.deepEqual(report.tdd_agent, { version, front_end: 'cli' });
    assert.deepEqual(
      { ...report.set, digest: 'x' },
      {
        name: 'katas/eval',
        bundled: true,
        digest: 'x',
        source_commits: ['03f83310ed0547b902d211a05d23b3d74661df02'],
        katas: ['leap'],
      },
    );
    assert.match(report.set.digest, /^[0-9a-f]{16}$/);
    const markdown = await readFile(join(out, 'report.md'), 'utf8');
    assert.ok(
      markdown.includes(
        `Set **katas/eval** (bundled), digest \`${report.set.digest}\`, exercises from source commit 03f83310ed05; tdd-agent ${version} (CLI).`,
      ),
      markdown,
    );
  });

  it('holds no path of this machine: not the product’s folder, not the report’s, not the runs’', async () => {
    for (const file of ['report.json', 'report.md']) {
      const text = await readFile(join(out, file), 'utf8');
      for (const local of [ROOT, dir, tmpdir()]) assert.ok(!text.includes(local), `${file} names ${local}`);
    }
  });

  it('replays a run in the report’s folder with the command report.md prints, never making that folder a repository', async () => {
    const markdown = await readFile(join(out, 'report.md'), 'utf8');
    const printed = /```sh\n(.+)\n```/.exec(markdown)?.[1];
    assert.ok(printed, markdown);
    const bin = join(dir, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'tdd-agent'), `#!/bin/sh\nexec node ${JSON.stringify(join(ROOT, 'dist', 'cli.js'))} "$@"\n`);
    await chmod(join(bin, 'tdd-agent'), 0o755);
    const command = printed.replaceAll('<kata>', 'leap').replaceAll('<n>', '1');
    const replayed = await sh(`${command} --json`, out, isolatedEnv({ PATH: `${bin}:${process.env.PATH}` }));
    // The replay ends as the run did: the player's three leap tests leave two of the kata's examples (1960, 2400)
    // unspelled, so its KATA_COMPLETE was asked about once more and the session ended incomplete (exit 1).
    const status = (JSON.parse(replayed.stdout) as { status: string }).status;
    assert.equal(status, report.runs[0]!.status);
    assert.equal(status, 'incomplete', replayed.stderr);
    assert.equal(replayed.code, 1, replayed.stderr);
    assert.equal(existsSync(join(out, '.git')), false, 'the report folder is no repository');
    // The header names the recorded model, not "replay replay".
    assert.match(replayed.stderr, /kata 'Leap', replay test-model,/);
  });
});
