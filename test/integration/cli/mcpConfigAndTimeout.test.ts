import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { AgentFactory } from '../../../src/core/agentsAsData';
import { setLogSink, type LogSink } from '../../../src/core/logging/logger';
import { SessionSummarySchema } from '../../../src/core/tdd/sessionSummary';
import { FIZZBUZZ_WITHOUT_EXAMPLES, fizzbuzzJs } from '../../support/fizzbuzzPlans';
import { type RecordedRequest } from '../../support/openaiServer';
import { scriptedKataModel } from '../../support/scriptedKataModel';
import { cli, isolatedEnv, kataArgs, useCliSession } from './cliHarness';

const ROOT = resolve(__dirname, '..', '..', '..');
const FILESYSTEM = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
/** The tools the shipped role configs list: the five workspace tools and ask_person. */
const WORKSPACE_TOOLS = ['list_files', 'read_file', 'write_file', 'edit_file', 'run_tests', 'ask_person'];

const offered = (req: RecordedRequest): string[] =>
  ((req.body?.tools ?? []) as Array<{ function: { name: string } }>).map((t) => t.function.name);
const roleOf = (req: RecordedRequest): string =>
  /^agent: (\w+)\//.exec(String(req.body.messages.find((m: { role: string }) => m.role === 'system')?.content ?? ''))?.[1] ?? '';

function processesMentioning(marker: string): number[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(marker) && line.includes('server-filesystem'))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

