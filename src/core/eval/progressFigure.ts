import type { EvalProgress } from './runEval';

/** `~40 s`, `~3 min`, `~2 h 5 min`: an estimate, rounded as one. */
export function timeLeft(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `~${s} s`;
  const min = Math.round(s / 60);
  return min < 60 ? `~${min} min` : `~${Math.floor(min / 60)} h ${min % 60} min`;
}

/**
 * The progress figure after a run, beside the runs done of the total (`[3/8]` in the terminal, `3 of 8 runs` in VS
 * Code's notification): the runs passing so far and, while runs are left, the time left: `2 passing so far, ~4 min left`.
 */
export function progressFigure(event: Extract<EvalProgress, { type: 'run_finished' }>): string {
  return `${event.passing} passing so far${event.done < event.total ? `, ${timeLeft(event.eta_ms)} left` : ''}`;
}
