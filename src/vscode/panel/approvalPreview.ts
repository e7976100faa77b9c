/**
 * The approval card's preview from the control protocol's tool-call preview. The panel shows every
 * kind the protocol has (diff, command, request, text), so a preview passes through as it is; only
 * a blank text preview is dropped, and a `run_command` call without one still shows its command line.
 * Pure (no `vscode`).
 */
import type { ToolCallPreviewMessage } from '../../core';
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
export function approvalPreview(
  tool: string,
  params: unknown,
  preview: ToolCallPreviewMessage | undefined,
): ApprovalPreview | undefined {
  if (!preview) {
    const command = tool === 'run_command' ? commandOf(params) : undefined;
    return command !== undefined ? { kind: 'command', commandLine: command } : undefined;
  }
  return preview.kind === 'text' && preview.text.trim() === '' ? undefined : preview;
}
