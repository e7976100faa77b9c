import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { expectOk, runExample, useExampleServer, userText } from './exampleRunner';

describe('examples/ that act through tools (built-in tools, a real MCP server), against the loopback OpenAI server', function () {
  this.timeout(90_000);
  const { server, env } = useExampleServer();

  it('react-tools.ts reads and writes through the built-in tools; a HIGH call with no one to ask is refused', async () => {
    server().enqueue(
      { toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'notes.txt' } }] },
      { toolCalls: [{ id: 'c2', name: 'run_command', arguments: { command: 'rm -rf /' } }] },
      {
        toolCalls: [
          {
            id: 'c3',
            name: 'write_file',
            arguments: { path: 'summary.txt', content: 'Thursday 10:00 in room B; bring Q3 numbers.\n' },
          },
        ],
      },
      { text: 'Wrote the summary to summary.txt.' },
    );
    const run = await runExample('react-tools.ts', env());
    expectOk(run);
    assert.match(run.stdout, /tool read_file: Meeting moved to Thursday 10:00, room B\./);
    assert.match(
      run.stdout,
      /tool run_command: Error: Nothing was executed or changed\. run_command \(danger HIGH\) needs a person's approval/,
    );
    assert.match(run.stdout, /tool write_file: /);
    assert.match(run.stdout, /summary\.txt: Thursday 10:00 in room B; bring Q3 numbers\./);
    assert.match(run.stdout, /final_answer: Wrote the summary to summary\.txt\.\nterminationReason: finish after 4 cycles/);
    const tools = (server().chatRequests()[0]!.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    assert.ok(tools.includes('read_file') && tools.includes('write_file') && tools.includes('run_command'), tools.join(','));
  });

  it('mcp-tools.ts: ReAct calls a real server-filesystem tool over stdio', async () => {
    server().setFallback((req) => {
      const messages = req.body.messages as Array<{ role: string }>;
      if (!messages.some((m) => m.role === 'tool')) {
        const dir = /The files are in (\S+?)\.?$/m.exec(userText(req))?.[1] ?? '';
        return { toolCalls: [{ id: 'm1', name: 'files__read_text_file', arguments: { path: join(dir, 'todo.md') } }] };
      }
      return { text: 'Two open items: fix the login bug, write release notes.' };
    });
    const run = await runExample('mcp-tools.ts', env());
    expectOk(run);
    assert.match(run.stdout, /mcp server .*: \d+ tools \(files__/);
    assert.match(run.stdout, /tool files__read_text_file: - fix the login bug \| - write release notes/);
    assert.match(run.stdout, /final_answer: Two open items/);
  });
});
