/**
 * Owns the panel's {@link PanelState} on the host: applies actions with the pure reducer, tells
 * listeners about changes at most once per throttle window (the first change at once, the latest
 * one at the end of the window), and persists the state so a reloaded window restores it.
 * No `vscode` import: the provider subscribes, the activation code passes `persist`.
 */
import { emptyPanelState, parsePanelState, type PanelState } from '../../shared/panelProtocol';
import { RELOADED_WHILE_RUNNING, reducePanel, type PanelAction } from './panelReducer';

/** Default minimum time between two change notifications. */
export const DEFAULT_THROTTLE_MS = 100;
/** How long an error waits for the panel being revealed before it tells a notification instead. */
export const REVEAL_TIMEOUT_MS = 3000;

/** Options of a {@link PanelStore}. */
export interface PanelStoreOptions {
  /** Identifies this host instance in every snapshot (a fresh one per activation). */
  instanceId: string;
  trusted: boolean;
  /** A previously persisted state (unknown: it is validated and dropped when invalid). */
  persisted?: unknown;
  /** Minimum time between notifications (default 100 ms; 0 notifies synchronously). */
  throttleMs?: number;
  /** Saves the state (workspaceState); called with the same throttle as listeners, and on flush. */
  persist?: (state: PanelState) => void | PromiseLike<void>;
  /** Clock (tests). */
  now?: () => number;
}

/** The state a reloaded host starts from: the persisted one, with nothing left "running". */
export function restoreState(persisted: unknown, instanceId: string, trusted: boolean, now: number): PanelState {
  const saved = parsePanelState(persisted);
  if (!saved) return emptyPanelState({ instanceId, trusted });
  // The first-run card and the last action's notice are this window's: read again, not restored. Questions asked in
  // the window that is gone are not being answered any more either (nor are its roles waiting for a person's answer).
  const { questions: _gone, personQuestions: _unanswered, ...rest } = saved;
  let state: PanelState = { ...rest, instanceId, revision: 0, trusted, approvals: [], setup: [], notice: null };
  if (state.session?.status === 'running') {
    // The session ran in a window that is gone: it stopped there, interrupted (no problem to report: it can be resumed).
    state = reducePanel(state, { type: 'sessionAborted', status: 'cancelled', at: now });
    state = { ...state, revision: 0, session: state.session && { ...state.session, interrupted: true } };
  }
  // A window saved by an older version told the reload as an error card: it is the same interruption.
  if (state.session?.status === 'cancelled' && state.errors.some((e) => e.message === RELOADED_WHILE_RUNNING))
    state = {
      ...state,
      session: { ...state.session, interrupted: true },
      errors: state.errors.filter((e) => e.message !== RELOADED_WHILE_RUNNING),
    };
  return state;
}

/** The host-side holder of the panel state. */
export class PanelStore {
  private visible = false;
  private readonly visibleWaiters = new Set<() => void>();
  /** Settles once a reveal asked for by {@link revealing} showed the panel, or gave up waiting. */
  private reveal: Promise<void> | undefined;
  private current: PanelState;
  private readonly listeners = new Set<(state: PanelState) => void>();
  private readonly throttleMs: number;
  private readonly persistFn: PanelStoreOptions['persist'];
  private readonly now: () => number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private dirty = false;
  private lastNotified = Number.NEGATIVE_INFINITY;

  constructor(options: PanelStoreOptions) {
    this.now = options.now ?? Date.now;
    this.throttleMs = Math.max(0, options.throttleMs ?? DEFAULT_THROTTLE_MS);
    this.persistFn = options.persist;
    this.current = restoreState(options.persisted, options.instanceId, options.trusted, this.now());
  }

  /**
   * True while the panel is visible (the view provider keeps it): an error or an outcome is then told in the panel
   * alone, and as a notification too only while the panel is hidden.
   */
  get panelVisible(): boolean {
    return this.visible;
  }

  set panelVisible(visible: boolean) {
    this.visible = visible;
    if (!visible) return;
    for (const wake of [...this.visibleWaiters]) wake();
  }

  /**
   * Notes that the panel is being revealed (`request`: the focus command). VS Code resolves the view a moment
   * later, so until it shows (or `timeoutMs` passed) {@link isPanelShown} waits instead of answering "hidden".
   */
  revealing(request: PromiseLike<unknown>, timeoutMs = REVEAL_TIMEOUT_MS): void {
    const shown = new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.visibleWaiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      (timer as { unref?: () => void }).unref?.();
      this.visibleWaiters.add(done);
      if (this.visible) done();
    });
    // A failed focus command shows nothing: stop waiting at once.
    Promise.resolve(request).then(undefined, () => this.visibleWaiters.forEach((wake) => wake()));
    this.reveal = shown;
  }

  /**
   * Whether the panel shows now, after waiting for a reveal in progress: an error raised while the panel is
   * opening is told in the panel alone, not in a notification too.
   */
  async isPanelShown(): Promise<boolean> {
    if (!this.visible && this.reveal) await this.reveal;
    return this.visible;
  }

  /** The current state (the latest, even when a notification is still pending). */
  get state(): PanelState {
    return this.current;
  }

  /** Applies one action; listeners hear about it within the throttle window. */
  dispatch(action: PanelAction): PanelState {
    const next = reducePanel(this.current, action);
    if (next === this.current) return next;
    this.current = next;
    this.schedule();
    return next;
  }

  /** Subscribes to (throttled) changes; returns an unsubscribe function. */
  onDidChange(listener: (state: PanelState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Notifies and persists a pending change now. */
  flush(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.dirty) return;
    this.dirty = false;
    this.lastNotified = this.now();
    const state = this.current;
    for (const listener of [...this.listeners]) {
      try {
        listener(state);
      } catch {
        /* a failing listener must not stop the others */
      }
    }
    if (this.persistFn) {
      try {
        void Promise.resolve(this.persistFn(state)).catch(() => undefined);
      } catch {
        /* persistence is best effort */
      }
    }
  }

  /** Flushes and drops every listener. */
  dispose(): void {
    this.flush();
    this.listeners.clear();
  }

  private schedule(): void {
    this.dirty = true;
    if (this.timer !== undefined) return;
    const wait = this.throttleMs - (this.now() - this.lastNotified);
    if (this.throttleMs === 0 || wait <= 0) {
      this.flush();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
    (this.timer as { unref?: () => void }).unref?.();
  }
}
