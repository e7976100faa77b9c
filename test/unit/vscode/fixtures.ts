/** Realistic supervisor event sequences and control requests for the extension's pure modules. */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApprovalRequestMessage } from '../../../src/core/control/messages';
import { detectProjectProfile } from '../../../src/core/project/detectProjectProfile';
import type { ProjectProfile } from '../../../src/core/project/projectProfile';
import type { SupervisorEvent } from '../../../src/core/tdd/events';
import type { SessionSummary } from '../../../src/core/tdd/sessionSummary';

const tests = (passed: number, failed: number) => ({
  status: failed > 0 ? ('failed' as const) : ('passed' as const),
  passed,
  failed,
  total: passed + failed,
});

/** One green cycle `n` (tester red, implementer green, no refactor) as the supervisor reports it. */
export function greenCycle(n: number, sha: string): SupervisorEvent[] {
  return [
    { type: 'cycle_started', cycle: n },
    { type: 'phase_changed', cycle: n, phase: 'TESTING', role: 'tester', attempt: 1 },
    { type: 'model_called', cycle: n, role: 'tester', promptTokens: 100, completionTokens: 20, latencyMs: 5 },
    {
      type: 'tool_called',
      cycle: n,
      role: 'tester',
      callId: `t${n}`,
      tool: 'write_file',
      params: { path: 'test/fizzbuzz.test.js', content: 'x' },
      ok: true,
      summary: 'wrote 1 line',
      approval: 'approved',
      durationMs: 3,
    },
    { type: 'test_run_finished', cycle: n, role: 'tester', tests: tests(n - 1, 1), durationMs: 40 },
    { type: 'phase_finished', cycle: n, role: 'tester', outcome: 'red', attempts: 1, durationMs: 50 },
    { type: 'phase_changed', cycle: n, phase: 'IMPLEMENTING', role: 'implementer', attempt: 1 },
    { type: 'model_called', cycle: n, role: 'implementer', promptTokens: 100, completionTokens: 10, latencyMs: 5 },
    {
      type: 'tool_called',
      cycle: n,
      role: 'implementer',
      callId: `i${n}`,
      tool: 'write_file',
      params: { path: 'src/fizzbuzz.js', content: 'y' },
      ok: true,
      summary: 'wrote 3 lines',
      approval: 'always',
      durationMs: 2,
    },
    { type: 'test_run_finished', cycle: n, role: 'implementer', tests: tests(n, 0), durationMs: 40 },
    { type: 'phase_finished', cycle: n, role: 'implementer', outcome: 'green', attempts: 1, durationMs: 60 },
    { type: 'commit_made', cycle: n, sha, message: `feat: behaviour ${n}\n\nbody` },
    { type: 'phase_changed', cycle: n, phase: 'REFACTORING', role: 'refactorer', attempt: 1 },
    { type: 'phase_finished', cycle: n, role: 'refactorer', outcome: 'no_change', attempts: 1, durationMs: 5 },
    { type: 'cycle_finished', cycle: n, outcome: 'green', commit: sha, tests: tests(n, 0) },
  ];
}

/** A summary of a completed session of `cycles` green cycles. */
export function completedSummary(cycles: number): SessionSummary {
  return {
    status: 'completed',
    kata: 'FizzBuzz',
    branch: 'tdd/fizzbuzz-1',
    cycles: Array.from({ length: cycles }, (_, i) => ({
      n: i + 1,
      outcome: 'green' as const,
      commit: `sha${i + 1}`,
      tests: { passed: i + 1, failed: 0 },
      phases: [],
    })),
    totals: {
      cycles,
      commits: cycles,
      tests_passed: cycles,
      overshoots: 0,
      violations: 0,
      retries: 0,
      reverts: 0,
      tokens: 230 * cycles,
    },
  };
}

/** A whole session: start, `cycles` green cycles, finish. */
export function wholeSession(cycles: number): SupervisorEvent[] {
  return [
    {
      type: 'session_started',
      kata: 'FizzBuzz',
      branch: 'tdd/fizzbuzz-1',
      baseBranch: 'main',
      model: 'test-model',
      provider: 'openai',
      maxCycles: 6,
      workspace: '/tmp/ws',
      sessionId: 'fizzbuzz-1',
      worktree: '/tmp/cache/worktrees/ws-1/fizzbuzz-1',
      sandbox: 'bubblewrap (/usr/bin/bwrap): writes only in /tmp/cache/worktrees/ws-1/fizzbuzz-1; no network',
    },
    ...Array.from({ length: cycles }, (_, i) => greenCycle(i + 1, `sha${i + 1}`)).flat(),
    { type: 'session_finished', status: 'completed', summary: completedSummary(cycles) },
  ];
}

