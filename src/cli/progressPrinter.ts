import type { Writable } from 'node:stream';
import { escapeTerminalText } from '../core';
import { describeProjectProfile, type Phase, PHASE_LABELS, ROLE_TITLES, type SupervisorEvent } from '../core/tddApi';

/** A phase on a progress line: `red: Tester`, `done`. */
function phaseLabel(phase: Phase): string {
  const { role, step } = PHASE_LABELS[phase];
  return role ? `${step}: ${ROLE_TITLES[role]}` : step;
}

/**
 * One readable line per supervisor event (or none for chatty ones unless verbose). Behaviours, reports,
 * reasons, commit messages and error messages come from the model or its tools, so the line has its
 * control characters shown as `\xHH` (see `escapeTerminalText`): it is safe to write to a terminal.
 */
export function formatEvent(event: SupervisorEvent, verbose = false): string | undefined {
  const line = describeEvent(event, verbose);
  return line === undefined ? undefined : escapeTerminalText(line);
}

function describeEvent(event: SupervisorEvent, verbose: boolean): string | undefined {
  switch (event.type) {
    case 'session_started':
      return `Session on branch ${event.branch} — kata '${event.kata}', ${event.provider} ${event.model}, up to ${event.maxCycles} cycles${event.resumedFromCycle ? `, resuming at cycle ${event.resumedFromCycle}` : ''}\n  workspace: ${event.workspace}${event.sandboxNotice ? `\n  note: ${event.sandboxNotice}` : ''}`;
    case 'project_profile': {
      const { summary, origin } = describeProjectProfile(event.profile, { scaffolded: event.scaffolded });
      const notes = event.profile.notes.map((n) => `\n  note: ${n}`).join('');
      return `Project: ${summary} — ${origin}; change with --test-command, --test-pattern, --source-dir, --language or tdd-agent.json${notes}`;
    }
    case 'cycle_started':
      return `Cycle ${event.cycle}`;
    case 'phase_changed':
      if (event.phase === 'DONE') return undefined;
      return `  ${phaseLabel(event.phase)}${event.attempt > 1 ? ` (attempt ${event.attempt})` : ''}${event.attempt > 1 && event.hint ? ` — ${event.hint}` : ''}`;
    case 'tool_called':
      return verbose ? `    ${event.ok ? '·' : '✗'} ${event.tool} ${event.summary}` : undefined;
    case 'model_called':
      return verbose
        ? `    model: ${event.promptTokens}+${event.completionTokens} tokens, ${event.latencyMs} ms${event.toolCallsFromText ? `, ${event.toolCallsFromText} tool call(s) read from its text` : ''}`
        : undefined;
    case 'role_text':
      return undefined;
    case 'role_message':
      // The report (a reply without tool calls) is worth a line; the text between tool calls only when verbose.
      return event.final || verbose
        ? `    ${event.role}${event.final ? ' reports' : ''}: ${indentText(event.text.trim())}`
        : undefined;
    case 'test_run_finished':
      return `    ${testRunLabel(event, verbose)}: ${testRunOutcome(event)}`;
    case 'overshoot':
      return `    overshoot: ${event.reason}`;
    case 'violation':
      return `    role violation: ${event.reasons.join(' ')}`;
    case 'reverted':
      return `    reverted ${event.role}: ${event.reason}`;
    case 'quality_gate_failed':
      return `    quality gate failed: ${event.command}`;
    case 'protected_paths_reverted':
      return `    protected files put back (${event.count}): ${event.paths.join(', ')}${event.count > event.paths.length ? ', …' : ''} — ${event.reason}`;
    case 'known_failures':
      return `  already failing before the session, set aside (${event.tests.length}):\n${event.tests
        .slice(0, 10)
        .map((t) => `    - ${t}`)
        .join('\n')}${event.tests.length > 10 ? '\n    - …' : ''}`;
    case 'red_tests_gone':
      return `  red earlier in this session and gone now (${event.tests.length}): no test of theirs is in the branch\n${event.tests
        .slice(0, 10)
        .map((t) => `    - ${t}`)
        .join('\n')}${event.tests.length > 10 ? '\n    - …' : ''}`;
    case 'person_question':
      return `    ${event.role} asked: ${event.question}\n      ${
        event.outcome === 'answered'
          ? `answer${event.answeredBy ? ` (${event.answeredBy})` : ''}: ${event.answer ?? ''}`
          : `no answer (${event.outcome === 'declined' ? 'no one can answer here' : event.outcome}): the ${event.role} decides by itself`
      }`;
    case 'commit_made':
      return `    commit ${event.sha.slice(0, 7)} ${event.message}`;
    case 'phase_finished':
      return undefined;
    case 'cycle_finished': {
      // The counts are where the session stands; a rolled-back attempt's are said to be that, not the branch's.
      const back = event.rolledBackTests;
      return back
        ? `  cycle ${event.cycle}: ${event.outcome}, rolled back (${event.tests.passed} passing; the rolled-back attempt had ${back.passed} passed, ${back.failed} failed)`
        : `  cycle ${event.cycle}: ${event.outcome}${event.commit ? ` at ${event.commit.slice(0, 7)}` : ''} (${event.tests.passed} passing)`;
    }
    case 'session_finished': {
      const s = event.summary;
      return `Session ${s.status}: ${s.totals.cycles} cycles, ${s.totals.commits} commits, ${s.totals.tests_passed} tests passing, ${s.totals.tokens} tokens${s.totals.toolCallsFromText ? `, ${s.totals.toolCallsFromText} tool calls read from the model's text` : ''} (branch ${s.branch})${s.error ? `\n  ${s.error.message}` : ''}`;
    }
    case 'error':
      return `Error ${event.error.error_code}: ${event.error.message}`;
  }
}

