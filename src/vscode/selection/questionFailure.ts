/**
 * Why a question to the QA or CoT agent got no answer, said on the question's own card in the panel (at the top, where
 * it was asked) in a person's words, with what to do besides Retry. Pure (no `vscode`): the browser tests use it too.
 */
import type { PendingQuestion } from '../../shared/panelProtocol';
import { errorAction, errorFixes, vscodeErrorMessage } from '../panel/errorActions';

/** Which agent to ask. */
export type SelectionAgentKind = 'qa' | 'cot';

/** What the model is asked to answer with, in a person's words. */
const ANSWER_SHAPE: Record<SelectionAgentKind, string> = {
  qa: 'an answer with its confidence',
  cot: 'numbered steps and a final answer',
};

/**
 * Why answering failed, in a person's words, for the question's own card: what happened (its title), the facts and
 * what to do besides Retry. A reply that never took the form asked for says so, not "output schema … max_attempts".
 */
export function questionFailure(
  kind: SelectionAgentKind,
  error: { error_code: string; message: string; details?: Record<string, unknown> },
): NonNullable<PendingQuestion['failed']> {
  if (error.error_code === 'OUTPUT_VALIDATION_FAILED') {
    const attempts = typeof error.details?.attempts === 'number' ? error.details.attempts + 1 : undefined;
    return {
      error_code: error.error_code,
      title: kind === 'cot' ? 'The model’s explanation could not be read' : 'The model’s answer could not be read',
      message: `The model did not reply with ${ANSWER_SHAPE[kind]} in the form it was asked for${attempts && attempts > 1 ? `, in ${attempts} tries` : ''}.`,
      action: 'Retry; if it happens again, pick another model.',
      fixes: ['pickModel'],
    };
  }
  const action = errorAction(error.error_code, error.details);
  const fixes = errorFixes(error.error_code, error.details);
  return {
    error_code: error.error_code,
    title: kind === 'cot' ? 'The explanation could not be written' : 'The question could not be answered',
    message: vscodeErrorMessage(error),
    ...(action ? { action } : {}),
    ...(fixes.length > 0 ? { fixes } : {}),
  };
}
