/** Panel → host: a person's decision on a pending approval, correlated by `requestId`. */
import * as z from 'zod/mini';
import { requestId } from '../protocol/primitives';
import { APPROVAL_DECISIONS, type ApprovalDecision } from '../protocol/vocabulary';
import { definePanelMessage } from './define';

/** `{ type: 'approvalResponse', requestId, decision }`. */
export const approvalResponse = definePanelMessage(
  'approvalResponse',
  { requestId, decision: z.enum(APPROVAL_DECISIONS) },
  (message, host) => host.answerApproval(message.requestId, message.decision),
);

/** Builds the panel's answer to an approval request. */
export function approvalResponseMessage(id: string, decision: ApprovalDecision) {
  return { type: approvalResponse.type, requestId: id, decision };
}
