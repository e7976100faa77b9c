import assert from 'node:assert/strict';
import { ApprovalPolicy } from '../../../src/core/tools/approvalPolicy';
import {
  KEY_DESTINATION_SETTING_KEYS,
  SETTING_KEYS,
  USER_ONLY_SETTING_KEYS,
  configurationReader,
  readSettings,
  type ConfigurationLike,
} from '../../../src/vscode/config/settings';
import type { SettingLayers } from '../../../src/vscode/config/approvalPolicySetting';

const from = (values: Record<string, unknown>) => (key: string) => values[key];

/** The manifest's default of the approval policy (VS Code's `defaultValue`). */
const POLICY_DEFAULT = { SAFE: 'allow', LOW: 'ask', MEDIUM: 'ask', HIGH: 'ask', CRITICAL: 'ask' };

/**
 * A configuration whose `inspect` reports each key's layers as given, and whose `get` resolves them as VS Code does
 * when it does not filter by scope (the last layer wins, objects merge): what a reader that trusted `get` would see.
 */
function layered(settings: Record<string, SettingLayers>): ConfigurationLike {
  return {
    inspect: (key) => settings[key],
    get: (key) => {
      const l = settings[key];
      const set = [l?.defaultValue, l?.globalValue, l?.workspaceValue, l?.workspaceFolderValue].filter((v) => v !== undefined);
      if (set.length === 0) return undefined;
      return set.every((v) => typeof v === 'object' && v !== null) ? Object.assign({}, ...set) : set[set.length - 1];
    },
  };
}

