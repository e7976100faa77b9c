/**
 * Agent-core benchmarks (`npm run bench`): runs against the loopback OpenAI test server in this process,
 * prints a table and rewrites the agent-core section of docs/benchmarks.md (between the
 * `<!-- bench:agent-core:start -->` / `<!-- bench:agent-core:end -->` markers; everything else is kept).
 *
 * Then runs, each writing its own section: bench/promptTokens.ts (prompt tokens per green commit, cacheable prefix),
 * bench/supervisorOverhead.ts (supervisor work per phase beyond its test runs), bench/agentVsSdk.ts (one answer and a
 * five-call tool loop against bare SDK calls) and bench/projectPrompts.ts (prompt tokens and requests per green cycle
 * of sessions on the project fixtures, and the output an edit costs).
 *
 * Numbers are measured, not asserted: each is compared with its target in the table.
 */
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import OpenAI from 'openai';
import { BaseAgent } from '../src/core/agentRuntime/baseAgent';
import type { AgentLifecycle } from '../src/core/agentRuntime/lifecycle';
import { QAAgent } from '../src/core/builtinAgents/qaAgent';
import { ReActAgent } from '../src/core/builtinAgents/reactAgent';
import { createOpenAIClient } from '../src/core/llm';
import type { LlmClient, LlmResult } from '../src/core/llm/types';
import { setLogLevel } from '../src/core/logging/logger';
import { percentile } from '../src/core/metrics/percentile';
import type { AgentToolbox } from '../src/core/tools/types';
import { startOpenAIServer } from '../test/support/openaiServer';
import { agentVsSdkBench } from './agentVsSdk';
import { projectPromptsBench } from './projectPrompts';
import { promptTokensBench } from './promptTokens';
import { supervisorOverheadBench } from './supervisorOverhead';

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;
const START = '<!-- bench:agent-core:start -->';
const END = '<!-- bench:agent-core:end -->';
const DOC = join(__dirname, '..', 'docs', 'benchmarks.md');

interface Row {
  figure: string;
  value: string;
  target: string;
  met: boolean;
  note: string;
}

const median = (values: number[]) => percentile(values, 50);
const fmt = (n: number, digits = 3) => n.toFixed(digits);

async function main(): Promise<void> {
  setLogLevel('error');
  const server = await startOpenAIServer();
  server.setFallback({ text: 'ok', usage: { prompt_tokens: 5, completion_tokens: 1 } });
  const llm = createOpenAIClient({ baseURL: server.baseURL, apiKey: 'bench-key', maxRetries: 0 });
  const rows: Row[] = [];
  try {
    rows.push(constructionP95(llm));
    rows.push(...(await callOverhead(server.baseURL, llm)));
    rows.push(memoryPerAgent(llm));
    rows.push(await multiCycleOverhead());
  } finally {
    await server.close();
  }
  const table = renderTable(rows);
  process.stdout.write(`${table}\n`);
  await writeDoc(table);
  process.stdout.write(`\nwrote ${DOC}\n`);
  // Issue 14's four figures, each in its own section of the doc.
  await promptTokensBench();
  await supervisorOverheadBench();
  await agentVsSdkBench();
  // Issue 24's figures on the project fixtures (installs each once per machine and lockfile).
  await projectPromptsBench();
}

/** Agent construction: p95 over 5,000 QAAgent constructions after warm-up. */
function constructionP95(llm: LlmClient): Row {
  for (let i = 0; i < 500; i++) new QAAgent({ llm, config: { model: 'm' } });
  const samples: number[] = [];
  for (let i = 0; i < 5000; i++) {
    const t = performance.now();
    new QAAgent({ llm, config: { model: 'm' } });
    samples.push(performance.now() - t);
  }
  const p95 = percentile(samples, 95);
  return {
    figure: 'Agent construction p95 (QAAgent)',
    value: `${fmt(p95)} ms (p50 ${fmt(median(samples))} ms)`,
    target: '< 1 ms (seed: 100 ms)',
    met: p95 < 1,
    note: '5,000 constructions',
  };
}

/**
 * Per-call overhead: the same one-message request through a bare `openai` SDK call, the project LLM client,
 * and BaseAgent with 0, 1 and 5 hook sets (every hook a passthrough), interleaved round-robin (order
 * alternating) so drift hits all alike. Each figure is the median of the per-round paired differences,
 * relative to the median bare SDK call. The agent core's own cost is also timed against an instant
 * in-process model, where the network cannot hide or blur it.
 */
