/**
 * A custom role rule as a lifecycle hook: the team's rule "no console.log in production code" is a `wrapToolCall`
 * hook on the Implementer's agent. A write_file or edit_file call that would put a console.log into a production file
 * is refused before it runs (nothing is written, no person is asked), and the model reads the reason; every other call
 * passes. It is given to the session in `roleHooks`, by role; the built-in rules (the Tester writes only tests, the
 * Implementer never edits them) are hooks of the same kind, put on every turn by the supervisor.
 *
 *   OPENAI_API_KEY=sk-... npx tsx examples/role-rule-hook.ts        (MAX_CYCLES=3 by default)
 */
import type { AgentLifecycle } from 'tdd-agent/core';
import { isTestFile, refuseCall } from 'tdd-agent/tdd';
import { runFizzBuzz, runMain } from './support/fizzbuzzSession';

/** What a write_file or edit_file call would write, and where. */
function writeOf(toolName: string, params: unknown): { path: string; text: string } | undefined {
  const p = (params ?? {}) as { path?: unknown; content?: unknown; edits?: Array<{ replace?: unknown }> };
  if (typeof p.path !== 'string') return undefined;
  if (toolName === 'write_file' && typeof p.content === 'string') return { path: p.path, text: p.content };
  if (toolName === 'edit_file' && Array.isArray(p.edits))
    return { path: p.path, text: p.edits.map((e) => String(e.replace)).join('\n') };
  return undefined;
}

/** The team's rule: production code never logs to the console. */
export const noConsoleLog: AgentLifecycle = {
  name: 'no-console-log',
  wrapToolCall(toolName, next, params) {
    const write = writeOf(toolName, params);
    if (write && !isTestFile(write.path, { testDir: 'test' }) && /\bconsole\.log\(/.test(write.text))
      return Promise.resolve(refuseCall(toolName, `${write.path}: production code must not call console.log (our team rule).`));
    return next();
  },
};

runMain(() =>
  runFizzBuzz({
    roleHooks: { implementer: [noConsoleLog] },
    onEvent: (event) => {
      if (event.type === 'tool_called' && !event.ok && event.approval === 'policy_denied')
        console.log(`  refused ${event.tool} of the ${event.role}: ${event.summary}`);
      if (event.type === 'cycle_finished') console.log(`cycle ${event.cycle}: ${event.outcome}`);
    },
  }),
);
