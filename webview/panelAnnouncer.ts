/** What the panel's live region tells a screen reader when a snapshot arrives: new approvals, new problems, the session's end. */
import type { PanelState } from '../src/shared/panelProtocol';
import { textNode } from './dom';
import { errorTitle } from './format';

/** Announces what changed between two snapshots in `announcer` (an `aria-live` element). */
export function panelAnnouncer(announcer: HTMLElement): (previous: PanelState | undefined, next: PanelState) => void {
  /** The problems the announcer last told, and its words: cleared once those problems are fixed (their cards gone). */
  let announcedProblems: { ids: Set<string>; line: Node } | undefined;
  return (previous, next) => {
    const seenApprovals = new Set(previous?.approvals.map((request) => request.requestId));
    const seenErrors = new Set(previous?.errors.map((error) => error.id));
    const problems = next.errors.filter((error) => !seenErrors.has(error.id));
    const lines = [
      ...next.approvals
        .filter((request) => !seenApprovals.has(request.requestId))
        .map((request) => `Approval needed: ${request.tool} (${request.dangerLevel}).`),
      // As the card says it: its title, then its facts.
      ...problems.map((error) => `Problem: ${errorTitle(error.error_code)}. ${error.message}`),
    ];
    if (previous && previous.session?.status !== next.session?.status && next.session)
      lines.push(`Session ${next.session.status.replace('_', ' ')}.`);
    if (lines.length > 0) {
      const line = textNode(lines.join(' '));
      announcer.replaceChildren(line);
      announcedProblems = problems.length > 0 ? { ids: new Set(problems.map((error) => error.id)), line } : undefined;
      return;
    }
    // A problem that is fixed is not left behind as a line (a screen reader reads it at the end of the page).
    if (announcedProblems && !next.errors.some((error) => announcedProblems!.ids.has(error.id))) {
      if (announcer.firstChild === announcedProblems.line) announcer.replaceChildren();
      announcedProblems = undefined;
    }
  };
}
