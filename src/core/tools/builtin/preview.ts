import { createBuiltinTools } from './builtinTools';

/**
 * What a tool call would do, shown on the approval card before a person approves it:
 * a unified diff for file changes, the command line for commands and commits, the method and
 * URL for HTTP requests.
 */
export type ToolCallPreview =
  | { kind: 'diff'; path: string; diff: string }
  | { kind: 'command'; commandLine: string }
  | { kind: 'request'; method: string; url: string; hasBody: boolean };

const builtinTools = new Map(createBuiltinTools().map((tool) => [tool.name, tool]));

/**
 * Computes the preview of a built-in tool's call without executing it or changing anything (files are
 * only read, inside the workspace), through that tool's own `preview`. Returns undefined for tools
 * without a preview, for parameters that fail the tool's schema, and for calls that would fail (e.g. an
 * edit whose search text is absent): the call then reports its own error.
 */
export async function previewToolCall(
  name: string,
  params: unknown,
  workspaceRoot: string,
): Promise<ToolCallPreview | undefined> {
  const tool = builtinTools.get(name);
  if (!tool?.preview) return undefined;
  const parsed = tool.parameters.safeParse(params);
  if (!parsed.success) return undefined;
  const preview = await tool.preview(parsed.data, { workspaceRoot });
  return typeof preview === 'object' && preview.kind !== 'text' ? preview : undefined;
}
