import type { AgentLifecycle } from '../../agentRuntime/lifecycle';
import type { ControlProtocol } from '../../control/controlProtocol';
import type { LlmClient } from '../../llm/types';
import type { McpServerConfig } from '../../mcp/config';
import type { McpServerStatus } from '../../mcp/mcpHub';
import type { SandboxMode } from '../../osSandbox';
import type { ProjectOverrides } from '../../project/projectProfile';
import type { ApprovalPolicyConfig } from '../../tools/approvalPolicy';
import type { SupervisorEvent } from '../events';
import type { TaskSpec } from '../kata';
import type { PhaseSpec } from '../phases/phaseContract';
import type { RoleRunners } from '../roles/roleRunner';
import { type Language } from '../../vocabulary';

/** Everything a kata session needs; the CLI and the VS Code extension each fill it in. */
export interface KataSessionOptions {
  /**
   * The person's folder: a git repository (its root), or a folder that becomes one once the preflight
   * passed (created if missing). The session never changes its working tree, index, HEAD or stash.
   */
  workspace: string;
  /** A kata markdown file, or the slug of a bundled kata (e.g. `fizzbuzz`); not needed with `task`. */
  kataPath?: string;
  /** A task in plain words instead of a kata file: a kata whose title and description are the sentence. */
  task?: string | TaskSpec;
  /** Overrides the kata's language (and the project's). */
  language?: Language;
  /** The person's choices about the project (flags, settings): stronger than tdd-agent.json, the kata and detection. */
  project?: ProjectOverrides;
  /** The model client the roles call. */
  llm: LlmClient;
  /** The model the person configured (it wins over the model named in a role's config). */
  model: string;
  /** The provider's name, for the session record and the events. */
  provider: string;
  /** Default: the kata's `max_cycles`, else 10. */
  maxCycles?: number;
  /** Where approval requests go (terminal, panel). Without one, every `ask` is denied. */
  control?: ControlProtocol;
  approvalPolicy?: ApprovalPolicyConfig;
  /** Commands run after every green state (e.g. `npx tsc --noEmit`). */
  qualityGates?: string[];
  /** Per test run (default 60 s). */
  testTimeoutMs?: number;
  /**
   * Start from what the person's working tree holds (tracked and untracked files, not ignored ones) as the
   * session's first commit, instead of from the last commit. Their tree is only read.
   */
  fromWorkingTree?: boolean;
  /** Continue a saved session: `true` for the newest resumable session of this kata, or a session id. */
  resume?: boolean | string;
  /** `auto` (default): every test run, gate and command runs in the OS sandbox, or the session refuses to start; `off`: unconfined, the person's explicit choice. */
  sandbox?: SandboxMode;
  /**
   * Variables of this process's environment shown inside the sandbox beyond its allow-list (exact names, or prefixes
   * ending in `*`; a credential-like name only when named exactly). `TDD_AGENT_SANDBOX_ENV` adds to it.
   */
  sandboxEnvironment?: string[];
  /** Where session worktrees go (default: the product's cache folder, see worktreesRootFor). */
  worktreesRoot?: string;
  /** Aborting it cancels the session (the tree goes back to the last green commit). */
  signal?: AbortSignal;
  /** Receives every supervisor event, in order (a listener that throws is logged and ignored). */
  onEvent?: (event: SupervisorEvent) => void;
  /** Replaces the agent roles (tests of the loop itself); default: agents defined in config/agents. */
  roles?: RoleRunners;
  /** Time a person has to answer an approval request (default 5 minutes). */
  approvalTimeoutMs?: number;
  /**
   * MCP servers whose tools join the session's toolbox (`<server>__<tool>`, behind the same approvals).
   * A role is offered them only when its config's `tools` list names or matches them (e.g. `"docs__*"`);
   * the shipped configs list exactly the five workspace tools. A server that fails to start is a logged
   * warning (see `onMcpServers`) and the session goes on without it; every server is stopped at the end.
   */
  mcpServers?: McpServerConfig[];
  /** Called once the MCP servers were connected, with each server's status (hosts show the failures). */
  onMcpServers?: (statuses: McpServerStatus[]) => void;
  /** A folder of agent configs (`tester/v1.json`, `implementer/v1.json`, `refactorer/v1.json`); default: the bundled `config/agents`. */
  agentsDir?: string;
  /** Limit of one model call in ms (default: the agents' 120 s). */
  modelTimeoutMs?: number;
  /** Stream the roles' text: `role_text` events while the model writes (the panel shows it as it arrives). */
  streamRoleText?: boolean;
  /**
   * The phases of every cycle, in order (default `TDD_PHASES`: red, green, refactor). A phase of a role a team added
   * (`[...TDD_PHASES, reviewPhase]`) runs the agent `<agentsDir>/<role>/v1.json` (the bundled `config/agents` has a
   * `reviewer`); see docs/extending.md, "A new role: a Reviewer".
   */
  phases?: readonly PhaseSpec[];
  /**
   * A team's own role rules: lifecycle hooks put on a role's agent for each of its turns, by role name
   * (`{ implementer: [noConsoleLog] }`), typically `wrapToolCall` hooks refusing a call with the reason (see
   * docs/extending.md, "A custom role rule as a hook"). They run after the phase's own file rule.
   */
  roleHooks?: Readonly<Record<string, readonly AgentLifecycle[]>>;
}
