import type { ControlProtocol, QuestionAnswer } from '../../control/controlProtocol';
import { redactSecrets } from '../../security/redact';
import type { AskPerson } from '../../tools/builtin/askPerson';
import { type SupervisorEvent } from '../events';
import { ROLE_TITLES, type Role } from '../../vocabulary';
import type { SessionRecorder } from '../session/sessionRecorder';

/** What {@link PersonQuestions} works with. */
export interface PersonQuestionsOptions {
  /** Where questions go (the panel's question card, the terminal's prompt); without one no one can answer. */
  control?: ControlProtocol;
  /** How long a person has to answer one question. */
  timeoutMs?: number;
  /** Keeps each question and its answer in the session record. */
  recorder: SessionRecorder;
  /** Receives the `person_question` event of each question. */
  emit(event: SupervisorEvent): void;
}

/**
 * The roles' questions to the person (`ask_person`) for one session: each goes out through the control protocol as
 * its question message, naming the role that asks; the answer — or that no one answered, and why — is recorded in
 * the session record, reported as a `person_question` event, and shown in every role's context from then on, so
 * every role works with what the person said.
 */
export class PersonQuestions {
  private turn: { role: Role; cycle: number } = { role: 'tester', cycle: 0 };
  private readonly asked: string[] = [];

  constructor(private readonly o: PersonQuestionsOptions) {}

  /** The role whose turn runs now: its questions are asked and recorded in its name. */
  startTurn(role: Role, cycle: number): void {
    this.turn = { role, cycle };
  }

  /** The `ask_person` tool's handler. */
  readonly ask: AskPerson = async (question, signal) => {
    const { role, cycle } = this.turn;
    const answer: QuestionAnswer = this.o.control
      ? await this.o.control.ask(`The ${ROLE_TITLES[role]} asks: ${question}`, { timeoutMs: this.o.timeoutMs, signal })
      : { id: '', outcome: 'declined' };
    const text = answer.outcome === 'answered' && answer.text?.trim() ? redactSecrets(answer.text.trim()) : undefined;
    const record = {
      cycle,
      role,
      question: redactSecrets(question),
      outcome: answer.outcome,
      ...(text !== undefined ? { answer: text } : {}),
      ...(answer.answeredBy ? { answeredBy: answer.answeredBy } : {}),
    };
    this.o.recorder.question(record);
    this.o.emit({ type: 'person_question', ...record });
    this.asked.push(
      text !== undefined
        ? `The ${ROLE_TITLES[role]} asked the person: ${record.question}\nThe person answered: ${text}`
        : `The ${ROLE_TITLES[role]} asked the person: ${record.question}\nNo one answered; the ${ROLE_TITLES[role]} decided by itself.`,
    );
    return answer;
  };

  /** Every question asked so far with its answer, oldest first: each role's context shows them from then on. */
  answers(): readonly string[] {
    return this.asked;
  }
}
