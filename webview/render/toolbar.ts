/** The panel's toolbar: run / stop a kata, settings, API key; and the restricted-mode notice. */
import { commandMessage, type PanelCommandName, type PanelState } from '../../src/shared/panelProtocol';
import { h } from '../dom';
import { icon, type IconName } from '../icons';
import { sends } from '../intents';
import { KEY_ATTR } from './context';

function commandButton(
  name: PanelCommandName,
  label: string,
  iconName: IconName,
  options: { primary?: boolean; iconOnly?: boolean; disabled?: boolean; describedBy?: string },
): HTMLButtonElement {
  const button = h(
    'button',
    {
      type: 'button',
      class: `button ${options.primary ? 'button-primary' : 'button-secondary'} ${options.iconOnly ? 'button-icon' : ''}`,
      'data-command': name, // a test hook
      [KEY_ATTR]: `command:${name}`,
      'aria-label': options.iconOnly ? label : undefined,
      title: label,
      disabled: options.disabled,
      'aria-describedby': options.describedBy,
    },
    icon(iconName),
    options.iconOnly ? null : h('span', {}, label),
  );
  return sends(button, commandMessage(name));
}

/** Renders the toolbar. Running disables Run; an untrusted workspace disables Run and says why. */
export function renderToolbar(state: PanelState): HTMLElement {
  const running = state.session?.status === 'running';
  const notice = state.trusted
    ? null
    : h(
        'p',
        { class: 'notice notice-restricted', id: 'restricted-notice', role: 'note' },
        icon('shield'),
        h(
          'span',
          {},
          h('strong', {}, 'Restricted mode. '),
          'This workspace is not trusted, so kata runs and tool execution are disabled. ' +
            'Questions about a selection still work. To run a kata, trust the workspace ' +
            "(command 'Workspaces: Manage Workspace Trust').",
        ),
      );
  return h(
    'div',
    { class: 'toolbar-wrap' },
    h(
      'div',
      { class: 'toolbar', role: 'toolbar', 'aria-label': 'TDD Agent actions' },
      running
        ? commandButton('stopKata', 'Stop kata', 'stop', { primary: true })
        : commandButton('runKata', 'Run TDD kata', 'play', {
            primary: true,
            disabled: !state.trusted,
            describedBy: state.trusted ? undefined : 'restricted-notice',
          }),
      h('span', { class: 'toolbar-spacer' }),
      commandButton('setApiKey', 'Set API key', 'key', { iconOnly: true }),
      commandButton('openSettings', 'Open settings', 'settings', { iconOnly: true }),
    ),
    notice,
  );
}
