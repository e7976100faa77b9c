import assert from 'node:assert/strict';
import { ConversationWindow, capText } from '../../../src/core/agentRuntime/strategies/conversationWindow';
import { MultiCycleStrategy } from '../../../src/core/agentRuntime/strategies/multiCycle';
import { HookRunner } from '../../../src/core/agentRuntime/hookRunner';
import { runBatch } from '../../../src/core/batch/runBatch';
import { checkTargets, PerformanceMetrics } from '../../../src/core/metrics/performanceMetrics';
import { percentile } from '../../../src/core/metrics/percentile';

describe('agent features (unit)', () => {
  it('percentile uses nearest rank and leaves the input alone', () => {
    const values = [5, 1, 4, 2, 3];
    assert.equal(percentile(values, 50), 3);
    assert.equal(percentile(values, 95), 5);
    assert.equal(percentile(values, 0), 1);
    assert.equal(percentile([], 50), 0);
    assert.deepEqual(values, [5, 1, 4, 2, 3]);
  });

  it('metrics keep a bounded window and report success rate and tokens; targets are checked', () => {
    const m = new PerformanceMetrics({ window: 10 });
    for (let i = 1; i <= 100; i++)
      m.recordExecution({ durationMs: i, success: i % 4 !== 0, usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 } });
    m.recordAgentCreation(0.5);
    m.recordFrameworkInit(12);
    const s = m.snapshot();
    assert.equal(s.execution.count, 100);
    assert.equal(s.execution.p50, 95, 'percentiles over the last 10 samples');
    assert.equal(s.execution.successRate, 0.75);
    assert.equal(s.execution.mean, 50.5);
    assert.equal(s.tokens.totalTokens, 300);
    assert.equal(s.frameworkInitMs, 12);
    assert.deepEqual(checkTargets(s, { executionP95Ms: 1000, agentCreationP95Ms: 1, minSuccessRate: 0.5 }), []);
    const misses = checkTargets(s, { executionP95Ms: 10, agentCreationP95Ms: 0.1, minSuccessRate: 0.9 });
    assert.equal(misses.length, 3);
    assert.match(misses[0]!, /executionP95Ms/);
    assert.equal(new PerformanceMetrics().snapshot().execution.successRate, 0);
  });

  it('conversation window keeps recent cycles verbatim and summarises older ones with a marker', () => {
    const w = new ConversationWindow({ keepRecentCycles: 2, maxSummaryLines: 2, summaryLineChars: 30 });
    const head = [{ role: 'system' as const, content: 'sys' }];
    assert.deepEqual(w.build(head), head);
    for (let i = 1; i <= 5; i++)
      w.add({ messages: [{ role: 'user', content: `c${i}` }], summary: `cycle ${i}:\n${'x'.repeat(50)}` });
    const msgs = w.build(head);
    assert.equal(w.truncatedCycles, 3);
    assert.equal(msgs.length, 4);
    const marker = String(msgs[1]!.content);
    assert.match(marker, /Context truncated: 3 earlier cycle/);
    assert.match(marker, /1 older cycle summaries omitted/);
    assert.match(marker, /- cycle 3: x+ \[\.\.\. truncated \d+ chars\]/);
    assert.deepEqual(
      msgs.slice(2).map((m) => m.content),
      ['c4', 'c5'],
    );
    assert.equal(capText('short', 10), 'short');
  });

  it('runBatch keeps order under concurrency and reports per-item errors', async () => {
    let inFlight = 0;
    let peak = 0;
    const result = await runBatch(
      [30, 10, 20, 0, 5],
      async (ms, i) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setTimeout(r, ms));
        inFlight--;
        if (i === 3) throw new Error('item 3 broke');
        return ms * 2;
      },
      { concurrency: 2 },
    );
    assert.ok(peak <= 2);
    assert.deepEqual(
      result.results.map((r) => (r.ok ? r.value : r.error.message)),
      [60, 20, 40, 'item 3 broke', 10],
    );
    assert.equal(result.metadata.failed, 1);
    const empty = await runBatch([], async () => 1);
    assert.equal(empty.metadata.total, 0);
    await assert.rejects(
      runBatch([1], async () => 1, { concurrency: 65 }),
      /concurrency/,
    );
  });

  it('MultiCycleStrategy rejects a bad maxCycles; a hook runner reports its size and has no tool wrapper without wrap hooks', () => {
    assert.throws(
      () => new MultiCycleStrategy({ maxCycles: 0 }),
      (e: any) => e.error_code === 'CONFIG' && /maxCycles/.test(e.message),
    );
    const runner = new HookRunner([{ name: 'a', afterAgent: () => undefined }]);
    assert.equal(runner.size, 1);
    assert.equal(runner.toolCallWrapper(), undefined);
  });
});
