/**
 * Error cards in a person's words: a title saying what went wrong, the message (a file it names is a link, at the
 * line it names), what to do, and the stable code last, on its own line, for a bug report, with a link to the log.
 */
import { openLogMessage } from '../../src/shared/panelMessages/openLog';
import type { PanelError } from '../../src/shared/panelProtocol';
import { h, type Child } from '../dom';
import { errorTitle } from '../format';
import { icon } from '../icons';
import { sends } from '../intents';
import { fixButtons } from './fixButtons';
import { fileLink, shortPath } from './fileLinks';
import { section } from './section';

/** A file of the workspace named in a message: a kata, a config or a source file. */
const FILE_IN_MESSAGE = /(?:\/|\.{0,2}\/)?[\w@.-]+(?:\/[\w@.-]+)*\.(?:md|markdown|json|ya?ml|[cm]?[jt]sx?|py)\b/;

/**
 * The message with the first file it names as a link. "front matter line N" is line N + 1 of the file (the opening
 * `---` is line 1); another "line N" is taken as it is.
 */
export function messageWithFileLink(message: string): Child[] {
  const match = FILE_IN_MESSAGE.exec(message);
  if (!match) return [message];
  const frontMatter = /front matter line (\d+)/.exec(message);
  const plain = /\bline (\d+)/.exec(message);
  const line = frontMatter ? Number(frontMatter[1]) + 1 : plain ? Number(plain[1]) : undefined;
  const path = match[0];
  return [
    message.slice(0, match.index),
    fileLink(path, line, false, line !== undefined ? `${shortPath(path)}:${line}` : shortPath(path)),
    message.slice(match.index + path.length),
  ];
}

function renderError(error: PanelError): HTMLElement {
  return h(
    'article',
    { class: 'error-card', 'data-error-id': error.id, 'aria-label': errorTitle(error.error_code) },
    h('h3', { class: 'error-head' }, icon('error'), h('span', { class: 'error-title' }, errorTitle(error.error_code))),
    h('p', { class: 'error-message' }, messageWithFileLink(error.message)),
    error.action ? h('p', { class: 'error-action' }, h('strong', {}, 'What to do: '), error.action) : null,
    fixButtons(error.fixes, error.id),
    h('p', { class: 'error-code-line' }, 'For a bug report: ', h('span', { class: 'error-code mono' }, error.error_code)),
    h(
      'p',
      { class: 'error-log' },
      sends(
        h('button', { type: 'button', class: 'link-button', title: 'Show the TDD Agent output' }, 'Open the log'),
        openLogMessage(),
      ),
    ),
  );
}

/** Renders the errors section (newest first), or nothing when there are none. */
export function renderErrors(errors: readonly PanelError[]): HTMLElement | null {
  if (errors.length === 0) return null;
  return section('errors', 'Problems', 'warning', errors.length, [...errors].reverse().map(renderError));
}
