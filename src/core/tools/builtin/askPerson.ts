import { z } from 'zod';
import type { QuestionAnswer } from '../../control/controlProtocol';
import { defineTool } from '../types';
import { BuiltinToolError } from './errors';

/** Longest question a model may ask (a question, not a document). */
const MAX_QUESTION_CHARS = 1_000;

/** Parameters of `ask_person`. */
export const askPersonParameters = z.object({ question: z.string() });

/** Where a question goes: the control protocol's `ask` (the panel's question card, the terminal's prompt). */
export type AskPerson = (question: string, signal: AbortSignal) => Promise<QuestionAnswer>;

/** What the model reads when nobody answered, by why. */
const NO_ANSWER: Record<Exclude<QuestionAnswer['outcome'], 'answered'>, string> = {
  declined: 'No one can answer now: the session runs unattended.',
  timeout: 'No one answered in time.',
  cancelled: 'The question was withdrawn before anyone answered.',
};

/**
 * `ask_person` (SAFE): asks the person one question and returns the answer. When no one is there (`--yes`, no
 * terminal, no panel) or no one answers in time, the model is told so and to decide itself, saying what it assumed.
 * Nothing in the workspace is read or changed.
 */
export function createAskPersonTool(ask: AskPerson) {
  return defineTool({
    name: 'ask_person',
    description: 'Ask the person one question; returns the answer.',
    category: 'custom',
    dangerLevel: 'SAFE',
    usesWorkspace: false,
    parameters: askPersonParameters,
    async execute(params, context) {
      // Checked here rather than in the schema: every request carries the schema, and the limits only cost tokens there.
      const question = params.question.trim().slice(0, MAX_QUESTION_CHARS);
      if (!question) throw new BuiltinToolError('ask_person', 'The question is empty: ask one short, specific question.', {});
      const answer = await ask(question, context.signal);
      const text = answer.text?.trim();
      if (answer.outcome === 'answered' && text) {
        return { content: `The person answered: ${text}`, data: answer };
      }
      const why = answer.outcome === 'answered' ? 'The person gave an empty answer.' : NO_ANSWER[answer.outcome];
      return {
        content: `${why} Decide yourself: take the most likely reading of the task, say in your report what you assumed, and go on.`,
        data: answer,
      };
    },
  });
}