async function callOverhead(baseURL: string, llm: LlmClient): Promise<Row[]> {
  const sdk = new OpenAI({ baseURL, apiKey: 'bench-key', maxRetries: 0 });
  const passthrough = (i: number): AgentLifecycle => ({
    name: `bench-${i}`,
    beforeAgent: () => undefined,
    beforeModel: () => undefined,
    wrapModelCall: (next) => next(),
    afterModel: () => undefined,
    afterAgent: () => undefined,
  });
  const makeAgents = (client: LlmClient) => ({
    none: new BaseAgent({ llm: client, config: { model: 'm', logging: false } }),
    one: new BaseAgent({ llm: client, config: { model: 'm', logging: false }, lifecycle: [passthrough(1)] }),
    five: new BaseAgent({ llm: client, config: { model: 'm', logging: false }, lifecycle: [1, 2, 3, 4, 5].map(passthrough) }),
  });
  const agents = makeAgents(llm);
  const messages = [{ role: 'user' as const, content: 'ping' }];
  const variants: Record<string, () => Promise<unknown>> = {
    bare: () => sdk.chat.completions.create({ model: 'm', messages }),
    client: () => llm.call({ model: 'm', messages }),
    none: () => agents.none.execute({ prompt: 'ping' }),
    one: () => agents.one.execute({ prompt: 'ping' }),
    five: () => agents.five.execute({ prompt: 'ping' }),
  };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, [] as number[]]));
  const rounds = 600;
  for (let r = -50; r < rounds; r++) {
    const order = Object.keys(variants);
    if (r % 2) order.reverse();
    for (const name of order) {
      const t = performance.now();
      await variants[name]!();
      if (r >= 0) times[name]!.push(performance.now() - t);
    }
  }
  const paired = (a: string, b: string) => median(times[a]!.map((v, i) => v - times[b]![i]!));
  const bare = median(times.bare!);
  const pct = (delta: number) => (delta / bare) * 100;
  const own = await instantCost(makeAgents);
  const total = paired('none', 'bare');
  const one = paired('one', 'none');
  const five = paired('five', 'none');
  const us = (ms: number) => `${ms >= 0 ? '+' : ''}${fmt(ms * 1000, 0)} µs`;
  return [
    {
      figure: 'Overhead per model call vs bare `openai` SDK call',
      value: `${fmt(pct(total), 1)} % (${us(total)})`,
      target: '< 5 %',
      met: pct(total) < 5,
      note:
        `${rounds} interleaved rounds, bare SDK call median ${fmt(bare)} ms; of this the project LLM client ${fmt(pct(paired('client', 'bare')), 1)} %, ` +
        `the agent core ${fmt(pct(paired('none', 'client')), 1)} %; agent core alone against an instant model: ${fmt(own.none * 1000, 1)} µs = ${fmt(pct(own.none), 2)} %`,
    },
    {
      figure: 'Extra cost of 1 registered hook set (all six hooks)',
      value: `${fmt(pct(one), 1)} % (${us(one)})`,
      target: '< 1 %',
      met: pct(one) < 1,
      note: `vs the same agent with no hooks; against an instant model: ${us(own.one - own.none)} = ${fmt(pct(own.one - own.none), 2)} % of a bare call`,
    },
    {
      figure: 'Extra cost of 5 registered hook sets',
      value: `${fmt(pct(five), 1)} % (${us(five)})`,
      target: '< 3 %',
      met: pct(five) < 3,
      note: `vs the same agent with no hooks; against an instant model: ${us(own.five - own.none)} = ${fmt(pct(own.five - own.none), 2)} % of a bare call`,
    },
  ];
}

/** Ms per execution of each agent against an instant in-process client: median of interleaved 2,000-call blocks. */
async function instantCost(
  makeAgents: (client: LlmClient) => Record<'none' | 'one' | 'five', BaseAgent>,
): Promise<Record<'none' | 'one' | 'five', number>> {
  const answer: LlmResult = {
    text: 'ok',
    toolCalls: [],
    finishReason: 'stop',
    usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
    model: 'm',
    latencyMs: 0,
  };
  const agents = makeAgents({ provider: 'replay', call: async () => answer });
  const blocks: Record<'none' | 'one' | 'five', number[]> = { none: [], one: [], five: [] };
  const names = ['none', 'one', 'five'] as const;
  for (let block = -2; block < 12; block++) {
    for (const name of block % 2 ? [...names].reverse() : names) {
      const n = 2000;
      const t = performance.now();
      for (let i = 0; i < n; i++) await agents[name].execute({ prompt: 'ping' });
      if (block >= 0) blocks[name].push((performance.now() - t) / n);
    }
  }
  const out = { none: median(blocks.none), one: median(blocks.one), five: median(blocks.five) };
  return out;
}

