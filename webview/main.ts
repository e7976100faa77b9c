/** Entry of the panel bundle (`dist/webview.js`): finds its root and starts the controller. */
import { startPanel } from './panelController';

const root = document.getElementById('root');
if (root) {
  const announcer = document.createElement('div');
  announcer.id = 'announcer';
  announcer.className = 'visually-hidden';
  announcer.setAttribute('aria-live', 'polite');
  document.body.appendChild(announcer);
  startPanel(acquireVsCodeApi(), root, announcer);
}
