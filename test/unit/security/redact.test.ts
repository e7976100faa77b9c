import { strict as assert } from 'node:assert';
import { AgentError } from '../../../src/core/errors/agentError';
import { redactSecrets, redactValue, registerSecret } from '../../../src/core/security/redact';

describe('redactSecrets', () => {
  it('removes every key shape, in any case the patterns allow, and leaves text without one untouched', () => {
    const shapes = [
      'BEARER abcdefghijkl',
      'Api_Key: "abcdefghijkl"',
      'X-API-KEY=abcdefghijkl',
      'PASSWORD: hunter2hunter2',
      'sk-proj-abcdefghijklmnop',
      'ghs_abcdefghijklmnopqrstuvwxyz',
      'xoxb-1234567890-abcdef',
    ];
    for (const shape of shapes) {
      const redacted = redactSecrets(`before ${shape} after`);
      assert.match(redacted, /\[REDACTED\]/, shape);
      assert.ok(!/abcdefghijkl|hunter2hunter2|1234567890/.test(redacted), `${shape} survived: ${redacted}`);
    }
    const plain = 'def add(a, b):\n    return a + b  # 3 passed in 0.01s';
    assert.equal(redactSecrets(plain), plain);
  });
});

describe('redactValue', () => {
  const KEY = 'zz-registered-secret-value-42';
  before(() => registerSecret(KEY));

  it('redacts a plain string like redactSecrets does, including key=value and bearer forms', () => {
    const text = `curl -H "Authorization: Bearer abcdefghijkl" --data password="hunter2hunter2" ${KEY}`;
    const redacted = redactValue(text);
    assert.equal(redacted, redactSecrets(text));
    for (const secret of ['abcdefghijkl', 'hunter2hunter2', KEY])
      assert.ok(!redacted.includes(secret), `${secret} survived: ${redacted}`);
  });

  it('walks objects and arrays, and replaces the values of secret-named keys whole', () => {
    const input = { apiKey: 'short', headers: { Authorization: 'x' }, list: [`token ${KEY}`, 3, null], note: 'fine' };
    assert.deepEqual(redactValue(input), {
      apiKey: '[REDACTED]',
      headers: { Authorization: '[REDACTED]' },
      list: ['token [REDACTED]', 3, null],
      note: 'fine',
    });
    assert.equal(input.apiKey, 'short', 'the input is not modified');
  });

  it('survives circular values and errors instead of returning them unredacted', () => {
    const loop: Record<string, unknown> = { secret: KEY };
    loop.self = loop;
    assert.deepEqual(redactValue(loop), { secret: '[REDACTED]', self: '[circular]' });
    assert.deepEqual(redactValue({ e: new Error(`failed with ${KEY}`) }), {
      e: { name: 'Error', message: 'failed with [REDACTED]' },
    });
  });

  it('AgentError details get the same treatment, circular or not', () => {
    const details: Record<string, unknown> = { value: KEY };
    details.again = details;
    const error = new AgentError('UNKNOWN', `boom ${KEY}`, details);
    assert.equal(error.message, 'boom [REDACTED]');
    assert.deepEqual(error.details, { value: '[REDACTED]', again: '[circular]' });
  });
});
