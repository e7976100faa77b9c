import { strict as assert } from 'node:assert';
import { workspaceMcpServers } from '../../../src/vscode/config/mcpServersSetting';
import {
  consentToWorkspaceMcpServers,
  RUN_WITHOUT,
  START_THEM,
  type ConsentMemory,
} from '../../../src/vscode/session/workspaceMcpConsent';

function memory(): ConsentMemory & { values: Map<string, unknown> } {
  const values = new Map<string, unknown>();
  return { values, get: (key) => values.get(key), update: (key, value) => (values.set(key, value), Promise.resolve()) };
}

const layers = (workspaceValue: unknown) => ({ defaultValue: [], workspaceValue });
const docs = { name: 'docs', transport: 'stdio', command: 'node', args: ['tools/mcp.js'] };

describe('a workspace’s MCP servers start only with the person’s consent', () => {
  it('lists what the workspace’s own list would run; the person’s own list is not asked about', () => {
    assert.deepEqual(workspaceMcpServers(layers([docs, { name: 'web', transport: 'http', url: 'https://mcp.example/' }])), [
      { name: 'docs', runs: 'node tools/mcp.js' },
      { name: 'web', runs: 'https://mcp.example/' },
    ]);
    assert.deepEqual(workspaceMcpServers({ defaultValue: [], globalValue: [docs] }), []);
  });

  it('asks once, names what runs, remembers a yes; a changed command asks again; no or dismissed starts none', async () => {
    const asked: string[] = [];
    const answers = [START_THEM, RUN_WITHOUT, undefined];
    const ask = (message: string, detail: string) => (asked.push(`${message}\n${detail}`), Promise.resolve(answers.shift()));
    const mem = memory();
    const servers = workspaceMcpServers(layers([docs]));
    assert.equal(await consentToWorkspaceMcpServers(servers, mem, ask), true);
    assert.match(asked[0]!, /start an MCP server when a TDD session begins\. They run as you, outside the sandbox/);
    assert.match(asked[0]!, /• docs: node tools\/mcp\.js/);
    assert.equal(await consentToWorkspaceMcpServers(servers, mem, ask), true, 'remembered');
    assert.equal(asked.length, 1);
    const changed = workspaceMcpServers(layers([{ ...docs, args: ['tools/other.js'] }]));
    assert.equal(await consentToWorkspaceMcpServers(changed, mem, ask), false, '"Run without them"');
    assert.equal(await consentToWorkspaceMcpServers(changed, mem, ask), false, 'dismissed');
    assert.equal(asked.length, 3);
    assert.equal(await consentToWorkspaceMcpServers([], mem, () => Promise.reject(new Error('not asked'))), true);
  });
});
