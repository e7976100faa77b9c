/**
 * Every message the panel may send to the host, in one list. Each message is one file of this folder (its schema,
 * its builder for the panel, and its host handler, made with `definePanelMessage`); adding one is a new file and a
 * line in {@link PANEL_MESSAGES}. See docs/extending.md, "A new panel message".
 */
import * as z from 'zod/mini';
import { approvalResponse } from './approvalResponse';
import { cancelQuestion } from './cancelQuestion';
import { command } from './command';
import { followUp } from './followUp';
import { log } from './log';
import { openCommit } from './openCommit';
import { openDiff } from './openDiff';
import { openFile } from './openFile';
import { openLog } from './openLog';
import { openTestOutput } from './openTestOutput';
import type { PanelHost } from './panelHost';
import { personQuestionAnswer } from './personQuestionAnswer';
import { personQuestionDecline } from './personQuestionDecline';
import { ready } from './ready';
import { retryQuestion } from './retryQuestion';
import { sessionAction } from './sessionAction';

/** The registry: every panel → host message. */
export const PANEL_MESSAGES = [
  ready,
  approvalResponse,
  command,
  sessionAction,
  openCommit,
  openFile,
  openTestOutput,
  openDiff,
  followUp,
  cancelQuestion,
  retryQuestion,
  log,
  personQuestionAnswer,
  personQuestionDecline,
  openLog,
] as const;

type Definitions = typeof PANEL_MESSAGES;
/** The schemas of a list of definitions, as a tuple (a mapped type keeps a tuple only over a type parameter). */
type SchemasOf<T extends readonly unknown[]> = { readonly [K in keyof T]: T[K] extends { schema: infer S } ? S : never };
type Schemas = SchemasOf<Definitions>;

/** Every message the panel may send to the host (validated by the host with `parsePanelMessage`). */
export const PanelMessageSchema = z.discriminatedUnion('type', PANEL_MESSAGES.map((m) => m.schema) as unknown as Schemas);

/** Any panel → host message. */
export type PanelMessage = z.infer<typeof PanelMessageSchema>;
/** The panel → host message of type `T`. */
export type PanelMessageOf<T extends PanelMessage['type']> = Extract<PanelMessage, { type: T }>;

/** Message `type`s sent by the panel to the host. */
export const PANEL_MESSAGE = Object.fromEntries(PANEL_MESSAGES.map((m) => [m.type, m.type])) as {
  readonly [T in PanelMessage['type']]: T;
};

const BY_TYPE: ReadonlyMap<string, Definitions[number]> = new Map(PANEL_MESSAGES.map((m) => [m.type, m]));

/** Carries out a valid panel message on the host: its definition's handler. Returns what the handler returned (maybe a promise). */
export function handlePanelMessage(message: PanelMessage, host: PanelHost): unknown {
  const definition = BY_TYPE.get(message.type);
  if (!definition) throw new Error(`no handler for panel message ${message.type}`);
  return definition.handle(message as never, host);
}
