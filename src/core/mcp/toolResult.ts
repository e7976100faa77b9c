import type { ToolOutput } from '../tools/types';

/** The parts of an MCP `tools/call` result this project reads. */
export interface McpCallResult {
  content?: Array<Record<string, unknown>>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  toolResult?: unknown;
}

/**
 * Turns an MCP call result into text for the model: text items as-is, images/audio as a short
 * note, resources as their text or URI; `structuredContent` becomes `data` (and the text when
 * there is no other content).
 */
export function mcpResultToOutput(result: McpCallResult): ToolOutput {
  const parts: string[] = [];
  for (const item of result.content ?? []) parts.push(describeItem(item));
  if (parts.length === 0 && result.toolResult !== undefined) parts.push(JSON.stringify(result.toolResult));
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent));
  const output: ToolOutput = { content: parts.join('\n') };
  if (result.structuredContent !== undefined) output.data = result.structuredContent;
  return output;
}

function describeItem(item: Record<string, unknown>): string {
  switch (item.type) {
    case 'text':
      return String(item.text ?? '');
    case 'image':
    case 'audio':
      return `[${item.type} ${String(item.mimeType ?? 'unknown type')}, ${approxBytes(item.data)} bytes]`;
    case 'resource_link':
      return `[resource ${String(item.uri ?? '')}${item.name ? ` "${String(item.name)}"` : ''}]`;
    case 'resource': {
      const resource = (item.resource ?? {}) as Record<string, unknown>;
      if (typeof resource.text === 'string') return resource.text;
      return `[resource ${String(resource.uri ?? '')} ${String(resource.mimeType ?? '')}, ${approxBytes(resource.blob)} bytes]`.replace(
        /\s+,/,
        ',',
      );
    }
    default:
      return JSON.stringify(item);
  }
}

function approxBytes(base64: unknown): number {
  return typeof base64 === 'string' ? Math.floor((base64.length * 3) / 4) : 0;
}
