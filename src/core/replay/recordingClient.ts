import type { LlmCallOptions, LlmClient, LlmResult } from '../llm/types';
import { fingerprint, writeCassette, type Cassette } from './cassette';

/**
 * Wraps a real client and records every exchange to a cassette file, rewritten after each call so
 * that a cancelled or crashed session still leaves a usable recording of what happened so far.
 */
export class RecordingLlmClient implements LlmClient {
  readonly cassette: Cassette = { format: 'tdd-agent-cassette', version: 1, recordedAt: new Date().toISOString(), exchanges: [] };
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly inner: LlmClient,
    private readonly path: string,
    note?: string,
  ) {
    if (note) this.cassette.note = note;
  }

  /** The wrapped client's provider. */
  get provider(): LlmClient['provider'] {
    return this.inner.provider;
  }

  /** The wrapped client's preflight check (nothing is recorded: it is not a model exchange). */
  async checkModel(model: string, signal?: AbortSignal): Promise<void> {
    await this.inner.checkModel?.(model, signal);
  }

  /** Calls the wrapped client and appends the exchange to the cassette file. */
  async call(options: LlmCallOptions): Promise<LlmResult> {
    const request = fingerprint(options);
    const response = await this.inner.call(options);
    this.cassette.exchanges.push({ request, response });
    this.writing = this.writing.then(() => writeCassette(this.path, this.cassette));
    await this.writing;
    return response;
  }

  /** Resolves once every exchange so far is on disk. */
  flush(): Promise<void> {
    return this.writing;
  }
}
