/**
 * The one definition of every message between the extension host and the agent panel (webview), gathered from
 * the files that define each part:
 *
 * - `protocol/vocabulary.ts`: the lists the UI and the host switch on (statuses, outcomes, commands, …);
 * - `protocol/state.ts`: the {@link PanelState} view model, and `protocol/history.ts` its history entries;
 * - `protocol/messages.ts`: host → panel messages and the validation of what either side receives;
 * - `panelMessages/`: the panel → host messages, one file each (schema, builder, host handler), listed in
 *   `panelMessages/index.ts`.
 *
 * State-snapshot protocol: the host owns a {@link PanelState} and sends it whole (`{ type: 'state', state }`) on
 * every change and whenever the panel says `{ type: 'ready' }`. The panel renders only from the snapshot and
 * persists it with `vscode.setState`, so it restores instantly when hidden, shown or reloaded. The panel answers
 * with {@link PanelMessage}s. Both sides validate what they receive with {@link parseHostMessage} /
 * {@link parsePanelMessage}; an invalid or unknown message is dropped (and logged by the caller), never acted on.
 *
 * Bundled for the browser as well as the host: no `vscode`, no node-only imports. Schemas use `zod/mini` (the
 * tree-shakable build of zod 4): the panel bundle stays small; the schemas are ordinary zod 4 schemas for the host.
 */
export * from './protocol/vocabulary';
export * from './protocol/primitives';
export * from './protocol/history';
export * from './protocol/state';
export * from './protocol/messages';
export * from './panelMessages';
export type { PanelHost, PanelHostLog } from './panelMessages/panelHost';
export { definePanelMessage, type PanelMessageDefinition } from './panelMessages/define';
export { readyMessage } from './panelMessages/ready';
export { approvalResponseMessage } from './panelMessages/approvalResponse';
export { commandMessage } from './panelMessages/command';
export { sessionActionMessage } from './panelMessages/sessionAction';
export { openCommitMessage } from './panelMessages/openCommit';
export { openFileMessage, parseSourceLabel } from './panelMessages/openFile';
export { openTestOutputMessage } from './panelMessages/openTestOutput';
export { openDiffMessage } from './panelMessages/openDiff';
export { FOLLOW_UP_LIMIT, followUpMessage } from './panelMessages/followUp';
export { cancelQuestionMessage } from './panelMessages/cancelQuestion';
export { retryQuestionMessage } from './panelMessages/retryQuestion';
export { LOG_MESSAGE_LIMIT, logMessage } from './panelMessages/log';
export { personQuestionAnswerMessage } from './panelMessages/personQuestionAnswer';
export { personQuestionDeclineMessage } from './panelMessages/personQuestionDecline';
