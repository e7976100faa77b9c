import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { AgentConfigError } from './errors';
import { AGENT_NAME_PATTERN, AGENT_VERSION_PATTERN } from './schema';

/** Environment variable that points the factory at another agents folder (e.g. a user's own agents). */
export const AGENTS_DIR_ENV = 'TDD_AGENT_AGENTS_DIR';

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Finds the folder holding the agent configs. In order: the `configRoot` option, the `TDD_AGENT_AGENTS_DIR`
 * environment variable, then the first `config/agents` found walking up from this module's folder. Walking
 * up works both for sources run by tsx (`src/core/agentsAsData` → `../../../config/agents`) and for the
 * esbuild bundles (`dist/` → `../config/agents`).
 */
export function resolveConfigRoot(configRoot?: string, startDir: string = moduleDir()): string {
  const explicit = configRoot ?? process.env[AGENTS_DIR_ENV];
  if (explicit) {
    const root = resolve(explicit);
    if (!isDirectory(root)) {
      throw new AgentConfigError('The agents config folder does not exist.', [`${root}: not a folder`], { configRoot: root });
    }
    return root;
  }
  for (let dir = resolve(startDir); ; dir = dirname(dir)) {
    const candidate = join(dir, 'config', 'agents');
    if (isDirectory(candidate)) return candidate;
    if (dirname(dir) === dir) break;
  }
  throw new AgentConfigError(
    `No config/agents folder found above ${startDir}.`,
    [`set ${AGENTS_DIR_ENV} or pass { configRoot } to AgentFactory.create`],
    { startDir },
  );
}

/** This module's folder (`__dirname` under CJS, i.e. tsx and the bundles); the working folder otherwise. */
function moduleDir(): string {
  return typeof __dirname === 'string' ? __dirname : process.cwd();
}

/**
 * The path of `{root}/{agentName}/{version}.json`, after checking that name and version match
 * {@link AGENT_NAME_PATTERN} / {@link AGENT_VERSION_PATTERN}, so no request can leave the agents folder
 * (`../x`, `a/b`, absolute paths and empty strings are all rejected, and the result is checked to lie inside).
 */
export function agentConfigPath(root: string, agentName: string, version: string): string {
  const problems: string[] = [];
  if (typeof agentName !== 'string' || !AGENT_NAME_PATTERN.test(agentName)) {
    problems.push(`agent name ${JSON.stringify(agentName)}: must match ${AGENT_NAME_PATTERN.source}`);
  }
  if (typeof version !== 'string' || !AGENT_VERSION_PATTERN.test(version)) {
    problems.push(
      `version ${JSON.stringify(version)}: must look like v1, v2.1 or 1.0.0 (pattern ${AGENT_VERSION_PATTERN.source})`,
    );
  }
  if (problems.length > 0) throw new AgentConfigError('Invalid agent name or version.', problems, { agentName, version });
  const path = join(root, agentName, `${version}.json`);
  const inside = relative(root, path);
  /* c8 ignore next 4 */
  if (inside.startsWith('..') || isAbsolute(inside)) {
    // Unreachable with the patterns above; kept so a future pattern change cannot open a path traversal.
    throw new AgentConfigError('Invalid agent name or version.', [`${agentName}/${version} leaves the agents folder`], {
      agentName,
      version,
    });
  }
  return path;
}

/**
 * Lists the agents and versions that exist under `root`, as `name/version` strings, sorted. Only names and
 * versions that `agentConfigPath` accepts are listed (case preserved), so every listed entry can be
 * passed to `AgentFactory.create` as shown; a folder like `my agent/` or a file like `v1.bak.json.json` is skipped.
 */
export function listAgentConfigs(root: string): string[] {
  if (!existsSync(root)) return [];
  const found: string[] = [];
  for (const name of readdirSync(root).sort()) {
    if (!AGENT_NAME_PATTERN.test(name) || !isDirectory(join(root, name))) continue;
    for (const file of readdirSync(join(root, name)).sort()) {
      const version = file.slice(0, -'.json'.length);
      if (file.endsWith('.json') && AGENT_VERSION_PATTERN.test(version) && !isDirectory(join(root, name, file)))
        found.push(`${name}/${version}`);
    }
  }
  return found;
}
