import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isAgentError } from '../../../../src/core/errors/agentError';
import { runProcess } from '../../../../src/core/process/runProcess';
import type { TestRunner, TestRunResult } from '../../../../src/core/testRunners/types';
import { createRunCommandTool, runCommandTool, type RunCommandData } from '../../../../src/core/tools/builtin/runCommand';
import { createRunTestsTool } from '../../../../src/core/tools/builtin/runTests';
import { callTool, createTempWorkspace, type TempWorkspace } from './support/workspace';

/**
 * A small real TestRunner for `node --test` (the real runners are another module's job): it runs
 * the workspace's tests in a child process and reads the TAP summary.
 */
function nodeTestRunner(cwd: string): TestRunner {
  const command = 'node --test';
  return {
    name: 'node:test',
    command,
    async run(options = {}): Promise<TestRunResult> {
      const r = await runProcess({ cwd, command, shell: true, timeoutMs: options.timeoutMs ?? 20_000, signal: options.signal });
      const count = (label: string) => Number(new RegExp(`^# ${label} (\\d+)`, 'm').exec(r.output)?.[1] ?? 0);
      const passed = count('pass');
      const failed = count('fail');
      const status = r.cancelled
        ? 'cancelled'
        : r.timedOut
          ? 'timeout'
          : r.exitCode === 0
            ? 'passed'
            : passed + failed > 0
              ? 'failed'
              : 'error';
      return {
        status,
        passed,
        failed,
        total: passed + failed,
        output: r.output,
        command,
        exitCode: r.exitCode,
        durationMs: r.durationMs,
      };
    },
  };
}

