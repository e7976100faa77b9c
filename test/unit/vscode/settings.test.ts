import assert from 'node:assert/strict';
import { ApprovalPolicy } from '../../../src/core/tools/approvalPolicy';
import { SETTING_KEYS, USER_ONLY_SETTING_KEYS, configurationReader, readSettings } from '../../../src/vscode/config/settings';

const from = (values: Record<string, unknown>) => (key: string) => values[key];

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
});
