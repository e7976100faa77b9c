import { constants, createWriteStream, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import type { ErrorInfo } from '../errors/agentError';
import { AgentError } from '../errors/agentError';
import type { TokenUsage } from '../llm/types';
import { getLogger } from '../logging/logger';
import { redactValue } from '../security/redact';

/** One execution in the audit trail (one JSON line). */
export interface AuditRecord {
  timestamp: string;
  agentId: string;
  inputs: unknown;
  outputs?: unknown;
  error?: ErrorInfo;
  usage?: TokenUsage;
  durationMs: number;
  [extra: string]: unknown;
}

/**
 * Append-only JSON Lines audit trail (NFR-016): one line per record, secrets redacted with `redactValue`.
 * Writes to any Writable (tests, the CLI) or a file opened in append mode. A write failure is logged,
 * never thrown into the agent run.
 */
export class AuditTrail {
  private readonly out: Writable;
  private readonly ownsStream: boolean;
  private failed = false;

  constructor(out: Writable, options: { ownsStream?: boolean } = {}) {
    this.out = out;
    this.ownsStream = options.ownsStream ?? false;
    out.on('error', (e) => {
      if (!this.failed) getLogger('audit').error('The audit trail cannot be written.', { error: e });
      this.failed = true;
    });
  }

  /**
   * Opens (creating folders) `path` for appending, owner-only. A link in its place is not followed (`O_NOFOLLOW`): a
   * session's trail lives in the repository's git dir, which unconfined generated code could reach, and a write through
   * a planted link would land wherever it points. Such a path is refused (CONFIG, naming it) before anything is written.
   */
  static toFile(path: string): AuditTrail {
    try {
      mkdirSync(dirname(resolve(path)), { recursive: true });
    } catch (e) {
      throw new AgentError(
        'CONFIG',
        `The audit trail folder for ${path} cannot be created: ${(e as Error).message}`,
        { path },
        { cause: e },
      );
    }
    const { O_WRONLY, O_APPEND, O_CREAT, O_NOFOLLOW } = constants;
    let fd: number;
    try {
      fd = openSync(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW, 0o600);
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code === 'ELOOP' ? 'a link stands in its place' : (e as Error).message;
      throw new AgentError('CONFIG', `The audit trail ${path} cannot be opened: ${why}.`, { path }, { cause: e });
    }
    return new AuditTrail(createWriteStream(path, { fd }), { ownsStream: true });
  }

  /** Appends one redacted record as a JSON line. */
  record(record: AuditRecord | Record<string, unknown>): void {
    if (this.failed) return;
    let line: string;
    try {
      line = JSON.stringify(redactValue(record));
    } catch (e) {
      line = JSON.stringify({
        timestamp: new Date().toISOString(),
        auditError: `record not serialisable: ${(e as Error).message}`,
      });
    }
    this.out.write(`${line}\n`);
  }

  /** Flushes and (for files this trail opened) closes the stream. */
  close(): Promise<void> {
    return new Promise((done) => {
      if (!this.ownsStream || this.out.destroyed) return done();
      this.out.end(() => done());
      this.out.once('error', () => done());
    });
  }
}

/**
 * A sink for a tool executor's audit records (`ExecuteToolOptions.audit`) that writes each call into `trail` as a
 * line of agent `agentId`: `{ timestamp, agentId, event: 'tool_call', tool, params (redacted), approval, ok, errorCode?,
 * durationMs, ... }`, beside the agent's execution records.
 */
export function toolCallAuditSink(trail: AuditTrail, agentId: string): <R extends { time: string }>(record: R) => void {
  return ({ time, ...call }) => trail.record({ timestamp: time, agentId, event: 'tool_call', ...call });
}

const shared = new Map<string, AuditTrail>();

/** One AuditTrail per file path in the process, so a thousand agents do not open a thousand streams. */
export function sharedAuditFile(path: string): AuditTrail {
  const key = resolve(path);
  let trail = shared.get(key);
  if (!trail) {
    trail = AuditTrail.toFile(key);
    shared.set(key, trail);
  }
  return trail;
}

/** Closes every trail opened by {@link sharedAuditFile} (for shutdown and tests). */
export async function closeSharedAuditFiles(): Promise<void> {
  const trails = [...shared.values()];
  shared.clear();
  await Promise.all(trails.map((t) => t.close()));
}
