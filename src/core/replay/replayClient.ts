import { isDeepStrictEqual } from 'node:util';
import { AgentError } from '../errors/agentError';
import type { LlmCallOptions, LlmClient, LlmResult } from '../llm/types';
import { fingerprint, readCassette, type Cassette } from './cassette';

/**
 * Plays a recorded session back: each call returns the next recorded response, after checking
 * that the request has the recorded shape. A diverging conversation fails with REPLAY_DIVERGED
 * naming the exchange and what differs, instead of feeding the agent answers to other questions.
 */
export class ReplayLlmClient implements LlmClient {
  readonly provider = 'replay' as const;
  private next = 0;

  constructor(
    private readonly cassette: Cassette,
    private readonly source = 'cassette',
  ) {}

  /** Loads a cassette file. */
  static async fromFile(path: string): Promise<ReplayLlmClient> {
    return new ReplayLlmClient(await readCassette(path), path);
  }

  /** How many recorded exchanges have not been played yet. */
  get remaining(): number {
    return this.cassette.exchanges.length - this.next;
  }

  /** Returns the next recorded response; REPLAY_DIVERGED when the request differs from the recorded one or the cassette is used up. */
  async call(options: LlmCallOptions): Promise<LlmResult> {
    options.signal?.throwIfAborted();
    const index = this.next;
    const exchange = this.cassette.exchanges[index];
    const actual = fingerprint(options);
    if (!exchange) {
      throw new AgentError(
        'REPLAY_DIVERGED',
        `The conversation went past the end of the cassette (${this.cassette.exchanges.length} exchanges recorded) in '${this.source}'. Record the session again with --record.`,
        { exchange: index, actual },
      );
    }
    if (!isDeepStrictEqual(exchange.request, actual)) {
      const differing = Object.keys(actual).filter(
        (k) => !isDeepStrictEqual(actual[k as keyof typeof actual], exchange.request[k as keyof typeof actual]),
      );
      throw new AgentError(
        'REPLAY_DIVERGED',
        `The conversation diverged from the cassette '${this.source}' at exchange ${index + 1} (${differing.join(', ')} differ). Record the session again with --record.`,
        { exchange: index, differing, expected: exchange.request, actual },
      );
    }
    this.next++;
    const response = { ...exchange.response, latencyMs: 0 };
    if (options.onDelta && response.text) options.onDelta(response.text);
    return response;
  }
}
