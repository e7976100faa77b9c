/**
 * The agent core against a bare `openai` SDK call on loopback (`npm run bench`, called from bench/run.ts; or alone
 * with `tsx bench/agentVsSdk.ts`), interleaved in one run, as ratios of medians:
 * - one answer: `BaseAgent.execute` (the project LLM client, output validation, hooks path, events) vs one
 *   `chat.completions.create`;
 * - a five-call tool loop: a `ReActAgent` with a real `ToolExecutor` (zod validation of the arguments, approval policy,
 *   result memory, events) making five tool calls and then answering, vs the same six requests made with the bare
 *   SDK, the tool called as a plain function in between.
 * Both sides talk to the same loopback OpenAI-compatible server with the same scripted answers; rounds alternate
 * their order so drift hits both alike.
 *
 * Rewrites only the part of docs/benchmarks.md between `<!-- bench:agent-vs-sdk:start -->` and
 * `<!-- bench:agent-vs-sdk:end -->`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { z } from 'zod';
import { execFileSync } from 'node:child_process';
import type { ChatMessage } from '../src/core/llm/types';
import { percentile } from '../src/core/metrics/percentile';
import { redactSecrets } from '../src/core/security/redact';
import { toToolSpecs } from '../src/core/tools/toolSpecs';
import { defineTool } from '../src/core/tools/types';
import type { RecordedRequest } from '../test/support/openaiServer';
import { startOpenAIServer } from '../test/support/openaiServer';
import { machineLines, publishSection } from './benchDoc';
import { ratioInterval } from './ratioInterval';

const TOOL_CALLS = 5;

/**
 * The agent side is the core as it ships (`dist/core/index.cjs`, the esbuild bundle of `tdd-agent/core`, built here
 * first), not its TypeScript sources run through tsx: tsx wraps every named function expression in a renaming call,
 * which a hot path making a few closures per call pays for on every call and the bundle does not. The floors stay
 * hand-written in this file.
 */
function shippedCore(): typeof import('../src/core/index') {
  const root = join(__dirname, '..');
  execFileSync(process.execPath, ['esbuild.config.mjs', '--only=lib'], { cwd: root, stdio: 'ignore' });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(join(root, 'dist', 'core', 'index.cjs')) as typeof import('../src/core/index');
}
const { BaseAgent, ReActAgent, createOpenAIClient, setLogLevel, ApprovalPolicy, ToolExecutor, ToolRegistry } = shippedCore();

/** A variant of the bench: one answer or one loop, made some way. */
export type AgentVsSdkVariant = Exclude<keyof AgentVsSdkFigures, 'rounds' | 'ratio' | 'overFloor'>;

/**
 * The figures: medians in ms of each variant, the rounds they come from, and each variant's ratio to the bare SDK
 * of its comparison: the median over rounds of the round's own ratio. The variants of one round run back to back, so
 * the machine's drift (a shared host speeds up and slows down over seconds) cancels in each pair.
 */
export interface AgentVsSdkFigures {
  rounds: number;
  ratio: Record<AgentVsSdkVariant, number>;
  /**
   * Issue 24's figures, the agent's ratio over its floor's, with the 95 % bootstrap interval of each over the rounds
   * of this run (bench/ratioInterval.ts).
   */
  overFloor: Record<'answer' | 'loop', { value: number; interval: [number, number] }>;
  bareAnswer: number;
  /** The floor of a safe call: the bare call with a per-call timeout and cancellation signal handed to the SDK. */
  safeAnswer: number;
  /** The project LLM client alone (`LlmClient.call`), the same messages: the share of the ratio that is the client's. */
  clientAnswer: number;
  agentAnswer: number;
  bareLoop: number;
  /**
   * The floor of a safe loop, hand-written on the bare SDK: what the issue says to keep and nothing else (a per-call
   * timeout and cancellation signal, zod validation of the arguments, redaction of the result).
   */
  safeLoop: number;
  /** The bare loop with the project LLM client instead of the SDK (the tool still a plain function). */
  clientLoop: number;
  /** The client loop with every tool call made through the real ToolExecutor (no agent around it). */
  executorLoop: number;
  agentLoop: number;
}

