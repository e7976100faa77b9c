import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { getLogger } from '../../../src/core/logging/logger';
import { createProcessSandbox, type ProcessSandbox } from '../../../src/core/osSandbox';
import { runQualityGates } from '../../../src/core/tdd/judging/qualityGates';
import { runCommandTool } from '../../../src/core/tools/builtin/runCommand';
import { ApprovalPolicy } from '../../../src/core/tools/approvalPolicy';
import { ToolExecutor } from '../../../src/core/tools/executor';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { createWorktree, requireBubblewrap, type WorktreeFixture } from './fixture';

describe('OS sandbox (real bubblewrap): quality gates and run_command', function () {
  this.timeout(60_000); // real processes on a shared machine, under coverage in npm test
  let fx: WorktreeFixture;
  let sandbox: ProcessSandbox;
  before(async function () {
    await requireBubblewrap(this);
    fx = createWorktree();
    sandbox = await createProcessSandbox('auto', fx.policy);
  });
  after(() => fx?.cleanup());

  it('runs quality gates inside the sandbox: a gate that writes a git hook fails with the reason', async () => {
    const hook = join(fx.commonDir, 'hooks', 'pre-commit');
    assert.equal(
      await runQualityGates(['test -w .', 'echo ok > gate.txt'], fx.worktree, { timeoutMs: 30_000, sandbox }),
      undefined,
    );
    assert.equal(existsSync(join(fx.worktree, 'gate.txt')), true);
    const failure = await runQualityGates([`echo pwned > ${hook}`], fx.worktree, { timeoutMs: 30_000, sandbox });
    assert.match(failure?.output ?? '', /Read-only file system/);
    assert.equal(existsSync(hook), false);
  });

  it("gives run_command the executor's sandbox: no network, no writes into .git", async () => {
    const executor = new ToolExecutor({
      registry: new ToolRegistry().register(runCommandTool),
      workspaceRoot: fx.worktree,
      policy: new ApprovalPolicy({ levels: { HIGH: 'allow' } }),
      sandbox,
      logger: getLogger('test.osSandbox'),
    });
    const hook = join(fx.commonDir, 'hooks', 'post-merge');
    const result = await executor.executeTool('run_command', {
      command: `echo inside > ok.txt; echo pwned > ${hook}; sed -n '3,$p' /proc/net/dev | cut -d: -f1 | tr -d ' ' | sed 's/^/iface:/'`,
    });
    assert.equal(result.ok, true, result.content);
    assert.match(result.content, /Read-only file system/);
    assert.deepEqual(result.content.match(/^iface:.*$/gm), ['iface:lo'], 'only the loopback interface exists');
    assert.equal(existsSync(join(fx.worktree, 'ok.txt')), true);
    assert.equal(existsSync(hook), false);
  });
});
