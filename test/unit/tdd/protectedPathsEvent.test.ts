import { strict as assert } from 'node:assert';
import { formatEvent } from '../../../src/cli/progressPrinter';
import type { SupervisorEvent } from '../../../src/core/tdd/events';
import { emptyPanelState, parsePanelState } from '../../../src/shared/panelProtocol';
import { reducePanel } from '../../../src/vscode/panel/panelReducer';

const event: SupervisorEvent = {
  type: 'protected_paths_reverted',
  cycle: 2,
  role: 'implementer',
  paths: ['.github/workflows/x.yml', '.npmrc'],
  count: 3,
  reason: 'protected files changed without an approved tool call',
};

describe('the protected_paths_reverted event, as the CLI and the panel show it', () => {
  it('is one CLI line naming the paths and the count', () => {
    const line = formatEvent(event);
    assert.ok(line?.includes('protected files put back (3): .github/workflows/x.yml, .npmrc, …'), line);
  });

  it('is a supervisor entry in the panel history, and the state stays valid', () => {
    const state = reducePanel(emptyPanelState({ instanceId: 'host-1', trusted: true }), { type: 'supervisor', event, at: 1000 });
    assert.ok(parsePanelState(state));
    const entry = state.actions.at(-1)!;
    assert.ok(entry.kind === 'supervisorStep', "a supervisor's own step, not a tool call");
    assert.equal(entry.step, 'revert_protected_paths');
    assert.equal(entry.role, 'supervisor');
    assert.equal(entry.ok, false);
    assert.equal(entry.cycle, 2);
    assert.match(entry.resultSummary ?? '', /3 protected file\(s\) put back: \.github\/workflows\/x\.yml, \.npmrc, …/);
  });
});
