import { createHash } from 'node:crypto';

const MAX = 64;

/**
 * The registry name of an MCP tool: `<server>__<tool>`, with characters OpenAI rejects replaced
 * by `_`, cut to 64 characters with a short hash when too long or already `taken`, so distinct
 * tools keep distinct names.
 */
export function mcpToolName(server: string, tool: string, taken: (name: string) => boolean = () => false): string {
  const clean = (s: string) => s.replace(/[^a-zA-Z0-9_-]/g, '_');
  const base = `${clean(server)}__${clean(tool)}`;
  if (base.length <= MAX && !taken(base)) return base;
  for (let attempt = 0; attempt < 100; attempt++) {
    const hash = createHash('sha256').update(`${server}\0${tool}\0${attempt}`).digest('hex').slice(0, 8);
    const name = `${base.slice(0, MAX - hash.length - 1)}_${hash}`;
    if (!taken(name)) return name;
  }
  throw new Error(`could not find a free tool name for ${server}/${tool}`);
}
