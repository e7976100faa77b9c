/** The buttons that fix a problem (on error cards and the first-run card): each runs one of the host's commands. */
import { commandMessage, PANEL_COMMAND_LABELS, type PanelCommandName } from '../../src/shared/panelProtocol';
import { h } from '../dom';
import { sends } from '../intents';
import { KEY_ATTR } from './context';

/** One fix button; `scope` keeps its focus key apart from the same command's button elsewhere in the panel. */
export function fixButton(name: PanelCommandName, scope: string, primary = false): HTMLButtonElement {
  const button = h(
    'button',
    {
      type: 'button',
      class: `button ${primary ? 'button-primary' : 'button-secondary'}`,
      'data-command': name, // a test hook
      [KEY_ATTR]: `fix:${scope}:${name}`,
    },
    h('span', {}, PANEL_COMMAND_LABELS[name]),
  );
  return sends(button, commandMessage(name));
}

/** A row of fix buttons, the first one primary; nothing when there are none. */
export function fixButtons(names: readonly PanelCommandName[] | undefined, scope: string): HTMLElement | null {
  if (!names || names.length === 0) return null;
  return h(
    'div',
    { class: 'fix-buttons' },
    names.map((name, i) => fixButton(name, scope, i === 0)),
  );
}
