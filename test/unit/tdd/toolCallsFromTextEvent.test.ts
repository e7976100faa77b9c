import { strict as assert } from 'node:assert';
import { formatEvent } from '../../../src/cli/progressPrinter';
import type { SupervisorEvent } from '../../../src/core/tdd/events';
import { emptyPanelState, parsePanelState } from '../../../src/shared/panelProtocol';
import { reducePanel } from '../../../src/vscode/panel/panelReducer';
import { completedSummary } from '../vscode/fixtures';

const modelCall: SupervisorEvent = {
  type: 'model_called',
  cycle: 1,
  role: 'tester',
  promptTokens: 1200,
  completionTokens: 80,
  latencyMs: 900,
  toolCallsFromText: 2,
};

describe('tool calls read from the model text, as the CLI and the panel show them', () => {
  it('verbose CLI lines say how many calls of a model call were read from its text', () => {
    assert.equal(formatEvent(modelCall), undefined);
    assert.equal(formatEvent(modelCall, true), '    model: 1200+80 tokens, 900 ms, 2 tool call(s) read from its text');
    const { toolCallsFromText: _, ...native } = modelCall as Extract<SupervisorEvent, { type: 'model_called' }>;
    assert.equal(formatEvent(native, true), '    model: 1200+80 tokens, 900 ms');
  });

  it("the session's last line counts them when there were any", () => {
    const summary = completedSummary(3);
    const line = (toolCallsFromText?: number) =>
      formatEvent({
        type: 'session_finished',
        status: 'completed',
        summary: { ...summary, totals: { ...summary.totals, ...(toolCallsFromText === undefined ? {} : { toolCallsFromText }) } },
      });
    assert.match(line(7) ?? '', /690 tokens, 7 tool calls read from the model's text \(branch /);
    assert.doesNotMatch(line(0) ?? '', /read from/);
    assert.doesNotMatch(line() ?? '', /read from/);
  });

  it('the panel takes the event as any model call, and its state stays valid', () => {
    const state = reducePanel(emptyPanelState({ instanceId: 'host-1', trusted: true }), {
      type: 'supervisor',
      event: modelCall,
      at: 1000,
    });
    assert.ok(parsePanelState(state));
  });
});
