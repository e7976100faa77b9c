/**
 * Approval cards (the control protocol in the panel): tool, danger level, parameters, a diff or
 * command preview, Approve / Deny / Always allow, and a live countdown to the automatic denial.
 */
import {
  approvalResponseMessage,
  openDiffMessage,
  type ApprovalDecision,
  type ApprovalPreview,
  type PendingApproval,
  type ToolCallRecord,
} from '../../src/shared/panelProtocol';
import { h } from '../dom';
import { approvalReasonText, DANGER_LABELS, formatCountdown, formatJson, roleLabel } from '../format';
import { icon } from '../icons';
import { sends, withIntent } from '../intents';
import { KEY_ATTR, type RenderContext } from './context';
import { fileLink, openDiffButton } from './fileLinks';
import { section } from './section';

const DECISION_TEXT: Record<ApprovalDecision, string> = {
  approve: 'Approved — waiting for the agent…',
  deny: 'Denied — the agent is told nothing was changed.',
  always: 'Always allowed for this session — waiting for the agent…',
};

/** Attribute holding a card's deadline; the 1 s ticker updates every element that has it. */
const EXPIRES_AT_ATTR = 'data-expires-at';

/** One line of a unified diff, classed by its first character. */
export function diffLine(line: string): HTMLElement {
  let kind = 'context';
  if (line.startsWith('+++') || line.startsWith('---')) kind = 'file';
  else if (line.startsWith('@@')) kind = 'hunk';
  else if (line.startsWith('+')) kind = 'add';
  else if (line.startsWith('-')) kind = 'del';
  return h('span', { class: `diff-line diff-${kind}` }, line.length > 0 ? line : ' ');
}

function renderPreview(preview: ApprovalPreview, request: PendingApproval): HTMLElement {
  switch (preview.kind) {
    case 'diff':
      return renderDiff(preview, request);
    case 'command':
      return h(
        'div',
        { class: 'preview preview-command' },
        h('div', { class: 'preview-label' }, icon('terminal'), h('span', {}, 'Command')),
        h('pre', { class: 'command-line', tabindex: 0, 'aria-label': 'Command line' }, h('code', {}, preview.commandLine)),
      );
    case 'request':
      return h(
        'div',
        { class: 'preview preview-request' },
        h(
          'div',
          { class: 'preview-label' },
          icon('globe'),
          h('span', {}, preview.hasBody ? 'HTTP request (with a body)' : 'HTTP request'),
        ),
        h(
          'pre',
          { class: 'command-line', tabindex: 0, 'aria-label': 'Request' },
          h('code', {}, `${preview.method} ${preview.url}`),
        ),
      );
    case 'text':
      return h(
        'div',
        { class: 'preview preview-text' },
        h('pre', { class: 'params', tabindex: 0, 'aria-label': 'Preview' }, h('code', {}, preview.text)),
      );
  }
}

function renderDiff(preview: Extract<ApprovalPreview, { kind: 'diff' }>, request: PendingApproval): HTMLElement {
  const lines = preview.diff.replace(/\n$/, '').split('\n');
  const added = lines.filter((line) => line.startsWith('+') && !line.startsWith('+++')).length;
  const removed = lines.filter((line) => line.startsWith('-') && !line.startsWith('---')).length;
  const changesFile = request.tool === 'write_file' || request.tool === 'edit_file';
  // A file that does not exist yet cannot be opened: its link shows the proposed content (a diff against empty).
  const newFile = changesFile && lines[0]?.startsWith('--- /dev/null') === true;
  return h(
    'div',
    { class: 'preview preview-diff' },
    h(
      'div',
      { class: 'preview-label' },
      icon('file'),
      newFile ? newFileLink(request.requestId, preview.path) : fileLink(preview.path, undefined, true),
      h(
        'span',
        { class: 'diff-stat' },
        h('span', { class: 'diff-stat-add' }, `+${added}`),
        ' ',
        h('span', { class: 'diff-stat-del' }, `−${removed}`),
      ),
    ),
    h('pre', { class: 'diff', tabindex: 0, 'aria-label': `Changes to ${preview.path}` }, h('code', {}, lines.map(diffLine))),
    changesFile ? openDiffButton(request.requestId, preview.path) : null,
  );
}

