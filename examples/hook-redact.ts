/**
 * A `beforeModel` lifecycle hook that redacts e-mail addresses from every message before it leaves the
 * process. The hook returns replacement messages; the model (and any log of the server) never sees the
 * addresses. No signature and no agent config: the agent runs in fallback mode, and the result is `{ response }`.
 *
 *   OPENAI_API_KEY=sk-... npx tsx examples/hook-redact.ts
 */

import { type AgentLifecycle, BaseAgent, type ChatMessage, createAgentRuntime } from 'tdd-agent/core';
const EMAIL = /[\w.+-]+@[\w-]+(\.[\w-]+)+/g;

/** Replaces e-mail addresses in the text of every message with `[email]`. */
export const redactEmails: AgentLifecycle = {
  name: 'redact-emails',
  beforeModel(messages: ChatMessage[]): ChatMessage[] {
    return messages.map(
      (m) => (typeof m.content === 'string' ? { ...m, content: m.content.replace(EMAIL, '[email]') } : m) as ChatMessage,
    );
  },
  // wrapModelCall sees the call after beforeModel; here it only reports what was sent.
  async wrapModelCall(next) {
    const result = await next();
    console.log(`model answered in ${result.latencyMs} ms`);
    return result;
  },
};

async function main(): Promise<void> {
  const runtime = await createAgentRuntime({ model: process.env.MODEL });
  const agent = runtime.create(BaseAgent).withLifecycle(redactEmails);
  const ticket =
    'Customer jane.doe@example.com cannot log in since Monday; her manager bob@corp.example.org asked for an update.';
  console.log(`input: ${ticket}`);
  console.log(`sent: ${ticket.replace(EMAIL, '[email]')}`);

  const result = await agent.execute({ prompt: `Write a one-sentence status update for this support ticket: ${ticket}` });
  console.log(`response: ${String(result.response)}`);
}

main().catch((error: { error_code?: string; message?: string }) => {
  console.error(`${error.error_code ?? 'ERROR'}: ${error.message}`);
  process.exitCode = 1;
});
