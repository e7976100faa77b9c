import { statSync } from 'node:fs';
import { NamedFileError, readNamedTextSync } from '../namedFiles/readNamedFile';
import { AgentPrompt } from './agentPrompt';
import { agentConfigPath, listAgentConfigs, resolveConfigRoot } from './configRoot';
import { checkAgentConfig, type CheckedAgentConfig } from './configValidation';
import { AgentConfigError, UnknownAgentConfigError } from './errors';
import type { InputPayload } from './inputPayload';

/** Options of {@link AgentFactory}. */
export interface AgentFactoryOptions {
  /** The agents folder; default: `TDD_AGENT_AGENTS_DIR`, else the repository's `config/agents`. */
  configRoot?: string;
}

interface CacheEntry {
  mtimeMs: number;
  size: number;
  checked: CheckedAgentConfig;
}

// Read-only cache of checked configs by file path; an edited file (new mtime or size) is read again.
const cache = new Map<string, CacheEntry>();

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * The error for a config file that exists but cannot be stat'ed or read (permissions, I/O), or is no regular file
 * (a FIFO, a folder, a device) or is over 1 MiB.
 */
function unreadable(file: string, agentName: string, version: string, error: unknown): AgentConfigError {
  return new AgentConfigError(
    `Agent config ${agentName}/${version} cannot be read: check that it is a readable file.`,
    [error instanceof NamedFileError ? `${file} ${error.reason}` : `${file}: ${(error as Error).message}`],
    { file, ...(error instanceof NamedFileError ? { problem: error.problem } : {}) },
    { cause: error },
  );
}

/** Reads and checks one config file, from the cache when the file has not changed. */
function loadChecked(root: string, agentName: string, version: string): CheckedAgentConfig {
  const file = agentConfigPath(root, agentName, version);
  let stats;
  try {
    stats = statSync(file);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT' && errorCode(error) !== 'ENOTDIR') throw unreadable(file, agentName, version, error);
    const available = listAgentConfigs(root);
    throw new UnknownAgentConfigError(
      `No agent config ${agentName}/${version} (expected ${file}). Available: ${available.join(', ') || 'none'}. ` +
        'Add the JSON file to define it, or pick one of the available agents.',
      { agent: `${agentName}/${version}`, file, configRoot: root, available },
    );
  }
  const cached = cache.get(file);
  if (cached && cached.mtimeMs === stats.mtimeMs && cached.size === stats.size) return cached.checked;
  let text: string;
  try {
    text = readNamedTextSync(file);
  } catch (error) {
    throw unreadable(file, agentName, version, error);
  }
  const checked = deepFreeze(checkAgentConfig(text, { file, agentName, version }));
  cache.set(file, { mtimeMs: stats.mtimeMs, size: stats.size, checked });
  return checked;
}

/**
 * Makes agents from their JSON definitions in `config/agents/{agent_name}/{version}.json`: adding an agent or
 * a version needs only a new file. Stateless apart from a read-only cache of checked files. Config files are
 * small and read synchronously, so `create(...).compose()` chains.
 */
export const AgentFactory = {
  /**
   * The agent `agentName` at `version`, ready to compose prompts for `inputPayload` (when omitted, the
   * payload is checked when `compose` gets it). Throws `AgentConfigError` for an invalid name/version
   * (anything that could leave the agents folder), an invalid config (every problem listed) or a payload
   * that does not fit `input_keys`;
   * `UnknownAgentConfigError` when no such file exists (the message lists what does).
   */
  create(agentName: string, version: string, inputPayload?: InputPayload, options: AgentFactoryOptions = {}): AgentPrompt {
    const root = resolveConfigRoot(options.configRoot);
    return new AgentPrompt(loadChecked(root, agentName, version), inputPayload);
  },

  /** Every `name/version` defined under the agents folder, sorted. */
  list(options: AgentFactoryOptions = {}): string[] {
    return listAgentConfigs(resolveConfigRoot(options.configRoot));
  },

  /** Forgets the cached configs (tests; a long-running host after the user edits agents). */
  clearCache(): void {
    cache.clear();
  },
} as const;
