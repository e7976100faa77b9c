import { DANGER_LEVELS, TOOL_CATEGORIES, dangerRank, type DangerLevel, type ToolCategory, type ToolDefinition } from './types';
import { ToolCallError, ToolRegistrationError } from './errors';

/** OpenAI's rule for function names; every registered tool name must match it. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * A tool as the registry holds it. `inputJsonSchema`, when present, is sent to the model as-is
 * instead of the JSON schema derived from `parameters` (MCP tools carry their server's schema).
 */
export type RegisteredTool = ToolDefinition<any> & { inputJsonSchema?: Record<string, unknown> };

/** Filters for `discoverTools`; all given filters must match. */
export interface ToolDiscoveryQuery {
  category?: ToolCategory;
  /** Only SAFE tools. */
  safeOnly?: boolean;
  /** Only tools at or below this danger level. */
  maxDangerLevel?: DangerLevel;
  /** Case-insensitive substring of the name or the description. */
  keyword?: string;
}

/**
 * The set of tools an agent may call, by unique name. Registration checks the name against
 * OpenAI's function-name rule and refuses duplicates; MCP servers unregister their tools when
 * they go away. Listing order is registration order, so the specs sent to the model are stable.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();

  /** Registers tools. Throws ToolRegistrationError for a duplicate or invalid name, category or danger level. */
  register(...tools: RegisteredTool[]): this {
    for (const tool of tools) {
      const name = tool?.name;
      if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
        throw new ToolRegistrationError(
          String(name),
          `Tool name "${String(name)}" is invalid: use 1-64 letters, digits, "_" or "-" (OpenAI's function-name rule).`,
        );
      }
      if (this.tools.has(name)) {
        throw new ToolRegistrationError(name, `A tool named "${name}" is already registered; tool names must be unique.`);
      }
      if (!(TOOL_CATEGORIES as readonly string[]).includes(tool.category)) {
        throw new ToolRegistrationError(
          name,
          `Tool "${name}" has unknown category "${tool.category}"; use one of ${TOOL_CATEGORIES.join(', ')}.`,
        );
      }
      if (!(DANGER_LEVELS as readonly string[]).includes(tool.dangerLevel)) {
        throw new ToolRegistrationError(
          name,
          `Tool "${name}" has unknown danger level "${tool.dangerLevel}"; use one of ${DANGER_LEVELS.join(', ')}.`,
        );
      }
      if (typeof tool.execute !== 'function' || !tool.parameters || typeof tool.parameters.safeParse !== 'function') {
        throw new ToolRegistrationError(name, `Tool "${name}" needs a zod "parameters" schema and an "execute" function.`);
      }
      this.tools.set(name, tool);
    }
    return this;
  }

  /** Removes a tool; returns whether it was registered. */
  unregister(name: string): boolean {
    return this.tools.delete(name);
  }

  /** The tool with this name, or undefined. */
  get(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  /** The tool with this name; throws ToolCallError(TOOL_NOT_FOUND) naming the available tools otherwise. */
  require(name: string): RegisteredTool {
    const tool = this.tools.get(name);
    if (!tool) {
      throw new ToolCallError(
        'TOOL_NOT_FOUND',
        name,
        `Unknown tool "${name}". Available tools: ${this.names().join(', ') || '(none)'}.`,
      );
    }
    return tool;
  }

  /** Whether a tool with this name is registered. */
  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** Every tool, in registration order. */
  list(): RegisteredTool[] {
    return [...this.tools.values()];
  }

  /** Every tool name, in registration order. */
  names(): string[] {
    return [...this.tools.keys()];
  }

  /** Number of registered tools. */
  get size(): number {
    return this.tools.size;
  }

  /** Tools matching every given filter (no filter: all tools). */
  discoverTools(query: ToolDiscoveryQuery = {}): RegisteredTool[] {
    const keyword = query.keyword?.trim().toLowerCase();
    return this.list().filter((tool) => {
      if (query.category && tool.category !== query.category) return false;
      if (query.safeOnly && tool.dangerLevel !== 'SAFE') return false;
      if (query.maxDangerLevel && dangerRank(tool.dangerLevel) > dangerRank(query.maxDangerLevel)) return false;
      if (keyword && !`${tool.name}\n${tool.description}`.toLowerCase().includes(keyword)) return false;
      return true;
    });
  }
}
