/**
 * A new role: a Reviewer phase after red, green and refactor. When the Refactorer committed a refactoring, the
 * Reviewer (the agent config/agents/reviewer/v1.json: list_files and read_file only) reads that commit's diff and
 * comments on it; it never changes a file (its file rule refuses every write, and the supervisor undoes any change
 * from the diff). The phase is one PhaseSpec appended to TDD_PHASES; nothing else of the loop changes.
 *
 *   OPENAI_API_KEY=sk-... npx tsx examples/reviewer-phase.ts        (MAX_CYCLES=4 by default)
 */
import { TDD_PHASES, type PhaseSpec } from 'tdd-agent/tdd';
import { runFizzBuzz, runMain } from './support/fizzbuzzSession';

/** The Reviewer's phase: after a refactor commit, comments on its diff (passed to `onReview`); changes nothing. */
export function reviewPhase(onReview: (cycle: number, comments: string) => void): PhaseSpec {
  return {
    name: 'review',
    role: 'reviewer', // config/agents/reviewer/v1.json
    maxAttempts: 2,
    exhausted: 'skipped',
    // Which files it may change: none. A write is refused before it happens; a change the diff shows is undone.
    files: (changes) =>
      changes.map((c) => ({ path: c.path, message: `The Reviewer never changes files, but ${c.path} was ${c.change}.` })),
    // Only when this cycle's Refactorer committed something.
    when: (cycle) => cycle.refactorCommit !== undefined,
    // Its context gets the Refactorer's diff as one more section.
    async context(cycle, host) {
      const diff = (await host.commitDiff(cycle.refactorCommit!)) || '(no diff)';
      return `# The Refactorer's diff\n\`\`\`diff\n${diff.trim()}\n\`\`\``;
    },
    // Nothing to run: its report is its review.
    judge({ report }, cycle) {
      onReview(cycle.n, report.trim() || 'LGTM');
      return Promise.resolve({ kind: 'accept', outcome: 'no_change' });
    },
  };
}

runMain(() =>
  runFizzBuzz({
    maxCycles: 4,
    phases: [...TDD_PHASES, reviewPhase((cycle, comments) => console.log(`review of cycle ${cycle}: ${comments}`))],
    onEvent: (event) => {
      if (event.type === 'commit_made') console.log(`  commit ${event.message}`);
      if (event.type === 'cycle_finished') console.log(`cycle ${event.cycle}: ${event.outcome}`);
    },
  }),
);
