/**
 * What the panel saves with `vscode.setState`: the last snapshot plus its own UI memory (answered
 * approvals, open/closed sections). Validated on restore: anything unreadable is ignored.
 */
import * as z from 'zod/mini';
import { APPROVAL_DECISIONS, PanelStateSchema, type ApprovalDecision, type PanelState } from '../src/shared/panelProtocol';
import { HISTORY_FILTERS, type HistoryFilter } from './render/context';

const PersistedSchema = z.object({
  version: z.literal(1),
  state: PanelStateSchema,
  answered: z.array(z.tuple([z.string(), z.enum(APPROVAL_DECISIONS)])),
  openDetails: z.array(z.tuple([z.string(), z.boolean()])),
  historyFilter: z.optional(z.enum(HISTORY_FILTERS)),
});

/** The panel's saved memory. */
export interface PersistedPanel {
  state: PanelState;
  answered: Map<string, ApprovalDecision>;
  openDetails: Map<string, boolean>;
  /** What the action history shows. */
  historyFilter?: HistoryFilter;
}

/** Serialises the panel's memory for `setState`. */
export function toPersisted(panel: PersistedPanel): z.infer<typeof PersistedSchema> {
  return {
    version: 1,
    state: panel.state,
    answered: [...panel.answered],
    openDetails: [...panel.openDetails],
    ...(panel.historyFilter ? { historyFilter: panel.historyFilter } : {}),
  };
}

/** Reads what `getState` returned; undefined when absent or not valid. */
export function fromPersisted(value: unknown): PersistedPanel | undefined {
  const result = PersistedSchema.safeParse(value);
  if (!result.success) return undefined;
  return {
    state: result.data.state,
    answered: new Map(result.data.answered),
    openDetails: new Map(result.data.openDetails),
    ...(result.data.historyFilter ? { historyFilter: result.data.historyFilter } : {}),
  };
}
