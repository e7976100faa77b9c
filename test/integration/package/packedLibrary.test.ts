import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startOpenAIServer, type OpenAITestServer } from '../../support/openaiServer';
import { ensureCliBundle } from '../../support/cliBundle';
import { toolEnv } from '../../support/toolEnv';

const ROOT = resolve(__dirname, '..', '..', '..');
const run = promisify(execFile);

/** The five lines a person writes after `npm install tdd-agent`. */
const PROGRAM = `import { createOpenAIClient, QAAgent } from 'tdd-agent/core';
const llm = createOpenAIClient({ baseURL: process.env.BASE_URL!, apiKey: 'sk-packed-test', maxRetries: 0 });
const agent = new QAAgent({ llm, config: { model: 'test-model' } });
const result = await agent.execute({ question: 'What does add return?', context: 'const add = (a, b) => a + b;' });
console.log(JSON.stringify({ answer: result.answer, confidence: result.confidence }));
`;

/**
 * What `npm install <tarball>` leaves in a fresh folder, without npm fetching and unpacking the dependency tree
 * (about 14 CPU-seconds, a tenth of the whole suite's budget): the tarball unpacked as
 * `node_modules/tdd-agent`, and each dependency the *packed* package.json declares linked from this project's
 * own node_modules (installed from the same ranges). The folder is outside the project, so an import the
 * package makes without declaring it still fails, as it would for a user.
 */
async function installTarball(tarball: string, project: string): Promise<void> {
  const installed = join(project, 'node_modules', 'tdd-agent');
  await mkdir(installed, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
  const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    const link = join(project, 'node_modules', name);
    await mkdir(dirname(link), { recursive: true });
    await symlink(join(ROOT, 'node_modules', name), link, 'dir');
  }
}

// The library, the way a user gets it: npm pack, a fresh folder, the tarball installed there.
describe('tdd-agent/core, /tdd and /testing from the packed tarball (npm pack, installed in a fresh folder)', function () {
  this.timeout(300_000);
  let server: OpenAITestServer;
  let scratch: string;
  let project: string;
  before(async () => {
    server = await startOpenAIServer();
    scratch = await mkdtemp(join(tmpdir(), 'tdd-packed-'));
    project = join(scratch, 'app');
    await run('npm', ['run', '-s', 'build:lib'], { cwd: ROOT, env: toolEnv() });
    await ensureCliBundle();
    const packed = JSON.parse(
      (await run('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: ROOT, env: toolEnv() })).stdout,
    ) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = packed[0]!.files.map((f) => f.path);
    for (const [name, types] of [
      ['core', 'index'],
      ['tdd', 'tddApi'],
      ['testing', 'testingApi'],
    ]) {
      for (const file of [`dist/${name}/index.mjs`, `dist/${name}/index.cjs`, `dist/types/core/${types}.d.ts`]) {
        assert.ok(files.includes(file), `${file} not in ${files.slice(0, 20).join(', ')}`);
      }
    }
    assert.ok(files.includes('dist/lib/index.cjs'), 'the CJS bundle the entry points share');
    assert.ok(files.includes('config/agents/qa/v1.json'), 'the agent configs the core loads');
    assert.ok(
      !files.some((f) => f.startsWith('src/') || f.startsWith('test/') || f.endsWith('.map')),
      'no sources, tests or maps',
    );
    await installTarball(join(scratch, packed[0]!.filename), project);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    await writeFile(join(project, 'main.ts'), PROGRAM);
  });
  after(async () => {
    await server?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('a 5-line TypeScript program type-checks against its types and runs a QA agent (ESM)', async () => {
    await run(
      join(ROOT, 'node_modules', '.bin', 'tsc'),
      [
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        '--types',
        'node',
        '--typeRoots',
        join(ROOT, 'node_modules', '@types'),
        'main.ts',
      ],
      { cwd: project, env: toolEnv() },
    );
    server.enqueue({ json: { answer: 'the sum of a and b', confidence: 0.9, reasoning: 'it adds' } });
    const { stdout } = await run(join(ROOT, 'node_modules', '.bin', 'tsx'), ['main.ts'], {
      cwd: project,
      env: { ...toolEnv(), BASE_URL: server.baseURL },
    });
    assert.deepEqual(JSON.parse(stdout.trim().split('\n').at(-1)!), { answer: 'the sum of a and b', confidence: 0.9 });
    assert.match(String(server.chatRequests().at(-1)!.body.messages.at(-1).content), /What does add return\?/);
  });

  it('require() gets the same API (CJS), one copy of the code behind the three entry points, and never loads vscode', async () => {
    const program = [
      "const core = require('tdd-agent/core'), tdd = require('tdd-agent/tdd'), testing = require('tdd-agent/testing');",
      'console.log([typeof core.QAAgent, typeof core.createAgentRuntime, typeof tdd.runKataSession, typeof testing.createScriptedLlmClient,',
      "  new tdd.KataError('x') instanceof core.AgentError].join(','))",
    ].join('\n');
    const { stdout } = await run('node', ['-e', program], { cwd: project, env: toolEnv() });
    assert.equal(stdout.trim(), 'function,function,function,function,true');
    const esm = await run(
      'node',
      [
        '--input-type=module',
        '-e',
        "import { AgentError } from 'tdd-agent/core'; import { KataError } from 'tdd-agent/tdd'; console.log(new KataError('x') instanceof AgentError)",
      ],
      { cwd: project, env: toolEnv() },
    );
    assert.equal(esm.stdout.trim(), 'true');
    const dist = join(project, 'node_modules', 'tdd-agent', 'dist');
    const shared = (await readdir(join(dist, 'lib'))).filter((f) => /\.[cm]js$/.test(f)).map((f) => `lib/${f}`);
    for (const file of ['core/index.mjs', 'tdd/index.mjs', 'testing/index.mjs', ...shared]) {
      assert.doesNotMatch(await readFile(join(dist, file), 'utf8'), /require\(["']vscode["']\)|from ["']vscode["']/);
    }
  });
});