/** The tool both loops call: adds two numbers (a SAFE tool, so the policy allows it without asking). */
const addTool = defineTool({
  name: 'add',
  description: 'Add two numbers.',
  category: 'custom',
  dangerLevel: 'SAFE',
  parameters: z.object({ a: z.number().describe('first'), b: z.number().describe('second') }),
  async execute({ a, b }) {
    return { content: String(a + b) };
  },
});

/** Scripted answers: in a conversation with fewer than five tool results, one more `add` call; then the answer. */
function reply(req: RecordedRequest) {
  const results = (req.body?.messages ?? []).filter((m: { role: string }) => m.role === 'tool').length;
  if (req.body?.tools?.length && results < TOOL_CALLS)
    return {
      toolCalls: [{ id: `call_${results + 1}`, name: 'add', arguments: { a: results, b: 1 } }],
      usage: { prompt_tokens: 20, completion_tokens: 5 },
    };
  return { text: results ? `Final Answer: ${results}` : 'ok', usage: { prompt_tokens: 5, completion_tokens: 1 } };
}

/** Runs both comparisons interleaved and returns the medians. */
export async function measureAgentVsSdk(rounds = Number(process.env.BENCH_AGENT_ROUNDS ?? 300)): Promise<AgentVsSdkFigures> {
  const server = await startOpenAIServer();
  server.setFallback(reply);
  const workspace = await mkdtemp(join(os.tmpdir(), 'tdd-bench-agent-'));
  try {
    const sdk = new OpenAI({ baseURL: server.baseURL, apiKey: 'bench-key', maxRetries: 0 });
    const llm = createOpenAIClient({ baseURL: server.baseURL, apiKey: 'bench-key', maxRetries: 0 });
    const registry = new ToolRegistry().register(addTool);
    const toolbox = new ToolExecutor({ registry, workspaceRoot: workspace, policy: new ApprovalPolicy({}), preview: false });
    const answerAgent = new BaseAgent({ llm, config: { model: 'm', logging: false } });
    const loopAgent = new ReActAgent({ llm, toolbox, config: { model: 'm', maxCycles: TOOL_CALLS + 2, logging: false } });
    const tools = toToolSpecs(registry.list());
    const plain = { add: ({ a, b }: { a: number; b: number }) => String(a + b) };

    // The bare side sends the very messages the agents send (their system prompt and user message, taken from
    // one agent call of each kind), so the comparison is of the code around the request, not of its size.
    const firstMessages = async (run: () => Promise<unknown>): Promise<ChatMessage[]> => {
      const from = server.chatRequests().length;
      await run();
      return structuredClone(server.chatRequests()[from]!.body.messages as ChatMessage[]);
    };
    const answerMessages = await firstMessages(() => answerAgent.execute({ prompt: 'ping' }));
    const loopMessages = await firstMessages(() => loopAgent.execute({ task: 'Add one five times.' }));

    // A call with the least a safe client needs: a deadline and a way to cancel, as an AbortSignal the SDK follows.
    const safeCall = async <T>(call: (signal: AbortSignal) => Promise<T>): Promise<T> => {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 60_000);
      try {
        return await call(controller.signal);
      } finally {
        clearTimeout(timer);
      }
    };
    const sdkLoop = async (safe: boolean) => {
      const messages: ChatMessage[] = structuredClone(loopMessages);
      for (;;) {
        const res = safe
          ? await safeCall((signal) => sdk.chat.completions.create({ model: 'm', messages, tools }, { signal }))
          : await sdk.chat.completions.create({ model: 'm', messages, tools });
        const msg = res.choices[0]!.message;
        const calls = (msg.tool_calls ?? []).filter((c) => c.type === 'function');
        if (!calls.length) return msg.content;
        messages.push({ role: 'assistant', content: msg.content ?? null, tool_calls: calls });
        for (const c of calls) {
          const args: unknown = JSON.parse(c.function.arguments);
          let content: string;
          if (!safe) content = plain.add(args as { a: number; b: number });
          else {
            const valid = addTool.parameters.safeParse(args);
            content = valid.success ? redactSecrets(plain.add(valid.data)) : `Error: ${valid.error.message}`;
          }
          messages.push({ role: 'tool', tool_call_id: c.id, content });
        }
      }
    };
    // The loop without the agent, in two steps, to say where the agent loop's extra time goes: the project client,
    // then the executor.
    const clientLoop = async (viaExecutor: boolean) => {
      const messages: ChatMessage[] = structuredClone(loopMessages);
      for (;;) {
        const res = await llm.call({ model: 'm', messages, tools });
        if (!res.toolCalls.length) return res.text;
        messages.push({
          role: 'assistant',
          content: res.text || null,
          tool_calls: res.toolCalls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: c.arguments },
          })),
        });
        for (const c of res.toolCalls)
          messages.push({
            role: 'tool',
            tool_call_id: c.id,
            content: viaExecutor
              ? (await toolbox.executeCall(c)).content
              : plain.add(JSON.parse(c.arguments) as { a: number; b: number }),
          });
      }
    };
    const variants: Record<AgentVsSdkVariant, () => Promise<unknown>> = {
      bareAnswer: () => sdk.chat.completions.create({ model: 'm', messages: answerMessages }),
      safeAnswer: () => safeCall((signal) => sdk.chat.completions.create({ model: 'm', messages: answerMessages }, { signal })),
      clientAnswer: () => llm.call({ model: 'm', messages: answerMessages }),
      agentAnswer: () => answerAgent.execute({ prompt: 'ping' }),
      bareLoop: () => sdkLoop(false),
      safeLoop: () => sdkLoop(true),
      clientLoop: () => clientLoop(false),
      executorLoop: () => clientLoop(true),
      agentLoop: () => loopAgent.execute({ task: 'Add one five times.' }),
    };
    // The loop must really be five calls on both sides before anything is timed.
    const before = server.chatRequests().length;
    await variants.agentLoop();
    await variants.bareLoop();
    const made = server.chatRequests().length - before;
    if (made !== 2 * (TOOL_CALLS + 1))
      throw new Error(`expected ${2 * (TOOL_CALLS + 1)} requests for the two loops, saw ${made}`);

    const times = Object.fromEntries(Object.keys(variants).map((k) => [k, [] as number[]])) as Record<
      keyof typeof variants,
      number[]
    >;
    // Each comparison interleaved within itself (the single answers, then the loops), in the same run: a loop leaves
    // ten times the garbage of one answer, and collecting it would otherwise land on whichever single call follows.
    const comparisons: Array<Array<keyof typeof variants>> = [
      ['bareAnswer', 'safeAnswer', 'clientAnswer', 'agentAnswer'],
      ['bareLoop', 'safeLoop', 'clientLoop', 'executorLoop', 'agentLoop'],
    ];
    for (const names of comparisons) {
      for (let r = -30; r < rounds; r++) {
        for (const name of r % 2 ? [...names].reverse() : names) {
          const t = performance.now();
          await variants[name]();
          if (r >= 0) times[name].push(performance.now() - t);
        }
        // The server's request log is the test server's memory, not either side's: kept, it grows by every request
        // body of a round and makes every collection of the heap slower, most for the side that allocates more.
        server.requests.length = 0;
      }
    }
    const m = (k: AgentVsSdkVariant) => percentile(times[k], 50);
    const ratio = {} as Record<AgentVsSdkVariant, number>;
    const perRound = {} as Record<AgentVsSdkVariant, number[]>;
    for (const names of comparisons) {
      const base = times[names[0]!];
      for (const k of names) {
        perRound[k] = times[k].map((t, round) => t / base[round]!);
        ratio[k] = percentile(perRound[k], 50);
      }
    }
    const overFloor = (agent: AgentVsSdkVariant, floor: AgentVsSdkVariant) => ({
      value: ratio[agent] / ratio[floor],
      interval: ratioInterval(perRound[agent], perRound[floor]),
    });
    return {
      rounds,
      ratio,
      overFloor: { answer: overFloor('agentAnswer', 'safeAnswer'), loop: overFloor('agentLoop', 'safeLoop') },
      ...(Object.fromEntries(Object.keys(variants).map((k) => [k, m(k as AgentVsSdkVariant)])) as Record<
        AgentVsSdkVariant,
        number
      >),
    };
  } finally {
    await server.close();
    await rm(workspace, { recursive: true, force: true });
  }
}

