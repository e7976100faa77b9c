/**
 * The panel state's question cards (a role's `ask_person`), as pure functions the reducer applies: a question
 * from the control protocol adds a card, its answer, withdrawal or the end of the session removes it.
 */
import type { PanelState } from '../../shared/panelProtocol';
import type { PendingPersonQuestion } from '../../shared/personQuestionProtocol';

/** Adds (or replaces) the card of `question`. */
export function addPersonQuestion(state: PanelState, question: PendingPersonQuestion): PanelState {
  const personQuestions = [...(state.personQuestions ?? []).filter((q) => q.id !== question.id), question];
  return { ...state, personQuestions };
}

/** Removes the card of question `id`; the same state when there is none. */
export function removePersonQuestion(state: PanelState, id: string): PanelState {
  if (!state.personQuestions?.some((q) => q.id === id)) return state;
  return { ...state, personQuestions: state.personQuestions.filter((q) => q.id !== id) };
}