/** The path of a file the card would create: opens the proposed content in the diff editor (against an empty file). */
function newFileLink(requestId: string, path: string): HTMLButtonElement {
  const link = h(
    'button',
    { type: 'button', class: 'link-button file-link mono', title: `${path} does not exist yet: show the proposed content` },
    `${path} (new file)`,
  );
  return sends(link, openDiffMessage(requestId));
}

function countdownText(expiresAt: number, now: number): string {
  const left = expiresAt - now;
  return left > 0 ? `Auto-deny in ${formatCountdown(left)}` : 'Timed out — denied automatically';
}

function decisionButton(
  request: PendingApproval,
  decision: ApprovalDecision,
  label: string,
  className: string,
  disabled: boolean,
): HTMLButtonElement {
  const button = h(
    'button',
    {
      type: 'button',
      class: `button ${className}`,
      'data-decision': decision, // a test hook
      [KEY_ATTR]: `approval:${request.requestId}:${decision}`,
      'aria-label': `${label}: ${request.tool}`,
      disabled,
    },
    label,
  );
  return withIntent(button, { kind: 'approval', message: approvalResponseMessage(request.requestId, decision) });
}

function renderCard(request: PendingApproval, context: RenderContext): HTMLElement {
  const answered = context.answered.get(request.requestId);
  const expired = request.expiresAt <= context.now;
  const titleId = `approval-${cssSafe(request.requestId)}-title`;
  const params = formatJson(request.params);
  const paramsBlock = h('pre', { class: 'params', tabindex: 0, 'aria-label': 'Parameters' }, h('code', {}, params));
  return h(
    'article',
    {
      class: `approval-card danger-${request.dangerLevel.toLowerCase()} ${answered || expired ? 'is-settled' : ''}`,
      'data-request-id': request.requestId,
      'aria-labelledby': titleId,
      // Focusable itself (not its Approve button), so Enter never approves: see APPROVAL_KEYS.
      tabindex: -1,
      [KEY_ATTR]: `approval-card:${request.requestId}`,
      ...(answered || expired ? {} : { 'aria-keyshortcuts': 'A Shift+A L D' }),
    },
    h(
      'div',
      { class: 'approval-head' },
      h('h3', { class: 'approval-tool', id: titleId }, icon('shield'), h('span', { class: 'mono' }, request.tool)),
      h(
        'span',
        { class: `danger-badge danger-${request.dangerLevel.toLowerCase()}`, title: DANGER_LABELS[request.dangerLevel] },
        request.dangerLevel,
      ),
    ),
    h(
      'p',
      { class: 'approval-reason' },
      request.role ? h('span', { class: 'approval-role' }, request.role) : null,
      approvalReasonText(request.reason, request.dangerLevel),
    ),
    request.preview ? renderPreview(request.preview, request) : null,
    request.preview
      ? h(
          'details',
          { class: 'params-details', [KEY_ATTR]: `approval-params:${request.requestId}` },
          h('summary', {}, 'Parameters'),
          paramsBlock,
        )
      : h('div', { class: 'params-block' }, h('div', { class: 'preview-label' }, h('span', {}, 'Parameters')), paramsBlock),
    approvalButtons(request, Boolean(answered) || expired),
    answered || expired ? null : approvalKeysLine(),
    h('p', { class: 'approval-status' }, approvalStatus(request, answered, expired, context.now)),
  );
}

/** Approve, Deny and Always allow, disabled once the card is settled. */
function approvalButtons(request: PendingApproval, settled: boolean): HTMLElement {
  return h(
    'div',
    { class: 'approval-actions' },
    decisionButton(request, 'approve', 'Approve', 'button-primary', settled),
    decisionButton(request, 'deny', 'Deny', 'button-secondary', settled),
    decisionButton(request, 'always', 'Always allow for this session', 'button-secondary button-always', settled),
  );
}

