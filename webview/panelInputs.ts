/** The person's keys and forms on the panel that need no panel state: approval keys on a card, a follow-up question. */
import { logMessage } from '../src/shared/panelProtocol';
import { textNode } from './dom';
import { intentOf } from './intents';
import { approvalKeyDecision } from './render/approvals';
import type { VsCodeApi } from './vscodeApi';

/** A, Shift+A / L and D on an open approval card (or inside it) press its button; true when the key was taken. */
export function pressApprovalKey(event: KeyboardEvent): boolean {
  const card = event.target instanceof Element ? event.target.closest<HTMLElement>('.approval-card:not(.is-settled)') : null;
  if (!card) return false;
  const decision = approvalKeyDecision(event);
  if (!decision) return false;
  const button = Array.from(card.querySelectorAll<HTMLButtonElement>('button')).find((b) => {
    const intent = intentOf(b);
    return intent?.kind === 'approval' && intent.message.decision === decision;
  });
  if (!button || button.disabled) return false;
  event.preventDefault();
  button.click();
  return true;
}

/** A follow-up question typed under an answer: one message to the host, then the input is cleared. */
export function submitFollowUp(event: SubmitEvent, api: VsCodeApi, announcer: HTMLElement): void {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const intent = intentOf(form);
  if (intent?.kind !== 'submit') return;
  event.preventDefault();
  const input = form.querySelector<HTMLInputElement>('input');
  const text = input?.value.trim() ?? '';
  if (!input || text === '') return;
  api.postMessage(intent.message(text));
  input.value = '';
  announcer.replaceChildren(textNode('Follow-up question sent.'));
}

/** Reports a render that threw to the host's log (the panel keeps its last good page). */
export function renderFailure(error: unknown): ReturnType<typeof logMessage> {
  return logMessage('error', `panel render failed: ${error instanceof Error ? error.message : String(error)}`);
}

/** An event listener to add to a target now and remove on dispose. */
export type Listener = [target: EventTarget, type: string, handler: (event: never) => void, capture?: boolean];

/** Adds each listener; the function returned removes them all. */
export function listen(listeners: readonly Listener[]): () => void {
  for (const [target, type, handler, capture] of listeners) target.addEventListener(type, handler as EventListener, capture);
  return () => {
    for (const [target, type, handler, capture] of listeners) target.removeEventListener(type, handler as EventListener, capture);
  };
}
