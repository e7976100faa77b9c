import assert from 'node:assert/strict';
import { emptyPanelState, type PanelState } from '../../../src/shared/panelProtocol';
import { PanelStore, restoreState } from '../../../src/vscode/panel/panelStore';
import { RELOADED_WHILE_RUNNING, reducePanel } from '../../../src/vscode/panel/panelReducer';
import { wholeSession, writeRequest } from './fixtures';

describe('panel store: throttled snapshots and persistence', () => {
  it('with throttle 0 every change is delivered and persisted at once', () => {
    const seen: number[] = [];
    const saved: PanelState[] = [];
    const store = new PanelStore({ instanceId: 'i', trusted: true, throttleMs: 0, persist: (s) => void saved.push(s) });
    store.onDidChange((s) => seen.push(s.revision));
    store.dispatch({ type: 'trust', trusted: false });
    store.dispatch({ type: 'trust', trusted: true });
    assert.deepEqual(seen, [1, 2]);
    assert.deepEqual(
      saved.map((s) => s.revision),
      [1, 2],
    );
  });

  it('a burst of changes inside the window is delivered as the first one plus the latest one', async () => {
    const seen: number[] = [];
    const store = new PanelStore({ instanceId: 'i', trusted: true, throttleMs: 40 });
    store.onDidChange((s) => seen.push(s.revision));
    for (const event of wholeSession(2)) store.dispatch({ type: 'supervisor', event, at: 1 });
    const last = store.state.revision;
    assert.equal(seen.length, 1, 'only the leading change so far');
    await new Promise((r) => setTimeout(r, 120));
    assert.deepEqual(seen, [1, last], 'the trailing notification carries the latest state');
  });

  it('flush delivers a pending change now; a no-op dispatch notifies nobody', () => {
    const seen: number[] = [];
    const store = new PanelStore({ instanceId: 'i', trusted: true, throttleMs: 10_000 });
    store.onDidChange((s) => seen.push(s.revision));
    store.dispatch({ type: 'trust', trusted: false });
    store.dispatch({ type: 'trust', trusted: true });
    store.flush();
    assert.deepEqual(seen, [1, 2]);
    store.dispatch({ type: 'trust', trusted: true });
    store.flush();
    assert.deepEqual(seen, [1, 2]);
    store.dispose();
  });

  it('a throwing listener or a failing persist does not stop the others', async () => {
    const seen: number[] = [];
    const store = new PanelStore({
      instanceId: 'i',
      trusted: true,
      throttleMs: 0,
      persist: () => Promise.reject(new Error('disk full')),
    });
    store.onDidChange(() => {
      throw new Error('listener bug');
    });
    store.onDidChange((s) => seen.push(s.revision));
    store.dispatch({ type: 'trust', trusted: false });
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(seen, [1]);
  });

  it('restores a persisted finished session under the new instance id, revision 0, current trust', () => {
    const finished = wholeSession(2).reduce(
      (s, event) => reducePanel(s, { type: 'supervisor', event, at: 1 }),
      emptyPanelState({ instanceId: 'old', trusted: true }),
    );
    const store = new PanelStore({ instanceId: 'new', trusted: false, persisted: JSON.parse(JSON.stringify(finished)) });
    assert.equal(store.state.instanceId, 'new');
    assert.equal(store.state.revision, 0);
    assert.equal(store.state.trusted, false);
    assert.equal(store.state.session?.status, 'completed');
    assert.equal(store.state.cycles.length, 2);
  });

  it('a session persisted while running is restored as interrupted (issue 36: no problem card) and no stale approval cards', () => {
    let running = emptyPanelState({ instanceId: 'old', trusted: true });
    for (const event of wholeSession(1).slice(0, 5)) running = reducePanel(running, { type: 'supervisor', event, at: 1 });
    running = reducePanel(running, { type: 'approvalRequested', request: writeRequest('stale') });
    const restored = restoreState(running, 'new', true, 500);
    assert.equal(restored.session?.status, 'cancelled');
    assert.equal(restored.session?.finishedAt, 500);
    assert.deepEqual(restored.approvals, []);
    assert.equal(restored.cycles[0]?.outcome, 'cancelled');
    assert.equal(restored.session?.interrupted, true);
    assert.deepEqual(restored.errors, [], 'a reload is no problem: no CANCELLED error card');
    assert.equal(restored.revision, 0);
  });

  it('a window saved by an older version with the reload as an error card restores it as interrupted, without the card', () => {
    let stopped = emptyPanelState({ instanceId: 'old', trusted: true });
    for (const event of wholeSession(1).slice(0, 5)) stopped = reducePanel(stopped, { type: 'supervisor', event, at: 1 });
    stopped = reducePanel(stopped, { type: 'sessionAborted', status: 'cancelled', at: 2 });
    stopped = reducePanel(stopped, { type: 'error', error: { error_code: 'CANCELLED', message: RELOADED_WHILE_RUNNING }, at: 2 });
    const restored = restoreState(stopped, 'new', true, 500);
    assert.equal(restored.session?.interrupted, true);
    assert.deepEqual(restored.errors, []);
  });

  it("a session restored as stopped by the reload takes its record's end when the record says it finished", () => {
    let running = emptyPanelState({ instanceId: 'old', trusted: true });
    // The window saved its state mid-session, then the session completed (its record says so) before the reload.
    for (const event of wholeSession(2).slice(0, -3)) running = reducePanel(running, { type: 'supervisor', event, at: 1 });
    const restored = restoreState(running, 'new', true, 500);
    const id = restored.session?.sessionId;
    assert.ok(id, 'the restored session has its id');
    const record = (status: 'completed' | 'cancelled' | 'interrupted') => ({
      branch: 'main',
      sessions: [
        {
          id,
          kata: 'FizzBuzz',
          status,
          branch: 'tdd/x',
          baseBranch: 'main',
          cycles: 2,
          commits: 2,
          merged: false,
          resumable: false,
        },
      ],
    });
    const reconciled = reducePanel(restored, { type: 'repository', repository: record('completed') });
    assert.equal(reconciled.session?.status, 'completed', 'the record wins');
    assert.equal(reconciled.session?.interrupted, undefined, 'no longer interrupted');
    // A record that also says stopped (or interrupted) leaves the reload's account as it is.
    for (const status of ['cancelled', 'interrupted'] as const) {
      const kept = reducePanel(restored, { type: 'repository', repository: record(status) });
      assert.equal(kept.session?.status, 'cancelled', status);
      assert.equal(kept.session?.interrupted, true, status);
    }
  });

  it('while the panel is being revealed, isPanelShown waits for the view instead of answering "hidden"', async () => {
    const store = new PanelStore({ instanceId: 'i', trusted: true, throttleMs: 0 });
    assert.equal(await store.isPanelShown(), false, 'hidden, nothing being revealed: at once');
    let focused!: () => void;
    store.revealing(new Promise<void>((r) => (focused = r)), 5_000);
    const answer = store.isPanelShown();
    focused();
    setTimeout(() => (store.panelVisible = true), 20); // VS Code resolves the view after the command returned
    assert.equal(await answer, true);
    // A reveal that never shows the panel (a failed focus command) answers "hidden" without waiting out the timeout.
    store.panelVisible = false;
    store.revealing(Promise.reject(new Error('no such view')), 60_000);
    assert.equal(await store.isPanelShown(), false);
  });

  it('an invalid persisted value is dropped: the store starts empty', () => {
    for (const persisted of [
      undefined,
      null,
      42,
      'x',
      { instanceId: 'i' },
      { ...emptyPanelState({ instanceId: 'i', trusted: true }), revision: -1 },
    ]) {
      const store = new PanelStore({ instanceId: 'n', trusted: true, persisted });
      assert.deepEqual(store.state, emptyPanelState({ instanceId: 'n', trusted: true }));
    }
  });
});

describe('panel store: streamed role text (issue 11)', () => {
  it('a stream of role text deltas reaches the panel as the first snapshot plus one with the whole text so far', () => {
    const seen: string[] = [];
    const store = new PanelStore({ instanceId: 'i', trusted: true, throttleMs: 10_000 });
    store.onDidChange((s) => seen.push(s.actions.find((a) => a.kind === 'message')?.text ?? ''));
    const words = Array.from({ length: 200 }, (_, i) => `word${i} `);
    for (const delta of words)
      store.dispatch({
        type: 'supervisor',
        event: { type: 'role_text', cycle: 1, role: 'tester', attempt: 1, message: 1, delta },
        at: 1,
      });
    assert.equal(seen.length, 1, '200 deltas, one snapshot inside the window');
    store.flush();
    assert.deepEqual(seen, ['word0 ', words.join('')]);
  });
});
