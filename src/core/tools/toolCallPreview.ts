/** The preview an approval request shows of a call: the executor's preview function's, else the tool's own, redacted. */
import type { ToolCallPreviewMessage } from '../control/messages';
import type { Logger } from '../logging/logger';
import { redactValue } from '../security/redact';
import type { ToolPreview } from './executorOptions';
import type { RegisteredTool } from './registry';

/**
 * What call `params` of `tool` would change, for its approval request: `option` (the executor's `preview`), else the
 * tool's own `preview`; `false` or none: no preview. Redacted here, so the request shows a safe preview; a preview
 * that fails is logged and left out (the person is asked without one).
 */
export async function previewOf(
  option: ToolPreview | false | undefined,
  tool: RegisteredTool,
  params: unknown,
  workspaceRoot: string,
  logger: Logger,
): Promise<ToolCallPreviewMessage | undefined> {
  if (option === false) return undefined;
  const preview =
    option !== undefined
      ? () => option(tool.name, params, workspaceRoot)
      : tool.preview
        ? () => tool.preview?.(params, { workspaceRoot })
        : undefined;
  if (!preview) return undefined;
  try {
    const value = await preview();
    if (value === undefined || value === null) return undefined;
    return redactValue(typeof value === 'string' ? { kind: 'text', text: value } : value);
  } catch (error) {
    logger.debug('no preview for tool call', { tool: tool.name, error: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
}
