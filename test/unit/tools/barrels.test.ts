import { strict as assert } from 'node:assert';
import * as control from '../../../src/core/control';
import * as mcp from '../../../src/core/mcp';
import * as tools from '../../../src/core/tools';

describe('tools, control and mcp barrels', () => {
  it('export the public API from one place each', () => {
    for (const name of [
      'ToolRegistry',
      'ToolExecutor',
      'ApprovalPolicy',
      'toToolSpecs',
      'composeToolCallWrappers',
      'createBuiltinTools',
      'previewToolCall',
    ]) {
      assert.equal(typeof (tools as Record<string, unknown>)[name], 'function', name);
    }
    for (const name of ['ControlProtocol', 'InMemoryTransport', 'TerminalTransport', 'PortTransport', 'isPersonAnswer']) {
      assert.equal(typeof (control as Record<string, unknown>)[name], 'function', name);
    }
    assert.ok(control.controlMessageSchema.safeParse({ type: 'progress', id: '1', message: 'hi' }).success);
    for (const name of ['McpHub', 'McpServerConnection', 'mcpToolDefinitions', 'mcpToolName', 'mcpResultToOutput']) {
      assert.equal(typeof (mcp as Record<string, unknown>)[name], 'function', name);
    }
  });
});
