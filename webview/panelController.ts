/**
 * The panel's behaviour: receive and validate host messages, render snapshots, persist them,
 * post the person's decisions and commands back, and keep approval countdowns live.
 */
import {
  HOST_MESSAGE,
  isNewerSnapshot,
  logMessage,
  parseHostMessage,
  readyMessage,
  type ApprovalDecision,
  type PanelState,
} from '../src/shared/panelProtocol';
import { fromPersisted, toPersisted } from './persistence';
import { tickCountdowns } from './render/approvals';
import { findIntent } from './intents';
import { panelAnnouncer } from './panelAnnouncer';
import {
  focusNewApproval,
  focusNextOpenApproval,
  focusWaitingCard,
  followHistory,
  isFollowingHistory,
  revealNewAnswer,
} from './panelFocus';
import { listen, pressApprovalKey, renderFailure, submitFollowUp } from './panelInputs';
import { KEY_ATTR, type HistoryFilter } from './render/context';
import { renderPanel } from './render/panel';
import { personQuestionController } from './personQuestionController';
import type { VsCodeApi } from './vscodeApi';

/** A running panel; `dispose` stops its countdown timer and removes its listeners. */
export interface PanelController {
  dispose(): void;
}

/** Starts the panel in `root`: restores the saved snapshot, wires events, and says `ready` to the host. */
export function startPanel(api: VsCodeApi, root: HTMLElement, announcer: HTMLElement): PanelController {
  const restored = fromPersisted(api.getState());
  let current: PanelState | undefined = restored?.state;
  const answered = restored?.answered ?? new Map<string, ApprovalDecision>();
  const openDetails = restored?.openDetails ?? new Map<string, boolean>();
  let historyFilter: HistoryFilter = restored?.historyFilter ?? 'all';
  const announceChanges = panelAnnouncer(announcer);

  const persist = (): void => {
    if (current) api.setState(toPersisted({ state: current, answered, openDetails, historyFilter }));
  };
  const personQuestions = personQuestionController({ api, root, announcer, state: () => current, render: () => render() });
  const render = (): void => {
    if (!current) return;
    try {
      const view = { now: Date.now(), answered, historyFilter, personQuestionsSent: personQuestions.sent };
      renderPanel(root, current, view, openDetails);
    } catch (error) {
      api.postMessage(renderFailure(error));
    }
  };

  // The first snapshot after a (re)load, shown with the focus: a waiting card takes it, unless a click brought the focus.
  let pointerFocus = false;
  let hostStateSeen = false;
  const onPointerDown = (): void => {
    pointerFocus = true;
    window.setTimeout(() => (pointerFocus = false), 0);
  };
  const onWindowFocus = (): void => {
    if (!pointerFocus) focusWaitingCard(root);
  };

  const applyState = (next: PanelState): void => {
    if (!isNewerSnapshot(current, next)) return;
    const previous = current;
    const following = isFollowingHistory(root, previous);
    current = next;
    // Forget answers to requests the host no longer lists (resolved, timed out).
    const pending = new Set(next.approvals.map((request) => request.requestId));
    for (const requestId of [...answered.keys()]) if (!pending.has(requestId)) answered.delete(requestId);
    render();
    persist();
    announceChanges(previous, next);
    focusNewApproval(root, previous, next, answered);
    if (!hostStateSeen && document.hasFocus()) onWindowFocus();
    hostStateSeen = true;
    personQuestions.afterState(previous, next);
    if (!revealNewAnswer(root, previous, next) && following) followHistory(root, previous, next);
  };

  const onMessage = (event: MessageEvent): void => {
    const { message, reason } = parseHostMessage(event.data);
    if (!message) api.postMessage(logMessage('warn', `dropped ${reason}`));
    else if (message.type === HOST_MESSAGE.state) applyState(message.state);
  };

  /** Carries out what the clicked control was rendered to do (see `intents.ts`). */
  const onClick = (event: MouseEvent): void => {
    const found = findIntent(event.target, root);
    if (!found || !(found.element instanceof HTMLButtonElement) || found.element.disabled) return;
    const { element: button, intent } = found;
    if (intent.kind === 'post') {
      api.postMessage(intent.message);
      if (intent.disableAfter) button.disabled = true;
    } else if (intent.kind === 'approval' && !answered.has(intent.message.requestId)) {
      // A decision is posted once; the card greys out (optimistic) until the host drops it.
      api.postMessage(intent.message);
      answered.set(intent.message.requestId, intent.message.decision);
      render();
      persist();
      focusNextOpenApproval(root);
    } else if (intent.kind === 'historyFilter' && intent.filter !== historyFilter) {
      historyFilter = intent.filter;
      render();
      persist();
    } else if (intent.kind === 'personQuestion') personQuestions.onIntent(intent);
    // 'submit' is a form's, on submit.
  };

  // Only the person's own opening and closing is remembered. A <details> the render opens (the running cycle's
  // history) fires a toggle event too, as a task that comes before the next render or after it, so remembering
  // those made which cycles stay open a race.
  const toggledByPerson = new WeakSet<HTMLDetailsElement>();
  const onSummaryClick = (event: MouseEvent): void => {
    const details = event.target instanceof Element ? event.target.closest('summary')?.parentElement : null;
    if (details instanceof HTMLDetailsElement) toggledByPerson.add(details);
  };
  const onToggle = (event: Event): void => {
    const details = event.target;
    if (!(details instanceof HTMLDetailsElement) || !toggledByPerson.delete(details)) return;
    const key = details.getAttribute(KEY_ATTR);
    if (!key) return;
    openDetails.set(key, details.open);
    persist();
  };

  const ticker = window.setInterval(() => {
    tickCountdowns(root, Date.now());
    personQuestions.tick(Date.now());
  }, 1000);
  const unlisten = listen([
    [window, 'message', onMessage],
    [window, 'focus', onWindowFocus],
    [document, 'pointerdown', onPointerDown, true],
    [root, 'click', onClick],
    [root, 'click', onSummaryClick, true], // a summary's click (or Enter, Space) comes before its toggle
    [root, 'keydown', (event: KeyboardEvent) => personQuestions.onKeyDown(event) || pressApprovalKey(event)],
    [root, 'submit', (event: SubmitEvent) => submitFollowUp(event, api, announcer)],
    [root, 'toggle', onToggle, true], // toggle does not bubble
  ]);

  render();
  api.postMessage(readyMessage());
  return {
    dispose(): void {
      window.clearInterval(ticker);
      unlisten();
    },
  };
}
