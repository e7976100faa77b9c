/** One entry of the action history: a tool call or a role's message, collapsible, with parameters and a result summary. */
import {
  openTestOutputMessage,
  type MessageRecord,
  type PanelActionRecord,
  type SupervisorStepRecord,
  type TestRunRecord,
  type ToolCallRecord,
} from '../../src/shared/panelProtocol';
import { h } from '../dom';
import { APPROVAL_OUTCOME_LABELS, formatDuration, formatJson } from '../format';
import { icon } from '../icons';
import { diffLine } from './approvals';
import { markdownBlock } from '../markdown';
import { sends } from '../intents';
import { KEY_ATTR } from './context';
import { fileLink, openDiffButton, shortPath, testLocations, toolFilePath } from './fileLinks';

/** How a role's question to the person ended, as its entry says it. */
const ANSWER_LABELS: Record<NonNullable<ToolCallRecord['answer']>, string> = {
  person: 'Answered by you',
  nobody: 'No answer',
};

/** True when the call never ran because it was denied or timed out: not a failure of the tool. */
export function isDenied(action: PanelActionRecord): boolean {
  return (
    action.kind === 'toolCall' &&
    (action.approval === 'denied' || action.approval === 'timeout' || action.approval === 'policy_denied')
  );
}

/** Red or green of a supervisor test run; the Tester's red is the expected one. */
function renderTestBadge(run: TestRunRecord): HTMLElement {
  const red = run.status !== 'passed';
  const label = red ? (run.expectedRed ? 'red (expected)' : run.status === 'failed' ? 'red' : run.status) : 'green';
  return h(
    'span',
    {
      class: `test-badge ${red ? (run.expectedRed ? 'is-expected-red' : 'is-red') : 'is-green'}`,
      title: `${run.passed} passed, ${run.failed} failed`,
    },
    label,
  );
}

/** The file a file tool names, its compact diff with "Open diff", and the failing tests' locations of a test run. */
function renderFiles(action: ToolCallRecord | TestRunRecord | SupervisorStepRecord): (HTMLElement | null)[] {
  const file = action.kind === 'toolCall' ? toolFilePath(action.tool, action.params) : undefined;
  const locations = action.kind === 'testRun' && action.status !== 'passed' ? testLocations(action.resultSummary) : [];
  const change = action.kind === 'toolCall' ? action.fileChange : undefined;
  return [
    file ? h('p', { class: 'action-file' }, fileLink(file, undefined, true)) : null,
    locations.length > 0
      ? h(
          'p',
          { class: 'action-locations' },
          h('span', { class: 'field-label' }, 'Locations'),
          ...locations.map((l) => fileLink(l.path, l.line, true, `${shortPath(l.path)}:${l.line}`)),
        )
      : null,
    change
      ? h(
          'pre',
          { class: 'diff', tabindex: 0, 'aria-label': `Changes to ${change.path}` },
          h('code', {}, change.diff.split('\n').map(diffLine)),
        )
      : null,
    change ? openDiffButton(action.id, change.path) : null,
  ];
}

/** The first non-blank line of a message, for its collapsed one-line summary. */
function firstLine(text: string): string {
  return (text.split('\n').find((line) => line.trim()) ?? '').trim();
}

/** The roles' keywords to the supervisor, in a person's words (the words after a keyword stay). */
const KEYWORDS: readonly (readonly [RegExp, string])[] = [
  [/^\W*KATA_COMPLETE\b[.:!]?\s*/i, 'Nothing left to test: every behaviour of the kata is covered.'],
  [/^\W*NO_REFACTOR\b[.:!]?\s*/i, 'Nothing to tidy up: the code stays as it is.'],
];

/** A role's message with the Tester's `KATA_COMPLETE` or the Refactorer's `NO_REFACTOR` said in words. */
export function messageText(text: string): string {
  for (const [keyword, words] of KEYWORDS) if (keyword.test(text)) return `${words}\n\n${text.replace(keyword, '')}`.trim();
  return text;
}