/** A control-protocol approval request for a file write. */
export function writeRequest(id = 'req-1', expiresAt = '2026-11-22T08:05:00.000Z'): ApprovalRequestMessage {
  return {
    type: 'approval_request',
    id,
    tool: 'write_file',
    dangerLevel: 'MEDIUM',
    params: { path: 'src/fizzbuzz.js', content: 'module.exports = {}' },
    preview: {
      kind: 'diff',
      path: 'src/fizzbuzz.js',
      diff: '--- /dev/null\n+++ b/src/fizzbuzz.js\n@@ -0,0 +1 @@\n+module.exports = {}\n',
    },
    reason: 'the policy for MEDIUM tools is "ask"',
    timeoutMs: 300_000,
    expiresAt,
  };
}

/** The session's start, as `wholeSession` begins it. */
export function sessionStart(): SupervisorEvent {
  return wholeSession(0)[0]!;
}

/**
 * Cycle `n` as a real session reports it (issue 36): the Tester asks the person (`ask_person`, answered in the panel
 * after 37.7 s) and writes its test with its words beside the call; the Implementer's words come beside its write, its
 * related tests pass and then the whole suite (two runs); a refactoring that breaks `returns Fizz for multiples of
 * three` is reverted, and the Refactorer's second attempt changes nothing.
 */
