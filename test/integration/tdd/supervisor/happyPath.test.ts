import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SessionSummarySchema } from '../../../../src/core/tdd/sessionSummary';
import { fizzbuzzJs, fizzbuzzPython, JS_REFACTORED_SOURCE, JS_SOURCE_PATH } from '../../../support/fizzbuzzPlans';
import { assertThreeGreenCyclesThenComplete, savedSession, SessionHarness } from './sessionHarness';

describe('TDD supervisor: happy paths', function () {
  this.timeout(120_000);
  const h = new SessionHarness();
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('runs three red-green-refactor cycles of FizzBuzz in JavaScript with real tests and commits', async () => {
    const { summary, events, played } = await h.run({ cycles: fizzbuzzJs(3) });

    assertThreeGreenCyclesThenComplete(summary);
    SessionSummarySchema.parse(summary);
    assert.equal(summary.totals.commits, 4, 'three green commits and one refactor commit');
    assert.equal(summary.totals.overshoots, 0);
    assert.equal(summary.totals.violations, 0);

    // The supervisor ran the real tests itself after every role.
    const runs = events.filter((e) => e.type === 'test_run_finished');
    assert.ok(
      runs.some((e) => e.type === 'test_run_finished' && e.role === 'tester' && e.tests.failed > 0),
      'a red run after the tester',
    );

    // Every role turn was played by the model with its agent config.
    assert.deepEqual(
      played.filter((t) => t.role === 'tester').map((t) => t.cycle),
      [1, 2, 3, 4],
    );
    const systemLines = h.server.chatRequests().map((r) => String(r.body.messages[0].content).split('\n')[0]);
    assert.ok(
      systemLines.includes('agent: tester/v1') &&
        systemLines.includes('agent: implementer/v1') &&
        systemLines.includes('agent: refactorer/v1'),
    );

    // Git: the session branch holds scaffold + green commits; the refactoring is its own commit.
    const git = h.git();
    const log = await git.log([summary.branch]);
    const subjects = log.all.map((c) => c.message).reverse();
    assert.deepEqual(
      subjects.slice(0, 3).map((s) => s.split(' for ')[0]),
      ['chore: initial empty commit (tdd-agent)', 'chore: scaffold a javascript project', 'feat: returns the number itself'],
    );
    assert.ok(subjects.includes('refactor: name the divisibility check'), subjects.join(' | '));
    const refactorer = summary.cycles[2]!.phases.find((p) => p.role === 'refactorer')!;
    assert.deepEqual(
      [refactorer.success, refactorer.commits_made, refactorer.files_modified],
      [true, [summary.cycles[2]!.commit], [JS_SOURCE_PATH]],
    );
    await git.checkout(summary.branch);
    assert.equal(await readFile(join(h.workspace, JS_SOURCE_PATH), 'utf8'), JS_REFACTORED_SOURCE);
    assert.equal((await git.status()).isClean(), true);

    // The session state was persisted.
    const saved = await savedSession(h.workspace, summary);
    assert.equal(saved.status, 'completed');
    assert.equal(saved.worktreeKept, false, 'a finished session removes its worktree');
    assert.equal(summary.session?.worktree, null);
    assert.equal(saved.cycles.length, 4);

    // Its audit log is the framework's audit trail: one line per tool call, in the name of the role that made it.
    const auditPath = join(h.workspace, '.git', 'tdd-agent', 'sessions', `${summary.session!.id}.audit.jsonl`);
    const audit = (await readFile(auditPath, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { agentId: string; event: string; tool: string; requestedBy?: string; ok: boolean });
    const toolCalls = events.filter((e) => e.type === 'tool_called');
    assert.equal(audit.length, toolCalls.length, 'every tool call the events report is in the audit trail');
    assert.ok(audit.every((r) => r.event === 'tool_call' && r.agentId === summary.session!.id));
    assert.deepEqual(
      [...new Set(audit.map((r) => r.requestedBy))].sort(),
      ['implementer', 'refactorer', 'tester'],
      'each line names the role that asked',
    );
    assert.ok(audit.some((r) => r.tool === 'write_file' || r.tool === 'edit_file'));
  });

  it('runs three cycles of FizzBuzz in Python with pytest', async () => {
    const { summary } = await h.run({ cycles: fizzbuzzPython() }, { language: 'python' });
    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    assert.deepEqual(
      summary.cycles.slice(0, 3).map((c) => c.tests.passed),
      [1, 2, 3],
    );
    const subjects = (await h.git().log([summary.branch])).all.map((c) => c.message).reverse();
    assert.match(subjects[1]!, /^chore: scaffold a python project/);
    assert.equal(subjects.filter((s) => s.startsWith('feat:')).length, 3);
  });
});