/** Issue 24's targets: the agent side within 5 % of the floor for one answer and within 10 % for the loop. */
export const AGENT_VS_SDK_TARGETS = { answer: 1.05, loop: 1.1 } as const;

/** Renders the section (between the markers). */
export function renderSection(f: AgentVsSdkFigures): string {
  const { agentAnswer: answer, clientAnswer: client, agentLoop: loop, clientLoop, safeAnswer, safeLoop, executorLoop } = f.ratio;
  // Issue 24 compares the agent with the floor, not with the bare SDK: each ratio over its floor's ratio.
  const answerOverFloor = f.overFloor.answer.value;
  const loopOverFloor = f.overFloor.loop.value;
  const over = ({ value, interval: [low, high] }: { value: number; interval: [number, number] }) =>
    `${value.toFixed(3)}× the floor; 95 % interval ${low.toFixed(3)}–${high.toFixed(3)}`;
  return [
    '## Agent core vs a bare `openai` SDK call',
    '',
    'Reproduce: `npm run bench` (or `tsx bench/agentVsSdk.ts` for this section alone): the agent core as it ships (the esbuild',
    'bundle `dist/core/index.cjs`, built first; until 2026-11-26 its TypeScript sources under tsx, whose renaming wrapper',
    'around every named closure cost the agent side a few per cent), against the loopback OpenAI-compatible server in',
    `the same process; each comparison interleaved in the same run (${f.rounds} rounds of the single answers, then ${f.rounds} of the loops), the order alternating. A ratio is the median over rounds of each round's own ratio to the bare SDK (the variants of one round run back to back, so the host's drift cancels in each pair); the milliseconds are medians.`,
    'The agent side keeps everything it does in use: the project LLM client (retries, error mapping, normalisation), output',
    'validation, the lifecycle-hook path, events, and for the loop a real ToolExecutor (zod validation of the arguments,',
    'approval policy, per-call timeout, redaction, result memory). Both sides send the same messages: the bare side replays the',
    "system prompt and user message of the agents' own first request. Issue 24's targets are relative to the floors (the bare",
    "SDK with only the guarantees the issue keeps): the Met column compares each ratio divided by its floor's ratio. The",
    "interval beside it is that figure's 95 % bootstrap interval over this run's rounds (bench/ratioInterval.ts): where it",
    'holds the target, this run cannot tell met from missed.',
    '',
    ...machineLines(),
    '',
    '| Figure | Before issue 24 | Measured | Target | Met | How |',
    '|---|---|---|---|---|---|',
    `| One answer: BaseAgent vs one SDK call | about 1.10× (floor 1.01–1.04×) | ${answer.toFixed(3)}× (${over(f.overFloor.answer)}) | within 5 % of the floor | ${answerOverFloor <= AGENT_VS_SDK_TARGETS.answer ? 'yes' : 'no'} | medians ${f.agentAnswer.toFixed(3)} ms vs ${f.bareAnswer.toFixed(3)} ms |`,
    `| the floor: the bare call with a per-call timeout and cancellation signal handed to the SDK | — | ${safeAnswer.toFixed(3)}× | — | — | median ${f.safeAnswer.toFixed(3)} ms: the least a client that can be cancelled and cannot hang adds |`,
    `| of which the project LLM client alone (\`LlmClient.call\`, same messages) | — | ${client.toFixed(3)}× | — | — | median ${f.clientAnswer.toFixed(3)} ms: per-attempt timeout and cancellation (an AbortSignal handed to the SDK), response-size limit, retry loop, error mapping, normalisation |`,
    `| Five-call tool loop: ReActAgent + ToolExecutor vs the same six SDK calls | about 1.18–1.23× (floor 1.03–1.05×) | ${loop.toFixed(3)}× (${over(f.overFloor.loop)}) | within 10 % of the floor | ${loopOverFloor <= AGENT_VS_SDK_TARGETS.loop ? 'yes' : 'no'} | medians ${f.agentLoop.toFixed(3)} ms vs ${f.bareLoop.toFixed(3)} ms |`,
    `| the floor: the bare loop, hand-written, with only what the issue keeps | — | ${safeLoop.toFixed(3)}× | — | — | median ${f.safeLoop.toFixed(3)} ms: a per-call timeout and cancellation signal, zod validation of each call's arguments, redaction of each result |`,
    `| of which the project LLM client (the same loop on \`LlmClient.call\`, the tool a plain function) | — | ${clientLoop.toFixed(3)}× | — | — | median ${f.clientLoop.toFixed(3)} ms |`,
    `| …and the ToolExecutor (that loop with each call through \`executeCall\`, no agent) | — | ${executorLoop.toFixed(3)}× | — | — | median ${f.executorLoop.toFixed(3)} ms: argument parsing and zod validation, approval policy, per-call timeout, redaction of parameters and result, result memory, events |`,
    '',
    'Notes: a loopback call takes about a millisecond, so a tenth of a millisecond is 10 %. Code between two loopback calls',
    'runs with cold caches: timed inside the loop on 2026-11-26, a tool call through the executor took about 40 µs there',
    'against 3 µs in a tight loop of calls alone, and a formatted date or a zod parse about 5 µs each, so every step a',
    'call takes counts several times over. Since issue 24 the hot path takes fewer steps without dropping a guarantee: no',
    'named closures per call (tsx, which runs the bench, gives each a name with a defineProperty; a class per model-call',
    "attempt and per tool call is now the abort listener and the timer's argument), no debug-record fields unless debug",
    "logging is on, the fixed approval verdicts made once, the memory's and the action history's times formatted when",
    'read or once at the end, flat parameters redacted without the walk, handlers and extension points that answer at',
    'once not awaited. Where the rest goes (2026-11-26, each part of the bundle switched off in turn and compared with the',
    'whole bundle in one process): a bare zod parse and redaction in place of the ToolExecutor takes 4–5 points off the',
    "loop (its deadline race about 2, its result memory about 1); the agent's window and action history about 1 each. What",
    'sets the cost is how many distinct functions and objects a cycle touches, not how much each does: between two loopback',
    'calls the caches are cold, and a zod parse that takes 0.05 µs in a tight loop took 3.4 µs there the first time after a',
    'call and 0.1 µs each time after. Shared machines are noisy: rerun before drawing conclusions.',
    '',
    'Measured again on 2026-11-26 (a later session; scripts not kept, the method is here):',
    '- Work between calls costs about three times its own time. Give the client loop K distinct trivial functions to call',
    '  once between calls: each costs about 0.3 µs, and two thirds of that shows up as slower model calls, because the',
    "  SDK's and undici's code then runs colder.",
    "- V8's precise coverage (call counts) on a five-call loop: about 30,100 JavaScript calls per loop for the agent and",
    '  28,300 for the floor. Of these, 561 are in the agent core (112 distinct functions). One answer makes 66 calls',
    '  in the core (48 distinct).',
    '- Removing calls that V8 inlines measures as nothing. About 50 such calls per loop were tried: the extension points',
    "  that return their input, the tool loop's identity callbacks, class-field initialisers, two-digit padding.",
    "  Leaving the loop's calls out of the executor's result memory measured as nothing too (the loop 1.153 and 1.137",
    '  with it, 1.150 and 1.140 without), so the earlier estimate of about 1 point for the memory did not hold up.',
    "- Removing real work measures. The answer's input check, prompt building, metadata and result fields (about 20",
    '  calls) came to 2.8 points. That work is what the guarantees are.',
    '- Two identical copies of the bundle, loaded side by side in one process, measure up to 1.5 points apart (one answer',
    '  1.060 against 1.075; the loop 1.175 against 1.194). On this machine, that is more than either figure sits from its',
    '  target.',
  ].join('\n');
}

/** Measures, prints the section and writes it to docs/benchmarks.md (unless BENCH_NO_WRITE=1). */
export async function agentVsSdkBench(): Promise<void> {
  setLogLevel('error');
  await publishSection('agent-vs-sdk', renderSection(await measureAgentVsSdk()));
}

if (require.main === module) {
  agentVsSdkBench().catch((e: unknown) => {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  });
}
