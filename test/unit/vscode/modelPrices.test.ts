import assert from 'node:assert/strict';
import { estimatedCost } from '../../../src/shared/panelProtocol';
import { DEFAULT_MODEL_PRICES, modelPrice } from '../../../src/vscode/config/modelPrices';
import { readSettings } from '../../../src/vscode/config/settings';

describe('model prices (tddAgent.modelPrices)', () => {
  it('knows common OpenAI models, their dated snapshots, and nothing about other models', () => {
    assert.deepEqual(modelPrice('gpt-4o-mini'), DEFAULT_MODEL_PRICES['gpt-4o-mini']);
    assert.deepEqual(modelPrice('gpt-4o-2024-08-06'), DEFAULT_MODEL_PRICES['gpt-4o'], 'a dated snapshot of gpt-4o');
    assert.deepEqual(modelPrice('gpt-4o-mini-2024-07-18'), DEFAULT_MODEL_PRICES['gpt-4o-mini'], 'the longest known id wins');
    assert.equal(modelPrice('qwen2.5-coder:7b'), undefined);
    assert.equal(modelPrice('gpt-4o1'), undefined, 'only a dash continues a known id');
  });

  it('the setting adds models and overrides defaults; invalid prices are a CONFIG error', () => {
    const settings = readSettings((key) =>
      key === 'modelPrices' ? { 'my-model': { input: 0.5, output: 1.5 }, 'gpt-4o': { input: 1, output: 2 } } : undefined,
    );
    assert.deepEqual(modelPrice('my-model', settings.modelPrices), { input: 0.5, output: 1.5 });
    assert.deepEqual(modelPrice('gpt-4o', settings.modelPrices), { input: 1, output: 2 });
    assert.throws(
      () => readSettings((key) => (key === 'modelPrices' ? { m: { input: -1, output: 1 } } : undefined)),
      /tddAgent\.modelPrices/,
    );
  });

  it('estimates the cost from input and output tokens at USD per million', () => {
    assert.equal(estimatedCost({ input: 1_000_000, output: 500_000 }, { input: 2.5, output: 10 }), 7.5);
    assert.equal(estimatedCost({ input: 0, output: 0 }, { input: 2.5, output: 10 }), 0);
  });
});
