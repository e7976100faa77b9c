import assert from 'node:assert/strict';
import { parseAgentConfig } from '../../../src/core/agentRuntime/config';
import { AgentSettingsError } from '../../../src/core/agentRuntime/errors';

describe('BaseAgentConfig', () => {
  it('applies defaults', () => {
    const c = parseAgentConfig();
    assert.equal(c.strategy, 'single_shot');
    assert.equal(c.maxCycles, 10);
    assert.equal(c.maxRepairAttempts, 1);
    assert.equal(c.logging, true);
    assert.equal(c.errorHandling, false);
    assert.equal(c.model, undefined);
  });

  it('merges class extensions over the defaults and user settings over both', () => {
    const c = parseAgentConfig({ maxCycles: 5 }, { strategy: 'multi_cycle', maxCycles: 20, temperature: 0.1 });
    assert.equal(c.strategy, 'multi_cycle');
    assert.equal(c.maxCycles, 5);
    assert.equal(c.temperature, 0.1);
  });

  const bad: Array<[Record<string, unknown>, RegExp]> = [
    [{ temperature: 3 }, /temperature/],
    [{ maxCycles: 0, strategy: 'multi_cycle' }, /maxCycles/],
    [{ maxRepairAttempts: -1 }, /maxRepairAttempts/],
    [{ strategy: 'loop' }, /strategy/],
    [{ baseURL: 'not a url' }, /baseURL/],
    [{ timeoutMs: 1.5 }, /timeoutMs/],
    [{ modle: 'typo' }, /modle/],
    [{ logging: 'yes' }, /logging/],
  ];
  for (const [input, field] of bad) {
    it(`rejects ${JSON.stringify(input)} naming the field`, () => {
      assert.throws(
        () => parseAgentConfig(input as never),
        (e: unknown) =>
          e instanceof AgentSettingsError && e.error_code === 'CONFIG' && field.test(e.message) && e.problems.length > 0,
      );
    });
  }

  it('rejects conflicting flags, naming both fields', () => {
    assert.throws(() => parseAgentConfig({ maxCycles: 5 }), /maxCycles: only applies when strategy is "multi_cycle"/);
    assert.throws(() => parseAgentConfig({ batchConcurrency: 8 }), /batchConcurrency: only applies when batchProcessing is true/);
    assert.throws(() => parseAgentConfig({ auditPath: '/tmp/a.jsonl' }), /auditPath: only applies when auditTrail is true/);
    assert.throws(() => parseAgentConfig({ strategy: 'single_shot' }, { strategy: 'multi_cycle', maxCycles: 3 }), /maxCycles/);
  });
});
