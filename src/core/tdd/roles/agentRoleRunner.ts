import type { AgentEvent } from '../../agentRuntime/events';
import { AgentFactory } from '../../agentsAsData/agentFactory';
import { ReActAgent } from '../../builtinAgents/reactAgent';
import { AgentError } from '../../errors/agentError';
import type { LlmClient } from '../../llm/types';
import { redactSecrets, redactValue } from '../../security/redact';
import type { CycleStep } from '../../agentRuntime/strategies/types';
import { compactFileContents } from '../../tools/builtin/compactFileContents';
import type { AgentToolbox } from '../../tools/types';
import type { SupervisorEvent } from '../events';
import type { Role } from '../../vocabulary';
import { DEFAULT_MAX_FILES_PER_TURN, limitFilesWritten } from './fileWriteBudget';
import { isTddRole, type RoleRunner, type RoleRunners, type RoleTurn, type RoleTurnResult } from './roleRunner';

/** Options of {@link createAgentRoleRunners}. */
export interface AgentRoleRunnerOptions {
  llm: LlmClient;
  /** The model the person configured; it wins over the model named in the role's JSON config. */
  model: string;
  /**
   * The session's tools behind approvals: the workspace tools (list_files, read_file, write_file, edit_file, run_tests)
   * and any MCP server tools. Each role sees only what its config's `tools` list names or matches.
   */
  toolbox: AgentToolbox;
  /** Receives the roles' model and tool calls as supervisor events. */
  emit(event: SupervisorEvent): void;
  /** Model calls one turn may take (default 25). */
  maxModelCalls?: number;
  /** Where `config/agents` lives (default: the bundled one). */
  configRoot?: string;
  /** Limit of one model call in ms (default: the agent default, 120 s); the CLI's `--timeout`. */
  timeoutMs?: number;
  /** Stream the roles' text as `role_text` events while the model writes it (the panel shows it as it arrives). */
  streamText?: boolean;
  /** Distinct files one turn may write with write_file / edit_file (default 50); further writes are refused. */
  maxFilesPerTurn?: number;
  /**
   * Told every model call of a role a team added (`createAgentRoleRunner` with a role outside the TDD three), whose
   * calls are not `model_called` events (those name a TDD role): the session counts their tokens with it.
   */
  onModelCall?(usage: { promptTokens: number; completionTokens: number }, latencyMs: number): void;
}

/**
 * The toolbox with every call made in `role`'s name (not the turn's agent id): an approval request then says which
 * role asks, with no one having to remember whose phase it is.
 */
function requestedAs(toolbox: AgentToolbox, role: string): AgentToolbox {
  return {
    toolSpecs: () => toolbox.toolSpecs(),
    executeCall: (call, options) => toolbox.executeCall(call, { ...options, requestedBy: role }),
  };
}

/** Tools that change no file: a round of only these calls cannot have reached a turn's goal. */
const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(['list_files', 'read_file', 'search_files', 'run_tests', 'ask_person']);

const summaryOf = (content: string): string => {
  const line = redactSecrets(content.split('\n').find((l) => l.trim()) ?? '');
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
};

/**
 * The roles as agents defined by data: each turn is a ReAct run of `<configRoot>/<role>/v1.json` with the
 * toolbox tools its `tools` list allows (the shipped configs: the five workspace tools); its final message
 * (no tool call) is the report. Each turn may write at most `maxFilesPerTurn` distinct files (default 50).
 */
export function createAgentRoleRunners(options: AgentRoleRunnerOptions): RoleRunners {
  return {
    tester: createAgentRoleRunner(options, 'tester'),
    implementer: createAgentRoleRunner(options, 'implementer'),
    refactorer: createAgentRoleRunner(options, 'refactorer'),
  };
}

/**
 * One role as an agent defined by data (`<configRoot>/<role>/v1.json`), as {@link createAgentRoleRunners} makes each
 * TDD role; also a role a team added (a Reviewer), whose turns are not reported as role events (the supervisor's
 * events name the TDD roles only) and whose model calls go to `onModelCall`. Each turn's agent carries the turn's
 * lifecycle hooks (the phase's file rule and a team's rules).
 */
export function createAgentRoleRunner(options: AgentRoleRunnerOptions, role: string): RoleRunner {
  const maxFilesPerTurn = options.maxFilesPerTurn ?? DEFAULT_MAX_FILES_PER_TURN;
  if (!Number.isInteger(maxFilesPerTurn) || maxFilesPerTurn < 1) {
    throw new AgentError('CONFIG', `maxFilesPerTurn must be a whole number of at least 1, got ${String(maxFilesPerTurn)}.`, {
      maxFilesPerTurn: String(maxFilesPerTurn),
    });
  }
  const emit = (event: SupervisorEvent): void => {
    if (isTddRole(role)) options.emit(event);
    else if (event.type === 'model_called')
      options.onModelCall?.({ promptTokens: event.promptTokens, completionTokens: event.completionTokens }, event.latencyMs);
  };
  const runner: TurnRunner = { options, role, maxModelCalls: options.maxModelCalls ?? 25, maxFilesPerTurn, emit };
  return {
    contextTokens: () => {
      try {
        return Promise.resolve(
          AgentFactory.create(role, 'v1', undefined, { configRoot: options.configRoot }).config.context_tokens,
        );
      } catch {
        return Promise.resolve(undefined); // the turn itself reports what is wrong with the config
      }
    },
    runTurn: (turn) => runAgentTurn(runner, turn),
  };
}

