import type { ChatMessage } from '../../llm/types';

/** Limits of {@link ConversationWindow}. */
export interface ConversationWindowOptions {
  /** Cycles kept verbatim (assistant message + tool results). Default 6. */
  keepRecentCycles?: number;
  /** One-line summaries kept for older cycles; older lines are dropped and counted. Default 20. */
  maxSummaryLines?: number;
  /** Length cap of one summary line. Default 200. */
  summaryLineChars?: number;
}

/** One cycle's messages and its one-line summary (used once the cycle leaves the verbatim window). */
export interface WindowCycle {
  messages: ChatMessage[];
  /** The summary, or a function that writes it: called only if the cycle leaves the verbatim window (most never do). */
  summary: string | (() => string);
}

/**
 * Keeps a multi-cycle prompt bounded: the last few cycles verbatim, older ones as one-line summaries
 * (at most `maxSummaryLines`), with a marker saying how much was truncated. Prompt size stays flat
 * however many cycles run; the full record stays in `action_history`.
 */
export class ConversationWindow {
  private readonly keep: number;
  private readonly maxLines: number;
  private readonly lineChars: number;
  private readonly recent: WindowCycle[] = [];
  private readonly summaries: string[] = [];
  private dropped = 0;
  private summarised = 0;

  constructor(options: ConversationWindowOptions = {}) {
    this.keep = Math.max(1, options.keepRecentCycles ?? 6);
    this.maxLines = Math.max(1, options.maxSummaryLines ?? 20);
    this.lineChars = Math.max(20, options.summaryLineChars ?? 200);
  }

  /** Cycles no longer shown verbatim. */
  get truncatedCycles(): number {
    return this.summarised;
  }

  /** Appends a finished cycle, moving the oldest verbatim cycle into the summary when the window is full. */
  add(cycle: WindowCycle): void {
    this.recent.push(cycle);
    if (this.recent.length <= this.keep) return;
    const old = this.recent.shift()!;
    this.summarised++;
    const summary = typeof old.summary === 'string' ? old.summary : old.summary();
    this.summaries.push(capText(summary.replace(/\s+/g, ' '), this.lineChars));
    if (this.summaries.length > this.maxLines) {
      this.summaries.shift();
      this.dropped++;
    }
  }

  /** The messages for the next model call: `head`, the truncation marker with summaries, the recent cycles. */
  build(head: readonly ChatMessage[]): ChatMessage[] {
    const out: ChatMessage[] = [...head];
    if (this.summarised > 0) {
      const lines = [
        `[Context truncated: ${this.summarised} earlier cycle(s) are summarised below; their full tool output is not repeated.]`,
      ];
      if (this.dropped > 0) lines.push(`[... ${this.dropped} older cycle summaries omitted]`);
      for (const s of this.summaries) lines.push(`- ${s}`);
      out.push({ role: 'user', content: lines.join('\n') });
    }
    for (const c of this.recent) out.push(...c.messages);
    return out;
  }
}

/** Cuts `text` to `max` characters, marking the cut and how much was removed. */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)} [... truncated ${text.length - max} chars]`;
}