/** A role's own words: one line collapsed (click, Enter or Space on it expands), its whole text as Markdown. */
function renderMessage(action: MessageRecord): HTMLElement {
  const message = { ...action, text: messageText(action.text) };
  const kind = message.streaming ? 'is writing' : message.final ? 'reports' : 'says';
  return h(
    'li',
    {
      class: `action role-message ${message.final ? 'is-final' : ''} ${message.streaming ? 'is-streaming' : ''}`,
      'data-action-id': action.id,
      'data-role': action.role,
    },
    h(
      'details',
      { [KEY_ATTR]: `action:${action.id}` },
      h(
        'summary',
        {
          'aria-label': `${action.role} ${kind}${action.cycle ? ` (cycle ${action.cycle})` : ''}: ${firstLine(message.text).slice(0, 200)}`,
        },
        h('span', { class: 'action-status', 'aria-hidden': 'true' }, icon(message.final ? 'check' : 'question')),
        h('span', { class: 'message-role' }, action.role),
        h('span', { class: 'message-line' }, firstLine(message.text) || '…'),
        message.streaming ? h('span', { class: 'message-streaming', 'aria-hidden': 'true' }, '…') : null,
      ),
      h(
        'div',
        { class: 'action-body' },
        action.cycle ? h('p', { class: 'action-cycle' }, `Cycle ${action.cycle}${message.final ? ' — report' : ''}`) : null,
        markdownBlock(message.text, 'message-text'),
      ),
    ),
  );
}

/** What an entry shows in its summary line: the tool or step, and who allowed it (the supervisor's own steps ask nobody). */
function describe(action: ToolCallRecord | TestRunRecord | SupervisorStepRecord): {
  name: string;
  approval: HTMLElement;
  durationMs: number | undefined;
} {
  if (action.kind === 'toolCall') {
    const denied = isDenied(action);
    return {
      name: action.tool,
      // A question to the person was not approved by anyone: it was answered, or not.
      approval: action.answer
        ? h('span', { class: `approval-badge answer-${action.answer}` }, ANSWER_LABELS[action.answer])
        : h(
            'span',
            { class: `approval-badge approval-${action.approval} ${denied ? 'is-denied' : ''}` },
            APPROVAL_OUTCOME_LABELS[action.approval],
          ),
      durationMs: denied && action.durationMs === 0 ? undefined : action.durationMs,
    };
  }
  const bySupervisor = h('span', { class: 'approval-badge by-supervisor' }, 'by the supervisor');
  return action.kind === 'testRun'
    ? { name: 'test run', approval: bySupervisor, durationMs: action.durationMs }
    : { name: action.step, approval: bySupervisor, durationMs: 0 };
}

/** One history entry. */
export function renderAction(action: PanelActionRecord): HTMLElement {
  if (action.kind === 'message') return renderMessage(action);
  const denied = isDenied(action);
  const status = denied ? 'not run' : action.ok ? 'succeeded' : 'failed';
  const { name, approval, durationMs } = describe(action);
  const testRun = action.kind === 'testRun' ? action : undefined;
  return h(
    'li',
    { class: `action ${denied ? 'is-denied' : action.ok ? 'is-ok' : 'is-failed'}`, 'data-action-id': action.id },
    h(
      'details',
      { [KEY_ATTR]: `action:${action.id}` },
      h(
        'summary',
        {},
        h('span', { class: 'action-status', 'aria-label': status }, icon(denied ? 'stop' : action.ok ? 'check' : 'close')),
        h('span', { class: 'action-tool mono' }, name),
        testRun ? renderTestBadge(testRun) : null,
        h('span', { class: 'action-role' }, action.role),
        approval,
        h('span', { class: 'action-duration' }, durationMs === undefined ? '—' : formatDuration(durationMs)),
      ),
      h(
        'div',
        { class: 'action-body' },
        action.cycle ? h('p', { class: 'action-cycle' }, `Cycle ${action.cycle}`) : null,
        ...renderFiles(action),
        h('div', { class: 'field-label' }, 'Parameters'),
        h('pre', { class: 'params', tabindex: 0 }, h('code', {}, formatJson(action.params))),
        h('div', { class: 'field-label' }, testRun ? 'Test result' : 'Result'),
        h(
          'pre',
          { class: `result ${action.ok || denied ? '' : 'is-failed'}`, tabindex: 0 },
          h('code', {}, action.resultSummary || '(no output)'),
        ),
        testRun?.hasOutput
          ? sends(
              h(
                'button',
                { type: 'button', class: 'button-secondary open-output' },
                icon('terminal'),
                h('span', {}, 'Open full output'),
              ),
              openTestOutputMessage(action.id),
            )
          : null,
      ),
    ),
  );
}
