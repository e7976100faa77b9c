import { createHash } from 'node:crypto';
import { writeFile, rename, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { AgentError } from '../errors/agentError';
import type { ChatMessage, LlmCallOptions } from '../llm/types';
import { NamedFileError, readNamedText } from '../namedFiles/readNamedFile';

/**
 * What identifies a request in a cassette. Message contents are not compared (test output holds
 * timings and paths that differ on every run); the conversation's shape is: which agent is calling,
 * how many messages it sends, their roles, the tool-call ids it answers and the tools it offers.
 */
export const RequestFingerprintSchema = z.object({
  agent: z.string(),
  messageCount: z.number().int(),
  roles: z.string(),
  toolCallIds: z.array(z.string()),
  tools: z.array(z.string()),
  /** Hash of the system prompt: a changed agent config is a divergence too. */
  systemDigest: z.string(),
});
/** What identifies a request in a cassette: calling agent, message count and roles, answered tool-call ids, offered tools, system-prompt digest. */
export type RequestFingerprint = z.infer<typeof RequestFingerprintSchema>;

const LlmResultSchema = z.object({
  text: z.string(),
  toolCalls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() })),
  finishReason: z.enum(['stop', 'length', 'tool_calls', 'content_filter', 'unknown']),
  usage: z.object({ promptTokens: z.number(), completionTokens: z.number(), totalTokens: z.number() }),
  model: z.string(),
  latencyMs: z.number(),
  /** The calls were read from the model's text (see `LlmResult.toolCallsFromText`); absent in older cassettes. */
  toolCallsFromText: z.number().int().nonnegative().optional(),
});

/** A recorded session: every model exchange in order, as request fingerprint and normalised response. */
export const CassetteSchema = z.object({
  format: z.literal('tdd-agent-cassette'),
  version: z.literal(1),
  recordedAt: z.string(),
  note: z.string().optional(),
  exchanges: z.array(z.object({ request: RequestFingerprintSchema, response: LlmResultSchema })),
});
/** A recorded session (see {@link CassetteSchema}). */
export type Cassette = z.infer<typeof CassetteSchema>;

function textOf(message: ChatMessage): string {
  const content = (message as { content?: unknown }).content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((p) => (typeof p === 'object' && p && 'text' in p ? String(p.text) : '')).join('');
  return '';
}

/** The fingerprint of a model request (see RequestFingerprintSchema for what is compared). */
export function fingerprint(options: LlmCallOptions): RequestFingerprint {
  const system = options.messages.find((m) => m.role === 'system');
  const systemText = system ? textOf(system) : '';
  return {
    agent: /^agent: (\S+)/.exec(systemText)?.[1] ?? '(none)',
    messageCount: options.messages.length,
    roles: options.messages.map((m) => m.role[0]).join(''),
    toolCallIds: options.messages.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : [])),
    tools: (options.tools ?? []).map((t) => t.function.name).sort(),
    systemDigest: createHash('sha256').update(systemText).digest('hex').slice(0, 16),
  };
}

/** The largest cassette read: 64 MiB, far above a long recorded session (the bundled FizzBuzz one is 15 KB). */
export const CASSETTE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Reads and validates a cassette file (a bounded regular file, see `readNamedFile.ts`); a missing file, a FIFO, a
 * device, a folder, a file over 64 MiB or an invalid one is a clear CONFIG error.
 */
export async function readCassette(path: string): Promise<Cassette> {
  let text: string;
  try {
    text = await readNamedText(path, { maxBytes: CASSETTE_MAX_BYTES });
  } catch (err) {
    if (!(err instanceof NamedFileError)) throw err;
    throw new AgentError(
      'CONFIG',
      `The cassette file '${path}' ${err.reason}. Record one with --record FILE, or check the path.`,
      { path, problem: err.problem },
      { cause: err },
    );
  }
  return parseCassette(text, path);
}

/** Parses and validates a cassette's text; `path` names it in the CONFIG error of invalid JSON or an invalid cassette. */
export function parseCassette(text: string, path: string): Cassette {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new AgentError('CONFIG', `The cassette '${path}' is not valid JSON: ${(err as Error).message}`, { path });
  }
  const result = CassetteSchema.safeParse(parsed);
  if (!result.success) {
    throw new AgentError(
      'CONFIG',
      `The cassette '${path}' is not a tdd-agent cassette: ${result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
      { path },
    );
  }
  return result.data;
}

/** Writes a cassette atomically (temp file + rename), so an interrupted session never leaves half a file. */
export async function writeCassette(path: string, cassette: Cassette): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(cassette, null, 2)}\n`, 'utf8');
  await rename(temp, path);
}