/** One role's runner: its settings and where its events go. */
interface TurnRunner {
  options: AgentRoleRunnerOptions;
  role: string;
  maxModelCalls: number;
  maxFilesPerTurn: number;
  emit: (event: SupervisorEvent) => void;
}

/** The last model message with text: when the goal ends the turn, its words are the role's report. */
type LastWords = { message: number; text: string } | undefined;

/** One turn: the role's agent runs on the turn's context; its final message (or its last words, goal reached) is the report. */
async function runAgentTurn(runner: TurnRunner, turn: RoleTurn): Promise<RoleTurnResult> {
  const { options, role, emit } = runner;
  const words: { last: LastWords } = { last: undefined };
  const result = await turnAgent(runner, turn).execute(
    { context: turn.context },
    { signal: turn.signal, onEvent: turnEvents(runner, turn, words), streamText: options.streamText === true },
  );
  if (result.error) throw new AgentError(result.error.error_code, result.error.message, result.error.details);
  const report = typeof result.final_answer === 'string' ? result.final_answer : '';
  if (result.goal_reached) {
    // Said beside its last tool call, these words became its report: the same message, now final.
    const lastWords = words.last;
    if (lastWords)
      emit({
        type: 'role_message',
        cycle: turn.cycle,
        role: role as Role,
        attempt: turn.attempt,
        message: lastWords.message,
        text: lastWords.text,
        final: true,
      });
    return { report, goalReached: true };
  }
  if (result.metadata.terminationReason === 'max_cycles' && !report) {
    return { report: `The ${role} used all ${runner.maxModelCalls} model calls without finishing its turn.` };
  }
  return { report };
}

/** The turn's agent: the role's config, the toolbox limited to the files a turn may write, the turn's hooks and goal. */
function turnAgent({ options, role, maxModelCalls, maxFilesPerTurn }: TurnRunner, turn: RoleTurn): ReActAgent {
  return new ReActAgent({
    llm: options.llm,
    id: `${role}-c${turn.cycle}a${turn.attempt}`,
    config: {
      model: options.model,
      maxCycles: maxModelCalls,
      errorHandling: false,
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    },
    agentConfig: { agent: role, version: 'v1', configRoot: options.configRoot },
    // A fresh count per turn: one turn writes at most maxFilesPerTurn distinct files.
    toolbox: limitFilesWritten(requestedAs(options.toolbox, role), maxFilesPerTurn),
    compactMessages: compactFileContents,
    ...(turn.hooks?.length ? { lifecycle: turn.hooks } : {}),
    ...(turn.goalReached
      ? {
          goalCheck: (steps: readonly CycleStep[]) => steps.some((s) => !READ_ONLY_TOOLS.has(s.action)) && turn.goalReached!(),
        }
      : {}),
  });
}

/** The agent's events as the supervisor's (streamed words, model calls, tool calls); the last words kept in `words`. */
function turnEvents({ emit, role }: TurnRunner, turn: RoleTurn, words: { last: LastWords }): (event: AgentEvent) => void {
  // Typed as a TDD role for the events; a team's role's events never reach options.emit (see emit).
  const eventRole = role as Role;
  const at = { cycle: turn.cycle, role: eventRole };
  return (event) => {
    if (event.type === 'text_delta') {
      emit({ type: 'role_text', ...at, attempt: turn.attempt, message: event.cycle, delta: event.delta });
    } else if (event.type === 'model_called') {
      emit({
        type: 'model_called',
        ...at,
        promptTokens: event.usage.promptTokens,
        completionTokens: event.usage.completionTokens,
        latencyMs: Math.round(event.latencyMs),
        ...(event.toolCallsFromText ? { toolCallsFromText: event.toolCallsFromText } : {}),
      });
      if (!event.text.trim()) return;
      words.last = { message: event.cycle, text: redactSecrets(event.text) };
      const text = redactSecrets(event.text);
      emit({ type: 'role_message', ...at, attempt: turn.attempt, message: event.cycle, text, final: event.toolCalls === 0 });
    } else if (event.type === 'tool_called') {
      const r = event.result;
      emit({
        type: 'tool_called',
        ...at,
        callId: event.callId,
        tool: event.toolName,
        params: redactValue(event.params),
        ok: r.ok,
        summary: summaryOf(r.content),
        approval: r.approval,
        durationMs: Math.round(r.durationMs),
      });
    }
  };
}