/** Heap per agent with 1,000 QAAgents alive (after forced GC before and after). */
function memoryPerAgent(llm: LlmClient): Row {
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const alive = Array.from({ length: 1000 }, () => new QAAgent({ llm, config: { model: 'm' } }));
  gc();
  gc();
  const perAgent = (process.memoryUsage().heapUsed - before) / alive.length;
  return {
    figure: 'Memory per agent instance (1,000 alive)',
    value: `${fmt(perAgent / 1024, 2)} KB`,
    target: '< 50 KB',
    met: perAgent < 50 * 1024,
    note: `heapUsed delta after GC, ${alive.length} agents`,
  };
}

/**
 * Multi-cycle overhead per cycle, excluding model time: a 50-cycle ReAct run against an in-process client
 * that answers instantly (a canned tool call, then the answer) and a toolbox that answers instantly, so what
 * is timed is the agent's own work per cycle (window, events, history, hooks-free fast path).
 */
async function multiCycleOverhead(): Promise<Row> {
  const cycles = 50;
  let calls = 0;
  const result = (final: boolean): LlmResult => ({
    text: final ? 'done' : 'thinking',
    toolCalls: final ? [] : [{ id: `c${calls}`, name: 'echo', arguments: '{"text":"hello world"}' }],
    finishReason: final ? 'stop' : 'tool_calls',
    usage: { promptTokens: 10, completionTokens: 2, totalTokens: 12 },
    model: 'instant',
    latencyMs: 0,
  });
  const instant: LlmClient = {
    provider: 'replay',
    call: async () => result(++calls % cycles === 0),
  };
  const toolbox: AgentToolbox = {
    toolSpecs: () => [
      {
        type: 'function',
        function: { name: 'echo', description: 'echo', parameters: { type: 'object', properties: { text: { type: 'string' } } } },
      },
    ],
    executeCall: async (call) => ({
      toolName: call.name,
      callId: call.id,
      ok: true,
      content: 'observation '.repeat(40),
      approval: 'auto',
      durationMs: 0,
    }),
  };
  const agent = new ReActAgent({ llm: instant, toolbox, config: { model: 'instant', maxCycles: cycles, logging: false } });
  for (let i = 0; i < 5; i++) await agent.execute({ task: 'warm up' });
  const perCycle: number[] = [];
  for (let i = 0; i < 40; i++) {
    const t = performance.now();
    const r = await agent.execute({ task: 'bench' });
    perCycle.push((performance.now() - t) / (r.metadata.cycles ?? cycles));
  }
  const m = median(perCycle);
  return {
    figure: 'Multi-cycle overhead per cycle (model time excluded)',
    value: `${fmt(m)} ms (p95 ${fmt(percentile(perCycle, 95))} ms)`,
    target: '< 1 ms',
    met: m < 1,
    note: `40 ReAct runs × ${cycles} cycles, instant in-process model and tool`,
  };
}

function renderTable(rows: Row[]): string {
  const lines = ['| Figure | Measured | Target | Met | How |', '|---|---|---|---|---|'];
  for (const r of rows) lines.push(`| ${r.figure} | ${r.value} | ${r.target} | ${r.met ? 'yes' : '**no**'} | ${r.note} |`);
  return lines.join('\n');
}

async function writeDoc(table: string): Promise<void> {
  const cpus = os.cpus();
  const section = [
    START,
    '## Agent core',
    '',
    'Reproduce: `npm run bench` (runs `tsx bench/run.ts`: a loopback OpenAI-compatible server in the same process, the real `openai` SDK).',
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${cpus[0]?.model ?? 'unknown CPU'} × ${cpus.length}, ${fmt(os.totalmem() / 1024 ** 3, 1)} GB RAM, ${os.platform()} ${os.release()}`,
    `- Node ${process.version}`,
    '',
    table,
    '',
    'Notes: call overhead compares medians of interleaved rounds in one run (a loopback call takes about a millisecond, so a few',
    'tens of microseconds are a few percent). The agent path includes the project LLM client (retry loop, error mapping, result',
    'normalisation) on top of the SDK. Shared machines are noisy; rerun before drawing conclusions from one figure.',
    END,
  ].join('\n');
  let doc: string;
  try {
    doc = await readFile(DOC, 'utf8');
  } catch {
    doc = [
      '# Benchmarks',
      '',
      'Measured figures, each against its target. Sections are written by their own scripts; a script rewrites only',
      'the part between its markers.',
      '',
      START,
      END,
      '',
      '<!-- bench:extension:start -->',
      '## VS Code extension',
      '',
      '_Activation time of the extension: to be added by the extension benchmark._',
      '<!-- bench:extension:end -->',
      '',
    ].join('\n');
  }
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  doc =
    start >= 0 && end > start ? doc.slice(0, start) + section + doc.slice(end + END.length) : `${doc.trimEnd()}\n\n${section}\n`;
  await writeFile(DOC, doc);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
