/** Routes the core's log records into the extension's `LogOutputChannel` (secrets are already redacted by the core logger). */
import * as vscode from 'vscode';
import { type LogLevel, type LogRecord, type LogSink, setLogLevel, setLogSink } from '../../core';

function coreLevel(level: vscode.LogLevel): LogLevel {
  switch (level) {
    case vscode.LogLevel.Trace:
    case vscode.LogLevel.Debug:
      return 'debug';
    case vscode.LogLevel.Info:
      return 'info';
    case vscode.LogLevel.Warning:
      return 'warn';
    default:
      return 'error';
  }
}

function line(record: LogRecord): string {
  const fields = record.fields && Object.keys(record.fields).length > 0 ? ` ${JSON.stringify(record.fields)}` : '';
  return `[${record.scope}] ${record.message}${fields}`;
}

/**
 * Makes `channel` the process-wide log sink and keeps the core's level in step with the channel's.
 * Returns a Disposable that restores the previous sink.
 */
export function routeCoreLogs(channel: vscode.LogOutputChannel): vscode.Disposable {
  // The core's levels are named like the channel's methods (debug, info, warn, error).
  const sink: LogSink = (record) => channel[record.level](line(record));
  const previousSink = setLogSink(sink);
  const previousLevel = setLogLevel(coreLevel(channel.logLevel));
  const levelChange = channel.onDidChangeLogLevel((level) => setLogLevel(coreLevel(level)));
  return new vscode.Disposable(() => {
    levelChange.dispose();
    setLogSink(previousSink);
    setLogLevel(previousLevel);
  });
}