describe('tdd-agent CLI: --mcp-config, --agents-dir and --timeout', function () {
  this.timeout(120_000);
  const session = useCliSession('cli-mcp-');
  beforeEach(() => AgentFactory.clearCache());

  describe('a bad --mcp-config is a usage error (exit 2) before anything runs', () => {
    const cases: Array<[string, string | undefined, RegExp]> = [
      ['a missing file', undefined, /--mcp-config .*missing\.json does not exist\./],
      ['not JSON', '[{ name: files }]', /--mcp-config .* is not valid JSON/],
      ['not an array', '{ "name": "files", "transport": "stdio", "command": "node" }', /must be a JSON array of MCP servers/],
      [
        'an invalid server',
        '[{ "name": "bad name!", "transport": "stdio" }]',
        /\[0\]\.name: use 1-32 letters[\s\S]*\[0\]\.command:/,
      ],
      ['an unknown transport', '[{ "name": "x", "transport": "carrier-pigeon" }]', /\[0\]\.transport:/],
      [
        'two servers with one name',
        '[{ "name": "x", "transport": "stdio", "command": "a" }, { "name": "x", "transport": "http", "url": "http://127.0.0.1:1/mcp" }]',
        /two MCP servers are named "x"/,
      ],
    ];
    for (const [what, content, message] of cases) {
      it(what, async () => {
        const file = join(session.dir, content === undefined ? 'missing.json' : 'mcp.json');
        if (content !== undefined) await writeFile(file, content);
        const r = await cli(
          [...kataArgs('fizzbuzz', join(session.dir, 'ws'), session.server.baseURL), '--mcp-config', file],
          isolatedEnv(),
        );
        assert.equal(r.code, 2, r.stderr);
        assert.match(r.stderr, /^tdd-agent: /);
        assert.match(r.stderr, message);
        assert.equal(session.server.chatRequests().length, 0);
      });
    }
  });

  it('--agents-dir pointing at a folder without the role configs exits 2 with CONFIG', async () => {
    await mkdir(join(session.dir, 'agents'));
    const r = await cli(
      [...kataArgs('fizzbuzz', join(session.dir, 'ws'), session.server.baseURL), '--agents-dir', join(session.dir, 'agents')],
      isolatedEnv(),
    );
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /CONFIG: No agent config tester\/v1/);
    assert.equal(session.server.chatRequests().length, 0);
  });

  it('kata --mcp-config --agents-dir: the tester is offered the files__* tools its config matches; the servers stop at the end', async () => {
    const docs = join(session.dir, 'docs');
    await mkdir(docs);
    await writeFile(join(docs, 'notes.md'), 'notes\n');
    const agents = join(session.dir, 'agents');
    for (const role of ['tester', 'implementer', 'refactorer']) {
      const config = JSON.parse(await readFile(join(ROOT, 'config', 'agents', role, 'v1.json'), 'utf8'));
      if (role === 'tester') config.tools.push('files__*');
      await mkdir(join(agents, role), { recursive: true });
      await writeFile(join(agents, role, 'v1.json'), JSON.stringify(config));
    }
    const mcpFile = join(session.dir, 'mcp.json');
    await writeFile(
      mcpFile,
      JSON.stringify([{ name: 'files', transport: 'stdio', command: process.execPath, args: [FILESYSTEM, docs] }]),
    );
    session.server.setFallback(scriptedKataModel({ cycles: fizzbuzzJs(1) }).reply);

    const r = await cli(
      [
        ...kataArgs(FIZZBUZZ_WITHOUT_EXAMPLES, join(session.dir, 'ws'), session.server.baseURL),
        '--yes',
        '--json',
        '--mcp-config',
        mcpFile,
        '--agents-dir',
        agents,
      ],
      isolatedEnv(),
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(SessionSummarySchema.parse(JSON.parse(r.stdout)).status, 'completed');
    assert.match(r.stderr, /MCP server files: \d+ tool\(s\) \(files__\*\)/);
    const requests = session.server.chatRequests();
    const tester = offered(requests.find((q) => roleOf(q) === 'tester')!);
    assert.ok(tester.includes('files__read_text_file'), tester.join(', '));
    for (const q of requests.filter((x) => roleOf(x) === 'implementer')) assert.deepEqual(offered(q), WORKSPACE_TOOLS);
    assert.deepEqual(processesMentioning(docs), []);
  });

  it('kata --help lists the new options', async () => {
    const r = await cli(['kata', '--help'], isolatedEnv());
    assert.equal(r.code, 0);
    for (const flag of ['--mcp-config FILE', '--agents-dir DIR', '--timeout MS']) assert.ok(r.stdout.includes(flag), flag);
  });

  describe("--timeout MS limits every model call (the agents' own 120 s default no longer wins)", () => {
    // The retries' warnings go to the process-wide log; keep them out of the test output.
    let restore: LogSink;
    before(() => (restore = setLogSink(() => undefined)));
    after(() => setLogSink(restore));
    for (const kind of ['ask', 'cot'] as const) {
      it(`${kind}: a model that never answers ends in a TIMEOUT error`, async () => {
        session.server.setFallback({ hang: true });
        const r = await cli(
          [kind, '--base-url', session.server.baseURL, '--model', 'm', '--timeout', '200', '--json', 'Why?'],
          isolatedEnv(),
        );
        assert.equal(r.code, 1, r.stderr);
        const out = JSON.parse(r.stdout);
        assert.equal(out.error.error_code, 'TIMEOUT');
        assert.match(out.error.message, /did not answer within 200 ms/);
      });
    }

    it('kata: a model that never answers fails the session with TIMEOUT', async () => {
      session.server.setFallback({ hang: true });
      const r = await cli(
        [...kataArgs('fizzbuzz', join(session.dir, 'ws'), session.server.baseURL), '--yes', '--json', '--timeout', '200'],
        isolatedEnv(),
      );
      assert.equal(r.code, 1, r.stderr);
      const summary = SessionSummarySchema.parse(JSON.parse(r.stdout));
      assert.equal(summary.status, 'failed');
      assert.equal(summary.error?.error_code, 'TIMEOUT');
      assert.match(summary.error!.message, /did not answer within 200 ms/);
    });

    it('a timeout above one hour is a usage error', async () => {
      const r = await cli(
        ['ask', '--base-url', session.server.baseURL, '--model', 'm', '--timeout', '3600001', 'q'],
        isolatedEnv(),
      );
      assert.equal(r.code, 2);
      assert.match(r.stderr, /--timeout is in milliseconds and at most 3600000/);
    });
  });
});
