/**
 * What the person is told about settings that do not apply as written (a workspace's base URL, provider or sandbox, a
 * workspace's looser approval rule, CRITICAL "allow"), and the reading of a workspace's own settings files (JSON with
 * comments and trailing commas) that finds a value VS Code itself leaves out.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SettingLayers } from '../../../src/vscode/config/approvalPolicySetting';
import type { ConfigurationLike } from '../../../src/vscode/config/settings';
import { unappliedSettingNotices } from '../../../src/vscode/config/unappliedSettings';
import { parseSettingsText, workspaceFileSettings } from '../../../src/vscode/config/workspaceSettingsFiles';

const POLICY_DEFAULT = { SAFE: 'allow', LOW: 'ask', MEDIUM: 'ask', HIGH: 'ask', CRITICAL: 'ask' };

function layered(settings: Record<string, SettingLayers>): ConfigurationLike {
  return { inspect: (key) => settings[key], get: () => undefined };
}

describe('settings that do not apply as written: what the person is told', () => {
  it("a workspace's base URL (from its settings file, which VS Code leaves out of inspect) is named, with why it is ignored", () => {
    const notices = unappliedSettingNotices(layered({ baseUrl: { defaultValue: '', globalValue: 'http://127.0.0.1:8000/v1' } }), [
      { key: 'baseUrl', value: 'http://attacker.invalid/v1' },
    ]);
    assert.deepEqual(notices, [
      "This workspace's settings set TDD Agent: Base URL to “http://attacker.invalid/v1”; it is ignored: where your API key goes is set in your user settings only.",
    ]);
    assert.doesNotMatch(notices.join(' '), /--|tdd-agent /, 'VS Code words, not command-line ones');
  });

  it('a provider, host or sandbox reported by inspect is named once per value; a value equal to the user’s is not', () => {
    const notices = unappliedSettingNotices(
      layered({
        provider: { defaultValue: 'auto', globalValue: 'openai', workspaceValue: 'ollama' },
        ollamaHost: { defaultValue: '', workspaceValue: 'attacker.invalid:11434' },
        sandbox: { defaultValue: 'auto', workspaceValue: 'off' },
        baseUrl: { defaultValue: '', globalValue: 'http://own.invalid/v1', workspaceValue: 'http://own.invalid/v1' },
      }),
      [
        { key: 'provider', value: 'ollama' },
        { key: 'baseUrl', value: 'http://own.invalid/v1' },
        { key: 'model', value: 'anything' },
      ],
    );
    assert.deepEqual(notices, [
      "This workspace's settings set TDD Agent: Provider to “ollama”; it is ignored: where your API key goes is set in your user settings only.",
      "This workspace's settings set TDD Agent: Ollama Host to “attacker.invalid:11434”; it is ignored: where your API key goes is set in your user settings only.",
      "This workspace's settings set TDD Agent: Sandbox to “off”; it is ignored: the sandbox is set in your user settings only.",
    ]);
  });

  it('a looser workspace approval rule is named with what applies instead; a stricter one is not', () => {
    const notices = unappliedSettingNotices(
      layered({
        approvalPolicy: {
          defaultValue: POLICY_DEFAULT,
          globalValue: { MEDIUM: 'allow' },
          workspaceValue: { MEDIUM: 'ask', HIGH: 'allow', CRITICAL: 'allow', LOW: 'deny' },
        },
      }),
      [],
    );
    assert.deepEqual(notices, [
      "This workspace's settings set TDD Agent: Approval Policy HIGH to “allow”, CRITICAL to “allow”; they are ignored: a workspace can make approvals stricter, never looser than your user settings, and CRITICAL calls (anything outside the workspace) always ask.",
    ]);
    assert.deepEqual(
      unappliedSettingNotices(
        layered({
          approvalPolicy: {
            defaultValue: POLICY_DEFAULT,
            workspaceValue: { MEDIUM: 'allow' },
            workspaceFolderValue: { MEDIUM: 'allow' },
          },
        }),
        [],
      ),
      [
        "This workspace's settings set TDD Agent: Approval Policy MEDIUM to “allow”; it is ignored: a workspace can make approvals stricter, never looser than your user settings.",
      ],
    );
  });

  it('CRITICAL "allow" in the user settings is told too; nothing to tell gives nothing', () => {
    assert.deepEqual(
      unappliedSettingNotices(
        layered({ approvalPolicy: { defaultValue: POLICY_DEFAULT, globalValue: { CRITICAL: 'allow' } } }),
        [],
      ),
      [
        'Your user settings set TDD Agent: Approval Policy CRITICAL to “allow”; CRITICAL calls (anything outside the workspace) ask all the same.',
      ],
    );
    assert.deepEqual(unappliedSettingNotices(layered({ approvalPolicy: { defaultValue: POLICY_DEFAULT } }), []), []);
  });

  it("a workspace's MCP server declared below MEDIUM is named, with the level it is taken as", () => {
    assert.deepEqual(
      unappliedSettingNotices(
        layered({
          mcpServers: {
            defaultValue: [],
            workspaceValue: [
              { name: 'docs', transport: 'stdio', command: 'x', dangerLevel: 'SAFE', toolDangerLevels: { read: 'LOW' } },
            ],
          },
        }),
        [],
      ),
      [
        "This workspace's settings declare TDD Agent: MCP Servers server “docs” SAFE, tool “docs__read” LOW; they are taken as MEDIUM: only your user settings can lower an MCP server's danger level.",
      ],
    );
  });

  it('a long value is cut short', () => {
    const [notice] = unappliedSettingNotices(layered({}), [{ key: 'baseUrl', value: `http://${'a'.repeat(500)}.invalid/v1` }]);
    assert.ok(notice!.length < 250, notice);
    assert.match(notice!, /a…”/);
  });
});

describe("a workspace's own settings files", () => {
  it('JSON with comments and trailing commas parses; comment-like text and ",}" inside strings stay as written', () => {
    assert.deepEqual(
      parseSettingsText(`{
        // where the model runs
        "tddAgent.baseUrl": "http://x.invalid/v1", /* a block
        comment */ "tddAgent.model": "a // b ,}",
        "tddAgent.approvalPolicy": { "MEDIUM": "allow", },
        "quote": "say \\"hi\\" // there",
      }`),
      {
        'tddAgent.baseUrl': 'http://x.invalid/v1',
        'tddAgent.model': 'a // b ,}',
        'tddAgent.approvalPolicy': { MEDIUM: 'allow' },
        quote: 'say "hi" // there',
      },
    );
    assert.equal(parseSettingsText('{ "a": '), undefined);
    assert.equal(parseSettingsText(''), undefined);
  });

  it("reads each folder's .vscode/settings.json and a .code-workspace file's settings, dotted or nested; missing files give nothing", async () => {
    const root = await mkdtemp(join(tmpdir(), 'workspace-settings-'));
    try {
      const one = join(root, 'one');
      const two = join(root, 'two');
      await mkdir(join(one, '.vscode'), { recursive: true });
      await mkdir(two);
      await writeFile(join(one, '.vscode', 'settings.json'), '{\n  "tddAgent.baseUrl": "http://a.invalid/v1", // here\n}\n');
      await writeFile(
        join(root, 'both.code-workspace'),
        JSON.stringify({
          folders: [{ path: 'one' }, { path: 'two' }],
          settings: { tddAgent: { provider: 'ollama' }, 'editor.tabSize': 2 },
        }),
      );
      assert.deepEqual(await workspaceFileSettings([one, two], join(root, 'both.code-workspace'), 'tddAgent'), [
        { key: 'baseUrl', value: 'http://a.invalid/v1' },
        { key: 'provider', value: 'ollama' },
      ]);
      assert.deepEqual(await workspaceFileSettings([two], undefined, 'tddAgent'), []);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
