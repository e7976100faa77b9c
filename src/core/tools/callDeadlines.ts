/**
 * The deadlines of running tool calls on one shared timer. A `setTimeout` and `clearTimeout` per call cost more than
 * the rest of a quick call's bookkeeping: between two calls Node's list of timers of that duration empties, so every
 * call built the list again and re-armed the event loop's timer. Here a call adds its deadline to a map; the one
 * timer is armed for the earliest deadline and re-armed when it fires. It holds the process open only while a call
 * is running (a hung tool still times out; an idle process can exit).
 */
import { performance } from 'node:perf_hooks';

/** Something with a deadline: told once when it passed. */
export interface Expiring {
  expire(): void;
}

/** Deadlines of many items on one timer (see the file comment). */
export class Deadlines {
  private readonly due = new Map<Expiring, number>();
  private timer: NodeJS.Timeout | undefined;
  /** When the timer fires (performance.now() time); Infinity when it is not armed. */
  private armedFor = Number.POSITIVE_INFINITY;
  private held = false;

  /** How many items wait for their deadline. */
  get size(): number {
    return this.due.size;
  }

  /** `item` expires in `ms` milliseconds unless deleted first. */
  add(item: Expiring, ms: number): void {
    const at = performance.now() + ms;
    this.due.set(item, at);
    if (at < this.armedFor) this.arm(at);
    else if (!this.held) this.hold(true);
  }

  /** `item` finished before its deadline. */
  delete(item: Expiring): void {
    if (this.due.delete(item) && this.due.size === 0) this.hold(false);
  }

  private arm(at: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.armedFor = at;
    this.timer = setTimeout(fire, Math.max(1, at - performance.now()), this);
    this.held = true;
  }

  /** Keeps the process open while items wait, and not after (the timer stays armed: re-arming is the cost). */
  private hold(on: boolean): void {
    this.held = on;
    if (on) this.timer?.ref();
    else this.timer?.unref();
  }

  /** The timer fired: expires every item whose deadline passed and re-arms for the next one. */
  fired(): void {
    this.timer = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
    this.held = false;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    for (const [item, at] of this.due) {
      if (at <= now) {
        this.due.delete(item);
        item.expire();
      } else if (at < next) next = at;
    }
    if (next < Number.POSITIVE_INFINITY) this.arm(next);
  }
}

function fire(deadlines: Deadlines): void {
  deadlines.fired();
}