describe('builtin process tools (real child processes)', () => {
  let ws: TempWorkspace;
  beforeEach(async () => (ws = await createTempWorkspace()));
  afterEach(() => ws.cleanup());

  describe('run_command', () => {
    it('runs a shell command line in the workspace and reports the exit code', async () => {
      await writeFile(path.join(ws.root, 'hello.txt'), 'hi');
      const out = await callTool(runCommandTool, { command: 'cat hello.txt; echo; echo oops >&2; exit 3' }, ws.context());
      assert.equal(out.content, '$ cat hello.txt; echo; echo oops >&2; exit 3\nhi\noops\n[exit code 3]');
      const data = out.data as RunCommandData;
      assert.equal(data.exitCode, 3);
      assert.equal(data.timedOut, false);
      assert.equal(data.truncated, false);
      const ok = await callTool(runCommandTool, { command: 'pwd' }, ws.context());
      assert.equal(ok.content, `$ pwd\n${ws.root}\n[exit code 0]`);
    });

    it('kills the whole process group of a command that never ends', async () => {
      const marker = path.join(ws.root, 'grandchild-survived');
      const tool = createRunCommandTool({ timeoutMs: 400 });
      const out = await callTool(tool, { command: `(sleep 1.5; touch ${marker}) & while true; do :; done` }, ws.context());
      assert.match(out.content, /\[timed out after 400 ms; the whole process group was killed\]/);
      assert.equal((out.data as RunCommandData).timedOut, true);
      await new Promise((r) => setTimeout(r, 1800));
      assert.equal(existsSync(marker), false, 'a grandchild outlived the timeout');
    });

    it('lets the model shorten the time limit but never lengthen it', async () => {
      const tool = createRunCommandTool({ timeoutMs: 300 });
      const out = await callTool(tool, { command: 'sleep 5', timeout_seconds: 3600 }, ws.context());
      assert.equal((out.data as RunCommandData).timedOut, true);
      const short = await callTool(
        createRunCommandTool({ timeoutMs: 60_000 }),
        { command: 'sleep 5', timeout_seconds: 1 },
        ws.context(),
      );
      assert.match(short.content, /timed out after 1 s/);
    });

    it('truncates a command printing 50 MB, keeping memory bounded', async () => {
      const tool = createRunCommandTool({ maxOutputBytes: 32 * 1024 });
      const out = await callTool(tool, { command: 'head -c 50000000 /dev/zero | tr "\\0" y' }, ws.context());
      assert.equal((out.data as RunCommandData).truncated, true);
      assert.ok(out.content.length < 40 * 1024, `content is ${out.content.length} chars`);
      assert.match(out.content, /output truncated at 32768 bytes/);
      assert.match(out.content, /\[exit code 0\]/);
    });

    it('gives the command no API keys from the environment, and redacts key-shaped output', async () => {
      const previous = process.env.OPENAI_API_KEY;
      process.env.OPENAI_API_KEY = 'sk-test-c1-should-not-leak-0123456789';
      try {
        const out = await callTool(
          runCommandTool,
          { command: 'echo "key=[$OPENAI_API_KEY]"; env | grep -c OPENAI_API_KEY; echo sk-literal-abcdefghijkl' },
          ws.context(),
        );
        assert.match(out.content, /key=\[\]\n0\n/);
        assert.ok(!out.content.includes('sk-test-c1'), out.content);
        assert.ok(!out.content.includes('sk-literal-abcdefghijkl'), 'key-shaped output should be redacted');
      } finally {
        if (previous === undefined) delete process.env.OPENAI_API_KEY;
        else process.env.OPENAI_API_KEY = previous;
      }
    });

    it('reports a command that cannot start and a cancelled run', async () => {
      const out = await callTool(runCommandTool, { command: 'definitely-not-a-command-c1' }, ws.context());
      assert.match(out.content, /not found/);
      assert.equal((out.data as RunCommandData).exitCode, 127);
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 150);
      await assert.rejects(callTool(runCommandTool, { command: 'sleep 10' }, ws.context({ signal: ac.signal })), (e: unknown) => {
        return isAgentError(e) && e.error_code === 'CANCELLED' && /cancelled and its process group killed/.test(e.message);
      });
    });

    it('rejects an empty command at the schema', () => {
      assert.equal(runCommandTool.parameters.safeParse({ command: '' }).success, false);
    });
  });

  describe('run_tests', () => {
    it('returns a clear error result when no test runner is configured', async () => {
      await assert.rejects(callTool(createRunTestsTool(), {}, ws.context()), (e: unknown) => {
        return (
          isAgentError(e) && e.error_code === 'TOOL_FAILED' && /No test runner is configured.*no tests were run/.test(e.message)
        );
      });
    });

    it('runs real failing and passing tests through the injected runner', async () => {
      await mkdir(path.join(ws.root, 'test'));
      const testFile = path.join(ws.root, 'test', 'add.test.js');
      await writeFile(path.join(ws.root, 'add.js'), 'exports.add = (a, b) => a - b;\n');
      await writeFile(
        testFile,
        "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../add.js');\n" +
          "test('adds', () => assert.equal(add(2, 3), 5));\ntest('zero', () => assert.equal(add(0, 0), 0));\n",
      );
      const tool = createRunTestsTool({ testRunner: nodeTestRunner(ws.root) });
      const red = await callTool(tool, {}, ws.context());
      assert.match(red.content, /^\$ node --test\nTests FAILED \(1 passed, 1 failed, 2 total\)\./);
      assert.equal((red.data as TestRunResult).status, 'failed');
      await writeFile(path.join(ws.root, 'add.js'), 'exports.add = (a, b) => a + b;\n');
      const green = await callTool(tool, {}, ws.context());
      assert.match(green.content, /Tests PASSED \(2 passed, 0 failed, 2 total\)\./);
    });

    it("writes the workspace's absolute path as '.' and counts Node.js runtime frames instead of listing them", async () => {
      await mkdir(path.join(ws.root, 'test'));
      await writeFile(path.join(ws.root, 'test', 'broken.test.js'), "require('../missing.js');\n");
      const red = await callTool(createRunTestsTool({ testRunner: nodeTestRunner(ws.root) }), {}, ws.context());
      assert.equal(
        (red.data as TestRunResult).output.includes(ws.context().workspaceRoot),
        true,
        'the runner printed the absolute path',
      );
      assert.equal(red.content.includes(ws.context().workspaceRoot), false);
      assert.match(red.content, /\.\/test\/broken\.test\.js/);
      assert.doesNotMatch(red.content, /\(node:internal\//);
      assert.match(red.content, /Node\.js runtime frames? left out/);
    });

    it('reports time-outs, errors and cancellation from the runner', async () => {
      const scripted = (result: Partial<TestRunResult>): TestRunner => ({
        name: 'scripted',
        command: 'scripted',
        run: async () => ({
          status: 'error',
          passed: 0,
          failed: 0,
          total: 0,
          output: 'out',
          command: 'scripted',
          exitCode: 1,
          durationMs: 1,
          ...result,
        }),
      });
      const timeout = await callTool(
        createRunTestsTool({ testRunner: scripted({ status: 'timeout', reason: 'killed after 5 s' }) }),
        {},
        ws.context(),
      );
      assert.match(timeout.content, /Tests TIMED OUT: killed after 5 s/);
      const error = await callTool(
        createRunTestsTool({ testRunner: scripted({ reason: 'SyntaxError in add.js' }) }),
        {},
        ws.context(),
      );
      assert.match(error.content, /The tests could not run: SyntaxError in add\.js\./);
      await assert.rejects(
        callTool(createRunTestsTool({ testRunner: scripted({ status: 'cancelled' }) }), {}, ws.context()),
        (e: unknown) => isAgentError(e) && e.error_code === 'CANCELLED',
      );
    });
  });
});