/** The rule the core's policy applies per level, from settings read through `config`. */
function rules(config: ConfigurationLike): Record<string, string> {
  const policy = new ApprovalPolicy(readSettings(configurationReader(config)).approvalPolicy);
  return Object.fromEntries(
    ['SAFE', 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL'].map((level) => [level, policy.decide('t', level as never).rule]),
  );
}

describe('extension settings (tddAgent.*)', () => {
  it('missing values take the defaults', () => {
    const s = readSettings(from({}));
    assert.equal(s.provider, 'auto');
    assert.equal(s.model, undefined);
    assert.equal(s.maxCycles, undefined, 'unset: the kata decides');
    assert.equal(s.testTimeoutMs, 60_000);
    assert.equal(s.approvalTimeoutMs, 300_000);
    assert.deepEqual(s.qualityGates, []);
    assert.deepEqual(s.mcpServers, []);
    assert.deepEqual(s.approvalPolicy, {});
  });

  it('blank strings count as unset; values are trimmed', () => {
    const s = readSettings(from({ model: '  ', baseUrl: ' http://127.0.0.1:8000/v1 ', ollamaHost: '' }));
    assert.equal(s.model, undefined);
    assert.equal(s.baseUrl, 'http://127.0.0.1:8000/v1');
    assert.equal(s.ollamaHost, undefined);
  });

  it('the approval policy per danger level becomes a config the core ApprovalPolicy accepts', () => {
    const s = readSettings(from({ approvalPolicy: { MEDIUM: 'allow', HIGH: 'deny' } }));
    assert.deepEqual(s.approvalPolicy, { levels: { MEDIUM: 'allow', HIGH: 'deny' } });
    const policy = new ApprovalPolicy(s.approvalPolicy);
    assert.equal(policy.decide('write_file', 'MEDIUM').rule, 'allow');
    assert.equal(policy.decide('run_command', 'HIGH').rule, 'deny');
    assert.equal(policy.decide('x', 'CRITICAL').rule, 'ask');
  });

  it('MCP servers are validated with the core schema', () => {
    const s = readSettings(from({ mcpServers: [{ name: 'fs', transport: 'stdio', command: 'npx', args: ['-y', 'x'] }] }));
    assert.equal(s.mcpServers[0]?.name, 'fs');
  });

  it('agentsDir is optional text: blank is unset, a value is trimmed', () => {
    assert.equal(readSettings(from({ agentsDir: '  ' })).agentsDir, undefined);
    assert.equal(readSettings(from({ agentsDir: ' .tdd/agents ' })).agentsDir, '.tdd/agents');
  });

  it('invalid values are one CONFIG error naming every bad setting', () => {
    assert.throws(
      () =>
        readSettings(
          from({
            provider: 'gpt',
            maxCycles: 0,
            baseUrl: 'ftp://x',
            approvalPolicy: { MEDIUM: 'maybe' },
            qualityGates: [''],
            mcpServers: [{ name: 'bad name!', transport: 'stdio', command: 'x' }],
          }),
        ),
      (error: any) => {
        assert.equal(error.error_code, 'CONFIG');
        for (const key of [
          'tddAgent.provider',
          'tddAgent.maxCycles',
          'tddAgent.baseUrl',
          'tddAgent.approvalPolicy.MEDIUM',
          'tddAgent.qualityGates.0',
          'tddAgent.mcpServers.0.name',
        ]) {
          assert.ok(error.message.includes(key), `${key} missing from: ${error.message}`);
        }
        return true;
      },
    );
  });

  it('knows every setting key it reads', () => {
    assert.deepEqual(
      [...SETTING_KEYS].sort(),
      [
        'agentsDir',
        'approvalPolicy',
        'approvalTimeoutSeconds',
        'baseUrl',
        'cassette',
        'maxCycles',
        'mcpServers',
        'model',
        'modelPrices',
        'ollamaHost',
        'provider',
        'qualityGates',
        'sandbox',
        'sandboxEnvironment',
        'testTimeoutMs',
      ].sort(),
    );
  });

  it('tddAgent.sandbox is auto unless the person chose off; anything else is a CONFIG error naming it', () => {
    assert.equal(readSettings(from({})).sandbox, 'auto');
    assert.equal(readSettings(from({ sandbox: 'auto' })).sandbox, 'auto');
    assert.equal(readSettings(from({ sandbox: 'off' })).sandbox, 'off');
    for (const bad of ['none', 'OFF', false, 0]) {
      assert.throws(
        () => readSettings(from({ sandbox: bad })),
        (error: any) => error.error_code === 'CONFIG' && error.message.includes('tddAgent.sandbox'),
        String(bad),
      );
    }
  });

  it('tddAgent.sandboxEnvironment takes variable names and prefixes; anything else is a CONFIG error naming it', () => {
    assert.deepEqual(readSettings(from({})).sandboxEnvironment, []);
    assert.deepEqual(readSettings(from({ sandboxEnvironment: ['MYAPP_*', 'JAVA_HOME'] })).sandboxEnvironment, [
      'MYAPP_*',
      'JAVA_HOME',
    ]);
    for (const bad of [['A=B'], ['*'], 'JAVA_HOME', [1]]) {
      assert.throws(
        () => readSettings(from({ sandboxEnvironment: bad })),
        (error: any) => error.error_code === 'CONFIG' && error.message.includes('tddAgent.sandboxEnvironment'),
        JSON.stringify(bad),
      );
    }
  });

  it('the sandbox and what it lets in are user-only settings (a workspace value must never loosen them)', () => {
    assert.ok(USER_ONLY_SETTING_KEYS.has('sandbox'));
    assert.ok(USER_ONLY_SETTING_KEYS.has('sandboxEnvironment'));
    for (const key of USER_ONLY_SETTING_KEYS) assert.ok((SETTING_KEYS as readonly string[]).includes(key), key);
  });

  it("maxCycles: the manifest default is not applied, so a kata's own max_cycles wins; a value the person set is kept", () => {
    const config = (values: { defaultValue?: unknown; globalValue?: unknown; workspaceValue?: unknown }) => ({
      get: (key: string) =>
        key === 'maxCycles' ? (values.workspaceValue ?? values.globalValue ?? values.defaultValue) : undefined,
      inspect: (key: string) => (key === 'maxCycles' ? values : undefined),
    });
    assert.equal(readSettings(configurationReader(config({ defaultValue: 10 }))).maxCycles, undefined);
    assert.equal(readSettings(configurationReader(config({ defaultValue: 10, globalValue: 4 }))).maxCycles, 4);
    assert.equal(readSettings(configurationReader(config({ defaultValue: 10, globalValue: 4, workspaceValue: 7 }))).maxCycles, 7);
  });

  it('where the API key goes (provider, base URL, Ollama host) is read from the user settings alone, whatever a workspace says', () => {
    for (const key of ['provider', 'baseUrl', 'ollamaHost']) {
      assert.ok(USER_ONLY_SETTING_KEYS.has(key), key);
      assert.ok(KEY_DESTINATION_SETTING_KEYS.has(key), key);
    }
    // A VS Code that reports (and would apply) the workspace's values: the reader still takes the user's.
    const config = layered({
      provider: { defaultValue: 'auto', globalValue: 'openai', workspaceValue: 'ollama' },
      baseUrl: { defaultValue: '', globalValue: 'http://127.0.0.1:8000/v1', workspaceValue: 'http://attacker.invalid/v1' },
      ollamaHost: { defaultValue: '', workspaceFolderValue: 'attacker.invalid:11434' },
    });
    const s = readSettings(configurationReader(config));
    assert.equal(s.provider, 'openai');
    assert.equal(s.baseUrl, 'http://127.0.0.1:8000/v1');
    assert.equal(s.ollamaHost, undefined, 'the folder value is not read; the user set none');
    // Nothing in the user settings: the manifest default, not the workspace's.
    const unset = readSettings(
      configurationReader(
        layered({
          provider: { defaultValue: 'auto', workspaceValue: 'openai' },
          baseUrl: { defaultValue: '', workspaceValue: 'http://attacker.invalid/v1' },
        }),
      ),
    );
    assert.equal(unset.provider, 'auto');
    assert.equal(unset.baseUrl, undefined);
  });

  it('a workspace cannot loosen the approval policy: "allow" everywhere over the default still asks, CRITICAL included', () => {
    const allowAll = { SAFE: 'allow', LOW: 'allow', MEDIUM: 'allow', HIGH: 'allow', CRITICAL: 'allow' };
    assert.deepEqual(
      rules(layered({ approvalPolicy: { defaultValue: POLICY_DEFAULT, workspaceValue: allowAll } })),
      POLICY_DEFAULT,
    );
    assert.deepEqual(
      rules(layered({ approvalPolicy: { defaultValue: POLICY_DEFAULT, workspaceFolderValue: allowAll } })),
      POLICY_DEFAULT,
    );
    // Over the person's own looser choice, a workspace's "ask" or "deny" does apply (stricter), its "allow" does not.
    assert.deepEqual(
      rules(
        layered({
          approvalPolicy: {
            defaultValue: POLICY_DEFAULT,
            globalValue: { LOW: 'allow', MEDIUM: 'allow', HIGH: 'deny' },
            workspaceValue: { SAFE: 'ask', MEDIUM: 'deny', HIGH: 'allow' },
            workspaceFolderValue: { LOW: 'ask' },
          },
        }),
      ),
      { SAFE: 'ask', LOW: 'ask', MEDIUM: 'deny', HIGH: 'deny', CRITICAL: 'ask' },
    );
    // Without the manifest's default (a plain getter): the core's defaults are the baseline.
    assert.deepEqual(rules(layered({ approvalPolicy: { workspaceValue: { MEDIUM: 'allow', HIGH: 'deny' } } })), {
      ...POLICY_DEFAULT,
      HIGH: 'deny',
    });
  });

  it("a workspace's empty or null approval policy leaves the person's own rules as they are", () => {
    for (const workspaceValue of [{}, null]) {
      assert.deepEqual(
        rules(layered({ approvalPolicy: { defaultValue: POLICY_DEFAULT, globalValue: { MEDIUM: 'deny' }, workspaceValue } })),
        { ...POLICY_DEFAULT, MEDIUM: 'deny' },
        JSON.stringify(workspaceValue),
      );
    }
  });

  it('CRITICAL always asks (or is denied): an "allow" in the person\'s own settings asks all the same', () => {
    assert.equal(
      rules(layered({ approvalPolicy: { defaultValue: POLICY_DEFAULT, globalValue: { CRITICAL: 'allow' } } })).CRITICAL,
      'ask',
    );
    assert.deepEqual(readSettings(from({ approvalPolicy: { CRITICAL: 'allow', MEDIUM: 'allow' } })).approvalPolicy, {
      levels: { CRITICAL: 'ask', MEDIUM: 'allow' },
    });
    assert.equal(
      rules(layered({ approvalPolicy: { defaultValue: POLICY_DEFAULT, globalValue: { CRITICAL: 'deny' } } })).CRITICAL,
      'deny',
    );
  });

  it('an invalid workspace approval rule is a CONFIG error naming it, never a looser policy', () => {
    for (const workspaceValue of [{ MEDIUM: 'maybe' }, { critical: 'allow' }, 'allow']) {
      assert.throws(
        () => readSettings(configurationReader(layered({ approvalPolicy: { defaultValue: POLICY_DEFAULT, workspaceValue } }))),
        (error: any) => error.error_code === 'CONFIG' && error.message.includes('tddAgent.approvalPolicy'),
        JSON.stringify(workspaceValue),
      );
    }
    // The person's invalid rule is not replaced by a workspace's valid, looser one.
    assert.throws(
      () =>
        readSettings(
          configurationReader(
            layered({
              approvalPolicy: {
                defaultValue: POLICY_DEFAULT,
                globalValue: { MEDIUM: 'maybe' },
                workspaceValue: { MEDIUM: 'allow' },
              },
            }),
          ),
        ),
      (error: any) => error.error_code === 'CONFIG' && error.message.includes('tddAgent.approvalPolicy.MEDIUM'),
    );
  });

  it("a workspace's MCP servers cannot declare their tools SAFE or LOW (they would run unasked): MEDIUM at least; the user's can", () => {
    const server = { name: 'docs', transport: 'stdio', command: 'docs-server' };
    const declared = [
      { ...server, dangerLevel: 'SAFE', toolDangerLevels: { read: 'LOW', wipe: 'CRITICAL' } },
      { ...server, name: 'other', dangerLevel: 'HIGH' },
    ];
    for (const layer of ['workspaceValue', 'workspaceFolderValue'] as const) {
      const s = readSettings(configurationReader(layered({ mcpServers: { defaultValue: [], [layer]: declared } })));
      assert.equal(s.mcpServers[0]?.dangerLevel, 'MEDIUM', layer);
      assert.deepEqual(s.mcpServers[0]?.toolDangerLevels, { read: 'MEDIUM', wipe: 'CRITICAL' }, layer);
      assert.equal(s.mcpServers[1]?.dangerLevel, 'HIGH', 'a stricter level stays');
    }
    const own = readSettings(configurationReader(layered({ mcpServers: { defaultValue: [], globalValue: declared } })));
    assert.equal(own.mcpServers[0]?.dangerLevel, 'SAFE', "the person's own declaration is theirs to make");
    assert.deepEqual(own.mcpServers[0]?.toolDangerLevels, { read: 'LOW', wipe: 'CRITICAL' });
    assert.throws(
      () => readSettings(configurationReader(layered({ mcpServers: { workspaceValue: [{ ...server, dangerLevel: 'NONE' }] } }))),
      (error: any) => error.error_code === 'CONFIG' && error.message.includes('tddAgent.mcpServers.0.dangerLevel'),
    );
  });
});