/** What a run found: its counts, "passed, not counted" without a summary the session reads, or why it did not run. */
function testRunOutcome(event: Extract<SupervisorEvent, { type: 'test_run_finished' }>): string {
  const t = event.tests;
  if (t.status === 'error') return `could not run${event.reason ? ` (${event.reason})` : ''}`;
  if (t.status === 'timeout') return `timed out${event.reason ? ` (${event.reason})` : ''}`;
  if (t.status === 'passed' && t.total === 0)
    return 'passed, not counted (the command succeeded without a test summary the session reads)';
  return `${t.passed} passed, ${t.failed} failed`;
}

/**
 * Which run it was and how long it took: `tests after implementer (related: 2 files, 0.4 s)`, `full suite before commit
 * (6.2 s)`, `tests after tester (full suite, 1.2 s)`; an event without a scope (older records) as before. Verbose adds
 * why a related run was asked for but the whole suite ran.
 */
function testRunLabel(event: Extract<SupervisorEvent, { type: 'test_run_finished' }>, verbose: boolean): string {
  if (!event.scope) return `tests after ${event.role}`;
  const seconds = `${(event.durationMs / 1000).toFixed(1)} s`;
  if (event.scope === 'related') {
    const n = event.files?.length ?? 0;
    return `tests after ${event.role} (related: ${n} file${n === 1 ? '' : 's'}, ${seconds})`;
  }
  const why = verbose && event.fullRunReason ? `; ${event.fullRunReason}` : '';
  if (event.role === 'implementer' || event.role === 'refactorer') return `full suite before commit (${seconds}${why})`;
  if (event.role === 'baseline') return `full suite before the first turn (${seconds}${why})`;
  return `tests after ${event.role} (full suite, ${seconds}${why})`;
}

function indentText(text: string): string {
  const clipped = text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
  return clipped.replace(/\n/g, '\n      ');
}

/** Returns a listener that writes each event's line to `out` (stderr in the CLI). */
export function progressPrinter(out: Writable, verbose = false): (event: SupervisorEvent) => void {
  return (event) => {
    const line = formatEvent(event, verbose);
    if (line !== undefined) out.write(`${line}\n`);
  };
}
