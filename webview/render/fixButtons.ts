/** The buttons that fix a problem (on error cards and the first-run card): each runs one of the host's commands. */
import { PANEL_COMMAND_LABELS, type PanelCommandName } from '../../src/shared/panelProtocol';
import { h } from '../dom';
import { ACTION_ATTR, ACTIONS } from './context';

/** One fix button; `scope` keeps its focus key apart from the same command's button elsewhere in the panel. */
export function fixButton(name: PanelCommandName, scope: string, primary = false): HTMLButtonElement {
  return h(
    'button',
    {
      type: 'button',
      class: `button ${primary ? 'button-primary' : 'button-secondary'}`,
      [ACTION_ATTR.action]: ACTIONS.command,
      [ACTION_ATTR.command]: name,
      [ACTION_ATTR.key]: `fix:${scope}:${name}`,
    },
    h('span', {}, PANEL_COMMAND_LABELS[name]),
  );
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
