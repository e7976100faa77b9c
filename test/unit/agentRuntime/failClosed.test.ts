import assert from 'node:assert/strict';
import { modelCallTimeout } from '../../../src/core/agentRuntime/agentRun';
import { DEFAULT_MODEL_CALL_TIMEOUT_MS } from '../../../src/core/agentRuntime/config';
import { MAX_CAUSE_DEPTH, causeChain, toRunError } from '../../../src/core/agentRuntime/errorCauses';
import { describeValue } from '../../../src/core/agentRuntime/errors';
import { outputFields, preparedInputs } from '../../../src/core/agentRuntime/extensionResults';
import { MAX_INPUT_DEPTH, checkInputValues } from '../../../src/core/agentRuntime/inputValues';
import { AgentError } from '../../../src/core/errors/agentError';
import { mergeTargets } from '../../../src/core/metrics/performanceMetrics';
import { toolUsesWorkspace } from '../../../src/core/tools/types';

// The pure pieces behind issue 26's rows; the rows themselves are probed end to end in
// test/integration/agentRuntime/specRows.test.ts.
describe('failing closed: the pure helpers', () => {
  it('modelCallTimeout: the tighter of agent and client, either alone, else the 120 s default', () => {
    assert.equal(modelCallTimeout(300, 60_000), 300);
    assert.equal(modelCallTimeout(120_000, 300), 300);
    assert.equal(modelCallTimeout(5000, undefined), 5000);
    assert.equal(modelCallTimeout(undefined, 30_000), 30_000);
    assert.equal(modelCallTimeout(undefined, undefined), DEFAULT_MODEL_CALL_TIMEOUT_MS);
  });

  it('causeChain: the causes below the error, bounded, loop-safe, thrown values as text', () => {
    assert.deepEqual(causeChain(new Error('alone')), []);
    assert.deepEqual(causeChain('not an error'), []);
    assert.deepEqual(causeChain(new Error('top', { cause: { code: 42 } })), [{ name: 'value', message: '{"code":42}' }]);
    let deep: Error = new Error('0');
    for (let i = 1; i < 10; i++) deep = new Error(String(i), { cause: deep });
    assert.equal(causeChain(deep).length, MAX_CAUSE_DEPTH);
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    assert.deepEqual(
      causeChain(a).map((c) => c.message),
      ['b'],
    );
    const listed = new AgentError('UNKNOWN', 'x', { causes: [{ name: 'E', message: 'm' }] });
    assert.deepEqual(causeChain(listed), [{ name: 'E', message: 'm' }]);
  });

  it('toRunError: AgentErrors pass through; other errors get their causes in details', () => {
    const own = new AgentError('VALIDATION', 'mine');
    assert.equal(toRunError(own), own);
    const wrapped = toRunError(new Error('outer', { cause: new RangeError('inner') }));
    assert.deepEqual(wrapped.toJSON(), {
      error_code: 'UNKNOWN',
      message: 'outer',
      details: { causes: [{ name: 'RangeError', message: 'inner' }] },
    });
    assert.deepEqual(toRunError(new Error('plain')).details, {});
  });

  it('outputFields: objects as they are, other values as { result: text }, nothing is CONFIG', () => {
    const fields = { a: 1 };
    assert.equal(outputFields('parseResult', fields), fields);
    assert.deepEqual(outputFields('parseResult', 'x'), { result: 'x' });
    assert.deepEqual(outputFields('parseResult', false), { result: 'false' });
    assert.deepEqual(outputFields('parseResult', 12n), { result: '12' });
    assert.deepEqual(outputFields('postExecute', [1, { b: 2 }]), { result: '[1,{"b":2}]' });
    for (const bad of [undefined, () => 1, Symbol('s')]) {
      assert.throws(
        () => outputFields('postExecute', bad),
        (e: unknown) => e instanceof AgentError && e.error_code === 'CONFIG' && /^postExecute: returned /.test(e.message),
      );
    }
    const loop: unknown[] = [];
    loop.push(loop);
    assert.throws(() => outputFields('parseResult', loop), /parseResult: returned .*no JSON form/);
    assert.throws(() => preparedInputs(['a']), /preExecute: must return an object of inputs, got \["a"\]/);
  });

  it('checkInputValues: JSON data, Dates and shared (not circular) references pass; the first bad path leads', () => {
    const shared = { k: 1 };
    checkInputValues({
      a: shared,
      b: shared,
      when: new Date(0),
      err: new AgentError('UNKNOWN', 'x'),
      gone: undefined,
      list: [1, null, 'x'],
    });
    let nested: Record<string, unknown> = {};
    const root = nested;
    for (let i = 0; i < MAX_INPUT_DEPTH + 2; i++) nested = (nested.n = {}) as Record<string, unknown>;
    assert.throws(() => checkInputValues({ root }), /nested more than 64 levels deep/);
    try {
      checkInputValues({ ok: 'x', list: [1, () => 2], n: Number.NaN });
      assert.fail('expected a VALIDATION error');
    } catch (e) {
      assert.ok(e instanceof AgentError && e.error_code === 'VALIDATION');
      assert.match(e.message, /^list\[1\]: is a function/);
      assert.match(e.message, /and 1 more: n: is NaN/);
      assert.deepEqual(e.details.fields, ['list[1]', 'n']);
    }
  });

  it('describeValue, mergeTargets and toolUsesWorkspace', () => {
    assert.equal(describeValue('continue'), '"continue"');
    assert.equal(describeValue(undefined), 'undefined');
    assert.equal(
      describeValue(() => 1),
      'a function',
    );
    assert.equal(describeValue(5n), '5n');
    assert.deepEqual(mergeTargets({ executionP95Ms: 500, agentCreationP95Ms: 200 }, { executionP95Ms: 1000 }), {
      executionP95Ms: 1000,
      agentCreationP95Ms: 200,
    });
    assert.equal(mergeTargets({ agentCreationP95Ms: 200 }, { agentCreationP95Ms: undefined }).agentCreationP95Ms, undefined);
    assert.equal(toolUsesWorkspace({ category: 'file' }), true);
    assert.equal(toolUsesWorkspace({ category: 'custom' }), true);
    assert.equal(toolUsesWorkspace({ category: 'custom', usesWorkspace: false }), false);
    assert.equal(toolUsesWorkspace({ category: 'http' }), false);
    assert.equal(toolUsesWorkspace({ category: 'mcp', usesWorkspace: true }), true);
  });
});
