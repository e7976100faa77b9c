/**
 * Turns the control protocol's tool-call preview into the approval card's preview: a diff for file
 * changes, a command line for commands, commits and HTTP requests. Pure (no `vscode`).
 */
import type { ToolCallPreviewMessage } from '../../core/control/messages';
import type { ApprovalPreview } from '../../shared/panelProtocol';

function commandOf(params: unknown): string | undefined {
  if (params && typeof params === 'object' && typeof (params as { command?: unknown }).command === 'string') {
    return (params as { command: string }).command;
  }
  return undefined;
}

/**
 * The preview an approval card shows for `tool` called with `params`. Without a preview from the
 * executor, a `run_command` call still shows its command line. Undefined when there is nothing to show
 * beyond the parameters.
 */
export function approvalPreview(tool: string, params: unknown, preview: ToolCallPreviewMessage | undefined): ApprovalPreview | undefined {
  if (!preview) {
    const command = tool === 'run_command' ? commandOf(params) : undefined;
    return command !== undefined ? { kind: 'command', commandLine: command } : undefined;
  }
  switch (preview.kind) {
    case 'diff':
      return { kind: 'diff', path: preview.path, diff: preview.diff };
    case 'command':
      return { kind: 'command', commandLine: preview.commandLine };
    case 'request':
      return { kind: 'command', commandLine: `${preview.method} ${preview.url}${preview.hasBody ? ' (with a body)' : ''}` };
    case 'text':
      return preview.text.trim() === '' ? undefined : { kind: 'command', commandLine: preview.text };
  }
}
