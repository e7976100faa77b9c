import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { simpleGit } from 'simple-git';
import { SessionSummarySchema } from '../../../src/core/tdd/sessionSummary';
import { fizzbuzzJs } from '../../support/fizzbuzzPlans';
import { PYTHON_KATAS, pythonKataCycles } from '../../support/pythonKataPlans';
import { scriptedKataModel } from '../../support/scriptedKataModel';
import { cli, isolatedEnv, useCliSession } from './cliHarness';

const run = promisify(execFile);
const CLI = join(resolve(__dirname, '..', '..', '..'), 'dist', 'cli.js');

/** A person's repository: `files` committed on branch `main`. */
async function personRepo(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  const git = simpleGit(dir);
  await git.raw(['init', '-q', '-b', 'main']);
  await git.addConfig('user.name', 'Test').addConfig('user.email', 'test@example.invalid');
  await git.add('.');
  await git.commit('the library as it is');
}

/** Runs the built `tdd-agent` (its exit code, stdout and stderr; a non-zero exit is not thrown). */
async function tddAgent(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('node', [CLI, ...args], { env, timeout: 110_000, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('tdd-agent task: a task in plain words, in the person’s project', function () {
  this.timeout(120_000);
  const session = useCliSession('cli-task-', { bundle: true });
  const modelArgs = (): string[] => ['--base-url', session.server.baseURL, '--model', 'test-model', '--yes'];

  it('on an empty folder it works like a kata: a minimal project, red-green cycles, the profile first and in --json', async () => {
    session.server.setFallback(scriptedKataModel({ cycles: fizzbuzzJs(2) }).reply);
    const r = await tddAgent(
      ['task', 'Write a fizzbuzz(n) function', '--workspace', session.dir, ...modelArgs(), '--json'],
      isolatedEnv(),
    );
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as Record<string, unknown> & { profile: Record<string, unknown> };
    const summary = SessionSummarySchema.parse(out);
    assert.equal(summary.status, 'completed');
    assert.equal(summary.totals.commits, 2);
    assert.equal(summary.kata, 'Write a fizzbuzz(n) function');
    assert.match(summary.branch, /^tdd\/write-a-fizzbuzz-n-function-/);
    assert.equal(out.profile.language, 'javascript');
    assert.equal(out.profile.testCommand, 'node --test');
    assert.deepEqual(out.profile.manifests, []);
    // The profile is the session's first line after the session line, before any cycle.
    const lines = r.stderr.split('\n');
    const project = lines.findIndex((l) => l.startsWith('Project: '));
    assert.ok(project >= 0 && project < lines.findIndex((l) => l.startsWith('Cycle 1')), r.stderr);
    assert.match(
      lines[project]!,
      /^Project: JavaScript, node:test \(`node --test`\), tests: .* in test\/, source: src\/ — a new project \(the session wrote a minimal JavaScript project\); change with --test-command/,
    );
    const log = await simpleGit(session.dir).log([summary.branch]);
    assert.ok(log.all.some((c) => c.message.startsWith('chore: scaffold a javascript project')));
    // What the model was told: the task is the kata.
    const user = String(session.server.chatRequests()[0]!.body.messages.find((m: { role: string }) => m.role === 'user').content);
    assert.match(user, /Write a fizzbuzz\(n\) function/);
  });

  it('on a Python project with a manifest it scaffolds nothing and runs pytest, in the project’s folders', async () => {
    await personRepo(session.dir, {
      'pyproject.toml':
        '[project]\nname = "calendar-tools"\nversion = "0.1.0"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
      'src/helpers.py': 'def double(n):\n    return 2 * n\n',
      'tests/test_helpers.py': 'from helpers import double\n\n\ndef test_double():\n    assert double(2) == 4\n',
      '.gitignore': '__pycache__/\n',
    });
    const leap = PYTHON_KATAS.find((k) => k.slug === 'leap-year')!;
    session.server.setFallback(scriptedKataModel({ cycles: pythonKataCycles(leap).slice(0, 2) }).reply);
    const r = await tddAgent(
      ['task', 'Add is_leap_year(year) for the Gregorian calendar', '--workspace', session.dir, ...modelArgs(), '--json'],
      isolatedEnv(),
    );
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { profile: Record<string, unknown>; branch: string; totals: { commits: number } };
    assert.equal(out.totals.commits, 2);
    assert.equal(out.profile.language, 'python');
    assert.equal(out.profile.testRunner, 'pytest');
    assert.equal(out.profile.testCommand, 'python3 -m pytest');
    assert.deepEqual(out.profile.sourceRoots, ['src']);
    assert.equal(out.profile.testDir, 'tests');
    assert.deepEqual(out.profile.manifests, ['pyproject.toml']);
    assert.deepEqual((out.profile.fields as Record<string, string>).testCommand, 'detected');
    assert.match(
      r.stderr,
      /Project: Python, pytest \(`python3 -m pytest`\), tests: tests\/\*\* in tests\/, source: src\/ — from pyproject\.toml/,
    );

    const git = simpleGit(session.dir);
    const subjects = (await git.log([`main..${out.branch}`])).all.map((c) => c.message);
    assert.ok(!subjects.some((m) => m.startsWith('chore: scaffold')), subjects.join('\n'));
    const files = (await git.raw(['ls-tree', '-r', '--name-only', out.branch])).trim().split('\n').sort();
    assert.deepEqual(files, [
      '.gitignore',
      'pyproject.toml',
      'src/helpers.py',
      'src/leap_year.py',
      'tests/test_helpers.py',
      'tests/test_leap_year.py',
    ]);
    assert.equal(
      await git.raw(['show', `${out.branch}:pyproject.toml`]),
      await git.raw(['show', 'main:pyproject.toml']),
      'the manifest is untouched',
    );
  });

  it('the kata and task flags override the project: --test-command, --test-pattern, --source-dir', async () => {
    await personRepo(session.dir, {
      'package.json': JSON.stringify({ name: 'lib', type: 'module', scripts: { test: 'node --test' } }),
      'test/smoke.test.js': "import { test } from 'node:test';\ntest('the library loads', () => {});\n",
    });
    session.server.setFallback(scriptedKataModel({ cycles: fizzbuzzJs(1) }).reply);
    const r = await tddAgent(
      [
        'kata',
        'fizzbuzz',
        '--workspace',
        session.dir,
        ...modelArgs(),
        '--json',
        '--max-cycles',
        '1',
        '--test-command',
        'node --test test/',
        '--test-pattern',
        'test/**/*.test.js',
        '--source-dir',
        'src',
      ],
      isolatedEnv(),
    );
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as {
      profile: { fields: Record<string, string>; testCommand: string; testFilePatterns: string[] };
    };
    assert.equal(out.profile.testCommand, 'node --test test/');
    assert.deepEqual(out.profile.testFilePatterns, ['test/**/*.test.js']);
    assert.equal(out.profile.fields.testCommand, 'flag');
    assert.equal(out.profile.fields.testFilePatterns, 'flag');
    assert.equal(out.profile.fields.sourceRoots, 'flag');
    assert.match(r.stderr, /test command, test patterns, source folder from flags/);
  });

  describe('usage and configuration errors exit 2 with one line', () => {
    const cases: Array<[string, string[], RegExp]> = [
      [
        'a sentence given to kata',
        ['kata', 'Add a foreign_key helper'],
        /No kata file 'Add a foreign_key helper'.*Run: tdd-agent task "Add a foreign_key helper"/,
      ],
      ['a task without a sentence', ['task'], /Say what to build, in quotes/],
      [
        'a test pattern outside the repository',
        ['task', 'x', '--test-pattern', '../x/**'],
        /--test-pattern '\.\.\/x\/\*\*' must not contain '\.\.'/,
      ],
      ['an absolute source folder', ['task', 'x', '--source-dir', '/src'], /--source-dir '\/src' must be relative/],
      [
        'an unknown language',
        ['task', 'x', '--language', 'cobol'],
        /--language must be javascript, typescript, python(, \w+)* or \w+, got 'cobol'/,
      ],
    ];
    for (const [what, argv, message] of cases) {
      it(what, async () => {
        const r = await cli([...argv, '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm'], isolatedEnv());
        assert.equal(r.code, 2, r.stderr);
        assert.match(r.stderr, message);
        assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      });
    }

    it('an invalid tdd-agent.json names the file and the field, before anything is created', async () => {
      await writeFile(join(session.dir, 'tdd-agent.json'), JSON.stringify({ testPattern: ['x'] }));
      const r = await cli(
        ['task', 'Add a helper', '--workspace', session.dir, '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm'],
        isolatedEnv(),
      );
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /CONFIG: .*tdd-agent\.json: unknown field 'testPattern'/);
      await assert.rejects(simpleGit(session.dir).status(), 'no repository was created');
    });

    it('task --help and the command list name it', async () => {
      const help = await cli(['task', '--help'], isolatedEnv());
      assert.equal(help.code, 0);
      assert.match(help.stdout, /tdd-agent task "<what to build>"/);
      assert.match(help.stdout, /--test-pattern GLOB/);
      assert.match((await cli(['--help'], isolatedEnv())).stdout, /tdd-agent task "<what to build>"/);
    });
  });
});
