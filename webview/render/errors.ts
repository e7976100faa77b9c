/** Error cards: what happened (with its stable code) and what to do about it. */
import type { PanelError } from '../../src/shared/panelProtocol';
import { h } from '../dom';
import { icon } from '../icons';
import { fixButtons } from './fixButtons';
import { section } from './section';

function renderError(error: PanelError): HTMLElement {
  return h(
    'article',
    { class: 'error-card', 'data-error-id': error.id, 'aria-label': `Error ${error.error_code}` },
    h('div', { class: 'error-head' }, icon('error'), h('span', { class: 'error-code mono' }, error.error_code)),
    h('p', { class: 'error-message' }, error.message),
    error.action ? h('p', { class: 'error-action' }, h('strong', {}, 'What to do: '), error.action) : null,
    fixButtons(error.fixes, error.id),
  );
}

/** Renders the errors section (newest first), or nothing when there are none. */
export function renderErrors(errors: readonly PanelError[]): HTMLElement | null {
  if (errors.length === 0) return null;
  return section('errors', 'Problems', 'warning', errors.length, [...errors].reverse().map(renderError));
}