export function askedAndRevertedCycle(n: number, sha: string): SupervisorEvent[] {
  const failing = { status: 'failed' as const, passed: 1, failed: 1, total: 2 };
  return [
    { type: 'cycle_started', cycle: n },
    { type: 'phase_changed', cycle: n, phase: 'TESTING', role: 'tester', attempt: 1 },
    { type: 'model_called', cycle: n, role: 'tester', promptTokens: 100, completionTokens: 20, latencyMs: 5 },
    {
      type: 'person_question',
      cycle: n,
      role: 'tester',
      question: 'Should fizzbuzz(0) return "FizzBuzz" or "0"?',
      outcome: 'answered',
      answer: 'Start at 1',
      answeredBy: 'panel',
    },
    {
      type: 'tool_called',
      cycle: n,
      role: 'tester',
      callId: `ask${n}`,
      tool: 'ask_person',
      params: { question: 'Should fizzbuzz(0) return "FizzBuzz" or "0"?' },
      ok: true,
      summary: 'The person answered: Start at 1',
      approval: 'auto',
      durationMs: 37_700,
    },
    { type: 'model_called', cycle: n, role: 'tester', promptTokens: 100, completionTokens: 20, latencyMs: 5 },
    {
      type: 'role_message',
      cycle: n,
      role: 'tester',
      attempt: 1,
      message: 2,
      text: 'Wrote one failing test: multiples of three are Fizz',
      final: false,
    },
    {
      type: 'tool_called',
      cycle: n,
      role: 'tester',
      callId: `t${n}`,
      tool: 'write_file',
      params: { path: 'test/fizzbuzz.test.js', content: 'x' },
      ok: true,
      summary: 'wrote 1 line',
      approval: 'approved',
      durationMs: 3,
    },
    {
      type: 'test_run_finished',
      cycle: n,
      role: 'tester',
      tests: failing,
      durationMs: 40,
      scope: 'related',
      files: ['test/fizzbuzz.test.js'],
      command: 'node --test test/fizzbuzz.test.js',
    },
    {
      type: 'role_message',
      cycle: n,
      role: 'tester',
      attempt: 1,
      message: 2,
      text: 'Wrote one failing test: multiples of three are Fizz',
      final: true,
    },
    { type: 'phase_finished', cycle: n, role: 'tester', outcome: 'red', attempts: 1, durationMs: 38_000 },
    { type: 'phase_changed', cycle: n, phase: 'IMPLEMENTING', role: 'implementer', attempt: 1 },
    { type: 'model_called', cycle: n, role: 'implementer', promptTokens: 100, completionTokens: 10, latencyMs: 5 },
    {
      type: 'role_message',
      cycle: n,
      role: 'implementer',
      attempt: 1,
      message: 1,
      text: 'Return Fizz for multiples of three',
      final: false,
    },
    {
      type: 'tool_called',
      cycle: n,
      role: 'implementer',
      callId: `i${n}`,
      tool: 'write_file',
      params: { path: 'src/fizzbuzz.js', content: 'y' },
      ok: true,
      summary: 'wrote 3 lines',
      approval: 'always',
      durationMs: 2,
    },
    {
      type: 'test_run_finished',
      cycle: n,
      role: 'implementer',
      tests: tests(2, 0),
      durationMs: 225,
      scope: 'related',
      files: ['test/fizzbuzz.test.js'],
      command: 'node --test test/fizzbuzz.test.js',
    },
    {
      type: 'test_run_finished',
      cycle: n,
      role: 'implementer',
      tests: tests(2, 0),
      durationMs: 154,
      scope: 'full',
      command: 'node --test',
    },
    {
      type: 'role_message',
      cycle: n,
      role: 'implementer',
      attempt: 1,
      message: 1,
      text: 'Return Fizz for multiples of three',
      final: true,
    },
    { type: 'phase_finished', cycle: n, role: 'implementer', outcome: 'green', attempts: 1, durationMs: 60 },
    { type: 'commit_made', cycle: n, sha, message: 'feat: multiples of three are Fizz' },
    { type: 'phase_changed', cycle: n, phase: 'REFACTORING', role: 'refactorer', attempt: 1 },
    {
      type: 'tool_called',
      cycle: n,
      role: 'refactorer',
      callId: `r${n}`,
      tool: 'write_file',
      params: { path: 'src/fizzbuzz.js', content: 'z' },
      ok: true,
      summary: 'wrote 2 lines',
      approval: 'always',
      durationMs: 2,
    },
    {
      type: 'test_run_finished',
      cycle: n,
      role: 'refactorer',
      tests: failing,
      durationMs: 826,
      scope: 'related',
      files: ['test/fizzbuzz.test.js'],
      command: 'node --test test/fizzbuzz.test.js',
      testCases: [
        { id: 'test/fizzbuzz.test.js::returns 1', name: 'returns the number itself for 1', outcome: 'passed' },
        {
          id: 'test/fizzbuzz.test.js::fizz',
          name: 'returns Fizz for multiples of three',
          outcome: 'failed',
          message: "'3' !== 'Fizz'",
        },
      ],
    },
    { type: 'reverted', cycle: n, role: 'refactorer', reason: 'The refactoring broke the tests (1 failing, 1 passing):' },
    { type: 'phase_changed', cycle: n, phase: 'REFACTORING', role: 'refactorer', attempt: 2 },
    {
      type: 'role_message',
      cycle: n,
      role: 'refactorer',
      attempt: 2,
      message: 1,
      text: 'NO_REFACTOR',
      final: true,
    },
    { type: 'phase_finished', cycle: n, role: 'refactorer', outcome: 'no_change', attempts: 2, durationMs: 9216 },
    { type: 'cycle_finished', cycle: n, outcome: 'green', commit: sha, tests: tests(2, 0) },
  ];
}

/** A JavaScript project with a Python one beside it (package.json with node --test, pyproject.toml), in a temp folder: its profile. */
export async function mixedProject(): Promise<{ root: string; profile: ProjectProfile }> {
  const root = await mkdtemp(join(tmpdir(), 'mixed-project-'));
  await writeFile(
    join(root, 'package.json'),
    JSON.stringify({ name: 'mixed', type: 'module', scripts: { test: 'node --test' } }),
  );
  await writeFile(join(root, 'package-lock.json'), '{}');
  await writeFile(join(root, 'pyproject.toml'), '[project]\nname = "mixed"\nversion = "0.1.0"\n');
  await mkdir(join(root, 'test'));
  await writeFile(join(root, 'test', 'leap.test.js'), "import { test } from 'node:test';\n");
  await mkdir(join(root, 'tests'));
  await writeFile(join(root, 'tests', 'test_leap.py'), 'def test_leap():\n    assert True\n');
  return { root, profile: await detectProjectProfile(root, { env: { PATH: process.env.PATH ?? '' } }) };
}