/** The keys an open card answers to, for the eye (the card's aria-keyshortcuts says them to a screen reader). */
function approvalKeysLine(): HTMLElement {
  return h(
    'p',
    { class: 'approval-keys', 'aria-hidden': 'true' },
    'Keys: ',
    h('kbd', {}, 'A'),
    ' approve · ',
    h('kbd', {}, 'L'),
    ' always · ',
    h('kbd', {}, 'D'),
    ' deny',
  );
}

/** The person's answer once given, else the live countdown to the request's timeout. */
function approvalStatus(
  request: PendingApproval,
  answered: ApprovalDecision | undefined,
  expired: boolean,
  now: number,
): HTMLElement {
  if (answered)
    return h('span', { class: 'approval-answered' }, icon(answered === 'deny' ? 'close' : 'check'), DECISION_TEXT[answered]);
  return h(
    'span',
    { class: `countdown ${expired ? 'is-expired' : ''}`, role: 'timer', [EXPIRES_AT_ATTR]: request.expiresAt },
    icon('clock'),
    h('span', { class: 'countdown-text' }, countdownText(request.expiresAt, now)),
  );
}

/**
 * Keys answering the focused approval card (documented in the README): A approves once, Shift+A or L
 * always allows the tool for the session, D denies. Enter and Escape answer nothing (Enter only activates
 * a focused button), so no key press approves by default. Undefined for any other key or with Ctrl/Alt/Cmd.
 */
export function approvalKeyDecision(
  event: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'altKey' | 'metaKey'>,
): ApprovalDecision | undefined {
  if (event.ctrlKey || event.altKey || event.metaKey) return undefined;
  switch (event.key) {
    case 'a':
      return event.shiftKey ? 'always' : 'approve';
    case 'A':
      return event.shiftKey ? 'always' : 'approve';
    case 'l':
    case 'L':
      return 'always';
    case 'd':
    case 'D':
      return 'deny';
    default:
      return undefined;
  }
}

/** Makes an id fragment from a request id (ids may hold any characters). */
function cssSafe(value: string): string {
  return value.replace(/[^A-Za-z0-9_-]/g, '_');
}

/**
 * A request nobody answered in time: said where its card was, so the next card does not silently take its place.
 * `call` is the history's record of the denied call.
 */
function renderTimedOut(call: ToolCallRecord): HTMLElement {
  const role = roleLabel(call.role);
  return h(
    'p',
    { class: 'approval-timed-out', 'data-action-id': call.id, role: 'status' },
    icon('clock'),
    h(
      'span',
      {},
      h('strong', {}, `${call.tool} timed out: `),
      `nobody answered in time, so it was denied automatically. ${role} was told nothing was changed and carries on.`,
    ),
  );
}

/**
 * Renders the pending approvals section — the open cards, then a line for each request of the running cycle that
 * timed out (`timedOut`) — or nothing when there are neither.
 */
export function renderApprovals(
  approvals: readonly PendingApproval[],
  context: RenderContext,
  timedOut: readonly ToolCallRecord[] = [],
): HTMLElement | null {
  if (approvals.length === 0 && timedOut.length === 0) return null;
  return section(
    'approvals',
    approvals.length > 0 ? 'Approval needed' : 'Approvals',
    'shield',
    approvals.length,
    ...approvals.map((request) => renderCard(request, context)),
    ...timedOut.map(renderTimedOut),
  );
}

/**
 * Updates every countdown under `root` to `now`; an expired card has its buttons disabled
 * (the executor denies it anyway — fail closed).
 */
export function tickCountdowns(root: ParentNode, now: number): void {
  for (const element of Array.from(root.querySelectorAll<HTMLElement>(`[${EXPIRES_AT_ATTR}]`))) {
    const expiresAt = Number(element.getAttribute(EXPIRES_AT_ATTR));
    const textElement = element.querySelector('.countdown-text');
    if (textElement) textElement.textContent = countdownText(expiresAt, now);
    const left = expiresAt - now;
    element.classList.toggle('is-urgent', left > 0 && left <= 10_000);
    if (left > 0) continue;
    element.classList.add('is-expired');
    const card = element.closest('.approval-card');
    card?.classList.add('is-settled');
    card?.querySelectorAll<HTMLButtonElement>('button[data-decision]').forEach((button) => (button.disabled = true));
  }
}
