import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { AuditTrail, closeSharedAuditFiles } from '../../../src/core/audit/auditTrail';
import { BaseAgent } from '../../../src/core/agentRuntime/baseAgent';
import { PerformanceMetrics } from '../../../src/core/metrics/performanceMetrics';
import type { RecordedRequest } from '../../support/openaiServer';
import { useLoopback } from './loopback';

describe('batch processing, metrics and audit trail against the loopback server', () => {
  const lb = useLoopback();
  afterEach(() => lb.server.setFallback(undefined));

  /** Echoes the user message back, failing for inputs containing "fail". */
  const echo = (req: RecordedRequest) => {
    const content = String(req.body.messages.at(-1).content);
    return content.includes('fail') ? { error: { status: 400, message: `refused ${content}` } } : { text: `echo ${content}` };
  };

  it('returns results in input order with per-item errors; one failure does not stop the batch', async () => {
    lb.server.setFallback(echo);
    const agent = new BaseAgent({ llm: lb.llm, config: { model: 'm', batchProcessing: true, batchConcurrency: 3 } });
    const items = ['a', 'b', 'fail-c', 'd', 'e'].map((prompt) => ({ prompt }));
    const batch = await agent.executeBatch(items);
    assert.deepEqual(
      batch.results.map((r) => r.index),
      [0, 1, 2, 3, 4],
    );
    assert.deepEqual(
      batch.results.map((r) => (r.ok ? r.value.response : r.error.error_code)),
      ['echo a', 'echo b', 'INVALID_REQUEST', 'echo d', 'echo e'],
    );
    assert.equal(batch.metadata.total, 5);
    assert.equal(batch.metadata.succeeded, 4);
    assert.equal(batch.metadata.failed, 1);
    assert.equal(batch.metadata.concurrency, 3);
  });

  it('with errorHandling on, structured item errors still count as failures', async () => {
    lb.server.setFallback(echo);
    const agent = new BaseAgent({ llm: lb.llm, config: { model: 'm', batchProcessing: true, errorHandling: true } });
    const batch = await agent.executeBatch([{ prompt: 'fail' }, { prompt: 'ok' }], { concurrency: 1 });
    assert.equal(batch.results[0]!.ok, false);
    assert.equal(batch.results[1]!.ok, true);
  });

  it('needs batchProcessing and a valid concurrency', async () => {
    const off = new BaseAgent({ llm: lb.llm, config: { model: 'm' } });
    await assert.rejects(
      off.executeBatch([{ prompt: 'x' }]),
      (e: any) => e.error_code === 'CONFIG' && /batchProcessing/.test(e.message),
    );
    const on = new BaseAgent({ llm: lb.llm, config: { model: 'm', batchProcessing: true } });
    await assert.rejects(
      on.executeBatch([{ prompt: 'x' }], { concurrency: 0 }),
      (e: any) => e.error_code === 'VALIDATION' && /concurrency/.test(e.message),
    );
    await assert.rejects(on.executeBatch('x' as never), (e: any) => e.error_code === 'VALIDATION');
  });

  it('cancellation stops new items from starting; they come back CANCELLED', async () => {
    const controller = new AbortController();
    let served = 0;
    lb.server.setFallback((req) => {
      if (++served === 2) controller.abort();
      return echo(req);
    });
    const agent = new BaseAgent({ llm: lb.llm, config: { model: 'm', batchProcessing: true } });
    const batch = await agent.executeBatch(
      Array.from({ length: 20 }, (_, i) => ({ prompt: `p${i}` })),
      { concurrency: 1, signal: controller.signal },
    );
    assert.ok(batch.metadata.cancelled >= 17, `cancelled ${batch.metadata.cancelled}`);
    assert.equal(batch.results.at(-1)!.ok, false);
    assert.equal((batch.results.at(-1) as any).error.error_code, 'CANCELLED');
    assert.ok(served <= 3);
  });

  it('1,000 items finish in order with bounded memory, and metrics record them', async function () {
    this.timeout(120_000);
    lb.server.setFallback(echo);
    const metrics = new PerformanceMetrics();
    const agent = new BaseAgent({
      llm: lb.llm,
      metrics,
      config: { model: 'm', batchProcessing: true, batchConcurrency: 8, performanceTracking: true },
    });
    const heapBefore = process.memoryUsage().heapUsed;
    const batch = await agent.executeBatch(Array.from({ length: 1000 }, (_, i) => ({ prompt: `item ${i}` })));
    const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
    assert.equal(batch.metadata.succeeded, 1000);
    assert.ok(batch.results.every((r, i) => r.ok && r.value.response === `echo item ${i}`));
    assert.ok(heapGrowth < 150 * 1024 * 1024, `heap grew by ${Math.round(heapGrowth / 1048576)} MB`);
    const snap = metrics.snapshot();
    assert.equal(snap.execution.count, 1000);
    assert.equal(snap.execution.successRate, 1);
    assert.ok(snap.execution.p95 >= snap.execution.p50);
    assert.ok(snap.tokens.totalTokens > 0);
    assert.equal(snap.agentCreation.count, 1);
    assert.deepEqual(agent.performanceTargets(), { frameworkInitMs: 100, agentCreationP95Ms: 200, executionP95Ms: 500 });
  });

  it('audit trail: one redacted JSON line per execution, to a stream or a file', async () => {
    const out = new PassThrough();
    const chunks: string[] = [];
    out.on('data', (c) => chunks.push(String(c)));
    const agent = new BaseAgent({
      llm: lb.llm,
      audit: new AuditTrail(out),
      config: { model: 'm', auditTrail: true, errorHandling: true },
    });
    lb.server.enqueue({ text: 'audited' }, { error: { status: 500, message: 'down' } });
    await agent.execute({ prompt: 'my api_key=abcdef1234567890 please' });
    await agent.execute({ prompt: 'second' });
    const lines = chunks
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(lines.length, 2);
    assert.equal(lines[0].agentId, agent.id);
    assert.ok(!Number.isNaN(Date.parse(lines[0].timestamp)));
    assert.equal(lines[0].outputs.response, 'audited');
    assert.ok(!JSON.stringify(lines[0].inputs).includes('abcdef1234567890'));
    assert.ok(lines[0].usage.totalTokens > 0);
    assert.equal(typeof lines[0].durationMs, 'number');
    assert.equal(lines[1].error.error_code, 'UNKNOWN');

    const dir = await mkdtemp(join(tmpdir(), 'audit-'));
    try {
      const path = join(dir, 'nested', 'audit.jsonl');
      const a = new BaseAgent({ llm: lb.llm, config: { model: 'm', auditTrail: true, auditPath: path } });
      const b = new BaseAgent({ llm: lb.llm, config: { model: 'm', auditTrail: true, auditPath: path } });
      lb.server.enqueue({ text: 'one' }, { text: 'two' });
      await a.execute({ prompt: 'x' });
      await b.execute({ prompt: 'y' });
      await closeSharedAuditFiles();
      const fileLines = (await readFile(path, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.deepEqual(
        fileLines.map((l) => l.agentId),
        [a.id, b.id],
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('auditTrail without a sink is a CONFIG error naming the field', () => {
    assert.throws(
      () => new BaseAgent({ llm: lb.llm, config: { auditTrail: true } }),
      (e: any) => e.error_code === 'CONFIG' && /auditTrail/.test(e.message),
    );
  });

  it('an audit stream that fails is logged once and never breaks the run', async () => {
    const out = new PassThrough();
    const trail = new AuditTrail(out);
    out.destroy(new Error('disk full'));
    await new Promise((r) => setImmediate(r));
    const agent = new BaseAgent({ llm: lb.llm, audit: trail, config: { model: 'm', auditTrail: true } });
    lb.server.enqueue({ text: 'fine' });
    assert.equal((await agent.execute({ prompt: 'x' })).response, 'fine');
    assert.ok(lb.logs.some((r) => r.scope === 'audit' && r.level === 'error'));
    trail.record({
      circular: (() => {
        const o: any = {};
        o.self = o;
        return o;
      })(),
    });
    await trail.close();
  });
});
