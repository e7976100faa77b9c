import { redactSecrets } from '../security/redact';

/** Severity of a log record; records below the process-wide level (default `warn`) are dropped. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** One log record as a sink receives it: message and fields already redacted of secrets. */
export interface LogRecord {
  level: LogLevel;
  scope: string;
  message: string;
  fields?: Record<string, unknown>;
  time: string;
}

/** Where log records go: stderr for the CLI, a LogOutputChannel in VS Code, an array in tests. */
export type LogSink = (record: LogRecord) => void;

/** A scoped logger from {@link getLogger}; every method goes through the one process-wide sink. */
export interface Logger {
  /** Detail for diagnosing a problem (shown with `--verbose` / the debug level). */
  debug(message: string, fields?: Record<string, unknown>): void;
  /** A normal event worth knowing about. */
  info(message: string, fields?: Record<string, unknown>): void;
  /** Something went wrong but the run goes on. */
  warn(message: string, fields?: Record<string, unknown>): void;
  /** Something failed. */
  error(message: string, fields?: Record<string, unknown>): void;
  /** A logger for a sub-scope (`tools` → `tools.read_file`). */
  child(scope: string): Logger;
}

/**
 * One logging root per process: however many agents and loggers exist, records go
 * through one sink, once (no duplicate handlers). The core never writes to stdout;
 * the default sink writes warnings and errors to stderr.
 */
const root: { sink: LogSink; level: LogLevel } = {
  sink: (record) => {
    const fields = record.fields ? ` ${JSON.stringify(record.fields)}` : '';
    process.stderr.write(`[${record.level}] ${record.scope}: ${record.message}${fields}\n`);
  },
  level: 'warn',
};

/** Replaces the process-wide sink; returns the previous one so tests can restore it. */
export function setLogSink(sink: LogSink): LogSink {
  const previous = root.sink;
  root.sink = sink;
  return previous;
}

/** Sets the process-wide minimum level; returns the previous one so callers can restore it. */
export function setLogLevel(level: LogLevel): LogLevel {
  const previous = root.level;
  root.level = level;
  return previous;
}

/**
 * True when records of `level` reach the sink: hot paths check it before building a record's fields, which would
 * otherwise be made on every call and dropped.
 */
export function logLevelEnabled(level: LogLevel): boolean {
  return ORDER[level] >= ORDER[root.level];
}

function emit(level: LogLevel, scope: string, message: string, fields?: Record<string, unknown>): void {
  if (ORDER[level] < ORDER[root.level]) return;
  const safeFields = fields ? (JSON.parse(redactSecrets(safeStringify(fields))) as Record<string, unknown>) : undefined;
  root.sink({ level, scope, message: redactSecrets(message), fields: safeFields, time: new Date().toISOString() });
}

function safeStringify(value: unknown): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Error) return { name: v.name, message: v.message };
    if (typeof v === 'bigint') return v.toString();
    if (v && typeof v === 'object') {
      if (seen.has(v)) return '[circular]';
      seen.add(v);
    }
    return v;
  });
}

const cache = new Map<string, Logger>();

/** Returns the logger for a scope (cached: the same scope gives the same logger). */
export function getLogger(scope = 'core'): Logger {
  let logger = cache.get(scope);
  if (!logger) {
    logger = {
      debug: (m, f) => emit('debug', scope, m, f),
      info: (m, f) => emit('info', scope, m, f),
      warn: (m, f) => emit('warn', scope, m, f),
      error: (m, f) => emit('error', scope, m, f),
      child: (sub) => getLogger(`${scope}.${sub}`),
    };
    cache.set(scope, logger);
  }
  return logger;
}
