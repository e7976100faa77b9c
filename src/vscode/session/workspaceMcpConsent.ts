/**
 * A workspace's own MCP servers start only with the person's consent: a stdio server is a program of the repository's
 * choosing, started outside the sandbox when a session begins (a cloned repository's `.vscode/settings.json` is hostile
 * input like any of its files). The person is asked once per set of servers; a changed command asks again.
 */
import { createHash } from 'node:crypto';
import type { WorkspaceMcpServer } from '../config/mcpServersSetting';

/** Where the consent is remembered (the extension's workspace state). */
export interface ConsentMemory {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

/** Asks the person: a modal warning with a detail and buttons; resolves to the chosen button or undefined. */
export type AskPerson = (message: string, detail: string, ...buttons: string[]) => Thenable<string | undefined>;

const CONSENT_KEY = 'tddAgent.workspaceMcpServersConsent';
export const START_THEM = 'Start them';
export const RUN_WITHOUT = 'Run without them';

/** The digest of exactly what would run: a changed name, command, argument or URL is a new question. */
function digestOf(servers: readonly WorkspaceMcpServer[]): string {
  return createHash('sha256').update(JSON.stringify(servers)).digest('hex');
}

/**
 * True when the workspace's servers may start: none to ask about, consent remembered for these very servers, or the
 * person chose "Start them" now (remembered). Dismissing the question or "Run without them" starts none of them.
 */
export async function consentToWorkspaceMcpServers(
  servers: readonly WorkspaceMcpServer[],
  memory: ConsentMemory,
  ask: AskPerson,
): Promise<boolean> {
  if (servers.length === 0) return true;
  const digest = digestOf(servers);
  if (memory.get(CONSENT_KEY) === digest) return true;
  const list = servers.map((s) => `• ${s.name}: ${s.runs}`).join('\n');
  const answer = await ask(
    `This workspace's settings start ${servers.length === 1 ? 'an MCP server' : `${servers.length} MCP servers`} when a TDD session begins. They run as you, outside the sandbox. Start them?`,
    `${list}\n\nOnly start servers of a repository you trust. You will be asked again if they change.`,
    START_THEM,
    RUN_WITHOUT,
  );
  if (answer !== START_THEM) return false;
  await memory.update(CONSENT_KEY, digest);
  return true;
}
