/**
 * What a control of the panel does, attached to its element when it is rendered: the message it posts to the host,
 * or the panel's own part (an approval answered optimistically, the history's filter, a role's question answered).
 * The controller's one click (and submit) listener finds the activated element's intent and carries it out; nothing
 * is rebuilt from `data-*` attributes. (The `data-*` attributes that remain are hooks for tests and styles.)
 */
import type { PanelMessage, PanelMessageOf } from '../src/shared/panelProtocol';
import type { HistoryFilter } from './render/context';

/** What activating a control does. */
export type PanelIntent =
  /** Post `message` to the host; `disableAfter`: the control is disabled until the next snapshot replaces it. */
  | { kind: 'post'; message: PanelMessage; disableAfter?: boolean }
  /** A person's decision on an approval card: posted once, and the card greys out until the host drops it. */
  | { kind: 'approval'; message: PanelMessageOf<'approvalResponse'> }
  /** Show only part of the action history. */
  | { kind: 'historyFilter'; filter: HistoryFilter }
  /** Answer a role's question: with the typed text, one of its choices, or "Let the agent decide". */
  | { kind: 'personQuestion'; questionId: string; answer: { typed: true } | { choice: string } | { decline: true } }
  /** A form whose text becomes a message (a follow-up question). */
  | { kind: 'submit'; message: (text: string) => PanelMessage };

const intents = new WeakMap<Element, PanelIntent>();

/** Attaches `intent` to `element` (returned, so it composes with `h`). */
export function withIntent<E extends Element>(element: E, intent: PanelIntent): E {
  intents.set(element, intent);
  return element;
}

/** A control that posts `message` when activated. */
export function sends<E extends Element>(element: E, message: PanelMessage): E {
  return withIntent(element, { kind: 'post', message });
}

/** The intent of `element` itself, if it has one. */
export function intentOf(element: Element): PanelIntent | undefined {
  return intents.get(element);
}

/** The nearest element from `target` up to `root` that has an intent, with its intent. */
export function findIntent(target: EventTarget | null, root: Element): { element: Element; intent: PanelIntent } | undefined {
  for (let element = target instanceof Element ? target : null; element && element !== root; element = element.parentElement) {
    const intent = intents.get(element);
    if (intent) return { element, intent };
  }
  return undefined;
}
