import { z } from 'zod';
import { APPROVAL_DECISIONS, DANGER_LEVELS } from '../vocabulary';

/**
 * The control protocol's messages, defined once (zod schema + inferred type). The agent side
 * sends `approval_request`, `question`, `progress` and `cancel`; the person side (terminal,
 * panel, test) sends `approval_response`, `answer` and `user_input`. Requests and their answers
 * are correlated by `id` (crypto.randomUUID). The panel protocol embeds these schemas.
 */

const id = z.string().min(1).max(200);

/**
 * What a tool call would change, shown before approval: a unified diff for file changes, the
 * command line for commands and commits, method and URL for HTTP requests, or plain text
 * (MCP and custom tools). Matches `ToolCallPreview` of the built-in tools plus `text`.
 */
export const toolCallPreviewSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('diff'), path: z.string(), diff: z.string() }),
  z.object({ kind: z.literal('command'), commandLine: z.string() }),
  z.object({ kind: z.literal('request'), method: z.string(), url: z.string(), hasBody: z.boolean() }),
  z.object({ kind: z.literal('text'), text: z.string() }),
]);
/** A preview of what a tool call would change. */
export type ToolCallPreviewMessage = z.infer<typeof toolCallPreviewSchema>;

/** The agent asks a person to approve one tool call. */
export const approvalRequestSchema = z.object({
  type: z.literal('approval_request'),
  id,
  tool: z.string(),
  dangerLevel: z.enum(DANGER_LEVELS),
  /** Parameters with secrets redacted. */
  params: z.unknown(),
  /** What would change: a diff for file writes, the command line for commands. */
  preview: toolCallPreviewSchema.optional(),
  /** Why approval is needed (e.g. "writes under .vscode/ need HIGH approval"). */
  reason: z.string().optional(),
  /** Who asked: a TDD role (`tester`) or an agent's id; absent for the supervisor's own requests. */
  requestedBy: z.string().max(200).optional(),
  /** The model's tool-call id the request is for (the same id as the call's result and history entry). */
  callId: z.string().max(200).optional(),
  timeoutMs: z.number().int().positive(),
  /** ISO time after which the request is denied automatically. */
  expiresAt: z.string(),
});
/** An `approval_request` message. */
export type ApprovalRequestMessage = z.infer<typeof approvalRequestSchema>;

export { APPROVAL_DECISIONS, type ApprovalDecision } from '../vocabulary';

/** The person's answer to an approval request. */
export const approvalResponseSchema = z.object({
  type: z.literal('approval_response'),
  id,
  decision: z.enum(APPROVAL_DECISIONS),
  /** Who answered, e.g. `terminal`, `panel`, `terminal:--yes`. */
  answeredBy: z.string().min(1).max(200),
  /** Optional words from the person (shown to the model on a denial). */
  reason: z.string().max(2000).optional(),
});
/** An `approval_response` message. */
export type ApprovalResponseMessage = z.infer<typeof approvalResponseSchema>;

/** The agent asks a person a question, optionally with choices. */
export const questionSchema = z.object({
  type: z.literal('question'),
  id,
  text: z.string(),
  choices: z.array(z.string()).optional(),
  timeoutMs: z.number().int().positive().optional(),
});
/** A `question` message. */
export type QuestionMessage = z.infer<typeof questionSchema>;

/** The person's answer to a question. */
export const answerSchema = z.object({
  type: z.literal('answer'),
  id,
  text: z.string(),
  answeredBy: z.string().min(1).max(200).optional(),
  /** True when the person side cannot answer (e.g. a non-interactive terminal); `text` is then empty. */
  declined: z.boolean().optional(),
});
/** An `answer` message. */
export type AnswerMessage = z.infer<typeof answerSchema>;

/** Free text a person sends to the running agent (not an answer to anything). */
export const userInputSchema = z.object({
  type: z.literal('user_input'),
  id,
  text: z.string(),
});
/** A `user_input` message. */
export type UserInputMessage = z.infer<typeof userInputSchema>;

/** One-way progress note from the agent to the person. */
export const progressSchema = z.object({
  type: z.literal('progress'),
  id,
  message: z.string(),
  data: z.unknown().optional(),
});
/** A `progress` message. */
export type ProgressMessage = z.infer<typeof progressSchema>;

/** The agent withdraws a pending request (timed out or cancelled): the card/prompt should go away. */
export const cancelSchema = z.object({
  type: z.literal('cancel'),
  id,
  reason: z.enum(['timeout', 'cancelled', 'closed']),
});
/** A `cancel` message. */
export type CancelMessage = z.infer<typeof cancelSchema>;

/** Messages the agent side sends. */
export const agentToPersonMessageSchema = z.discriminatedUnion('type', [
  approvalRequestSchema,
  questionSchema,
  progressSchema,
  cancelSchema,
]);
/** Any message the agent side sends. */
export type AgentToPersonMessage = z.infer<typeof agentToPersonMessageSchema>;

/** Messages the person side sends. */
export const personToAgentMessageSchema = z.discriminatedUnion('type', [approvalResponseSchema, answerSchema, userInputSchema]);
/** Any message the person side sends. */
export type PersonToAgentMessage = z.infer<typeof personToAgentMessageSchema>;

/** Any control message. */
export const controlMessageSchema = z.discriminatedUnion('type', [
  ...agentToPersonMessageSchema.options,
  ...personToAgentMessageSchema.options,
]);
/** Any control message. */
export type ControlMessage = z.infer<typeof controlMessageSchema>;

/** Every control message type name. */
export const CONTROL_MESSAGE_TYPES = [
  'approval_request',
  'approval_response',
  'question',
  'answer',
  'user_input',
  'progress',
  'cancel',
] as const;
