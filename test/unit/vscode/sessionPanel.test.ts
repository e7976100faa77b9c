/**
 * The panel's view of where a session runs and what can be done with it afterwards: the sandbox line
 * and session id from `session_started`, the repository's recorded sessions, and the `sessionAction`
 * message (Review changes / Merge / Delete / Resume), validated like every other panel message.
 */
import assert from 'node:assert/strict';
import {
  PANEL_MESSAGE,
  PanelStateSchema,
  SESSION_ACTIONS,
  emptyPanelState,
  isSessionId,
  parseHostMessage,
  parsePanelMessage,
  parsePanelState,
  sessionActionMessage,
  stateMessage,
  type PanelState,
  type RepositorySessions,
} from '../../../src/shared/panelProtocol';
import type { SupervisorEvent } from '../../../src/core/tdd/events';
import { reducePanel } from '../../../src/vscode/panel/panelReducer';
import { restoreState } from '../../../src/vscode/panel/panelStore';
import { endedSessionState, repositorySessions } from '../../browser/fixtures/panelStates';
import { wholeSession } from './fixtures';

const fresh = (): PanelState => emptyPanelState({ instanceId: 'test', trusted: true });

function assertValid(state: PanelState): void {
  const result = PanelStateSchema.safeParse(state);
  assert.ok(result.success, result.success ? '' : JSON.stringify(result.error.issues.slice(0, 3)));
}

function started(overrides: Partial<Extract<SupervisorEvent, { type: 'session_started' }>> = {}): SupervisorEvent {
  return {
    type: 'session_started',
    kata: 'FizzBuzz',
    branch: 'tdd/fizzbuzz-20261122-074300',
    baseBranch: 'main',
    model: 'm',
    provider: 'openai',
    maxCycles: 6,
    workspace: '/ws',
    sessionId: 'fizzbuzz-20261122-074300',
    worktree: '/cache/worktrees/ws-1/fizzbuzz-20261122-074300',
    sandbox: 'bubblewrap (/usr/bin/bwrap): writes only in /cache/worktrees/ws-1/fizzbuzz-20261122-074300; no network',
    ...overrides,
  };
}

describe('panel: sessions in their own worktree (sandbox line, recorded sessions, session actions)', () => {
  describe('reducer', () => {
    it('session_started puts the session id, base branch and sandbox description into the header', () => {
      const state = reducePanel(fresh(), { type: 'supervisor', event: started(), at: 1 });
      assertValid(state);
      assert.equal(state.session?.sessionId, 'fizzbuzz-20261122-074300');
      assert.equal(state.session?.baseBranch, 'main');
      assert.match(state.session?.sandbox ?? '', /^bubblewrap \(\/usr\/bin\/bwrap\): writes only in /);
      assert.equal(state.session?.branch, 'tdd/fizzbuzz-20261122-074300');
    });

    it('the sandbox mode of the run (sessionStarting) survives session_started; a new run starts without the old id', () => {
      let state = reducePanel(fresh(), {
        type: 'sessionStarting',
        kata: 'fizzbuzz.md',
        model: 'm',
        provider: 'openai',
        maxCycles: 6,
        at: 1,
        sandboxMode: 'off',
      });
      assert.equal(state.session?.sandboxMode, 'off');
      state = reducePanel(state, {
        type: 'supervisor',
        event: started({
          sandbox: "no OS sandbox (turned off): tests and commands run unconfined, with your user's rights and network",
        }),
        at: 2,
      });
      assertValid(state);
      assert.equal(state.session?.sandboxMode, 'off');
      assert.match(state.session?.sandbox ?? '', /unconfined/);
      const next = reducePanel(state, {
        type: 'sessionStarting',
        kata: 'fizzbuzz.md',
        model: 'm',
        provider: 'openai',
        maxCycles: 6,
        at: 3,
        sandboxMode: 'auto',
      });
      assert.equal(next.session?.sessionId, undefined, 'the next run is not the old session until it says so');
      assert.equal(next.session?.sandbox, undefined);
      assert.equal(next.session?.sandboxMode, 'auto');
    });

    it('resuming the session on screen keeps its timeline; resuming another one (from the list) starts an empty one', () => {
      let state = fresh();
      for (const event of wholeSession(2)) state = reducePanel(state, { type: 'supervisor', event, at: 5 });
      const starting = {
        type: 'sessionStarting',
        kata: 'fizzbuzz.kata.md',
        model: 'm',
        provider: 'openai',
        maxCycles: 6,
        at: 6,
        resume: true,
      } as const;
      const same = reducePanel(state, { ...starting, sessionId: 'fizzbuzz-1' });
      assert.equal(same.cycles.length, 2);
      assert.equal(same.session?.sessionId, 'fizzbuzz-1');
      const other = reducePanel(state, { ...starting, sessionId: 'bowling-20261121-160000' });
      assert.deepEqual(other.cycles, [], "another session's timeline is not shown as this one's");
      assert.deepEqual(other.actions, []);
      assert.equal(other.session?.sessionId, 'bowling-20261121-160000');
      assert.deepEqual(reducePanel(state, starting).cycles, [], 'an unknown session id keeps nothing');
    });

    it('a session id the protocol would reject is left out, so the snapshot stays valid for the panel', () => {
      for (const sessionId of ['../../etc', '', '-rf', 'a/b', 'x'.repeat(300)]) {
        const state = reducePanel(fresh(), { type: 'supervisor', event: started({ sessionId }), at: 1 });
        assert.equal(state.session?.sessionId, undefined, sessionId);
        assertValid(state);
      }
    });

    it('the repository action replaces the listing; an unchanged listing is not a new snapshot; null clears it', () => {
      const listing = repositorySessions();
      let state = reducePanel(fresh(), { type: 'repository', repository: listing });
      assertValid(state);
      assert.equal(state.revision, 1);
      assert.deepEqual(state.repository, listing);
      const same = reducePanel(state, { type: 'repository', repository: structuredClone(listing) });
      assert.equal(same, state, 'the same listing read again changes nothing');
      state = reducePanel(state, {
        type: 'repository',
        repository: { ...listing, mergeBlocker: 'the checkout has uncommitted changes' },
      });
      assert.equal(state.revision, 2);
      assert.equal(state.repository?.mergeBlocker, 'the checkout has uncommitted changes');
      state = reducePanel(state, { type: 'repository', repository: null });
      assert.equal(state.repository, null);
    });

    it('a whole session keeps the listing, and a reloaded window keeps it too (the host reads it again)', () => {
      let state = reducePanel(fresh(), { type: 'repository', repository: repositorySessions() });
      for (const event of wholeSession(2)) state = reducePanel(state, { type: 'supervisor', event, at: 5 });
      assert.equal(state.repository?.sessions.length, 3);
      assert.equal(state.session?.sessionId, 'fizzbuzz-1');
      const restored = restoreState(JSON.parse(JSON.stringify(state)), 'host-2', true, 10);
      assert.deepEqual(restored.repository, state.repository);
      assert.equal(restored.session?.sessionId, 'fizzbuzz-1');
      assert.equal(restored.session?.sandbox, state.session?.sandbox);
    });

    it('a window reloaded mid-session restores it as interrupted, keeping its id for Resume', () => {
      let state = reducePanel(fresh(), { type: 'supervisor', event: started(), at: 1 });
      state = reducePanel(state, { type: 'supervisor', event: { type: 'cycle_started', cycle: 1 }, at: 2 });
      const restored = restoreState(JSON.parse(JSON.stringify(state)), 'host-2', true, 3);
      assert.equal(restored.session?.status, 'cancelled');
      assert.equal(restored.session?.interrupted, true);
      assert.equal(restored.session?.sessionId, 'fizzbuzz-20261122-074300');
      assertValid(restored);
    });
  });

  describe('protocol', () => {
    it('a state persisted before sessions were listed still parses, with no repository', () => {
      const old: Record<string, unknown> = { ...emptyPanelState({ instanceId: 'x', trusted: true }) };
      delete old.repository;
      const parsed = parsePanelState(old);
      assert.ok(parsed);
      assert.equal(parsed.repository, null);
    });

    it('accepts the ended-session snapshot (sandbox line and recorded sessions) unchanged', () => {
      const state = endedSessionState();
      const { message, reason } = parseHostMessage(stateMessage(state));
      assert.equal(reason, undefined);
      assert.deepEqual(message?.state, state);
    });

    it('drops a snapshot with an unknown recorded status, a bad session id or a negative commit count', () => {
      const listing = repositorySessions();
      const first = listing.sessions[0]!;
      const bad: RepositorySessions[] = [
        { ...listing, sessions: [{ ...first, status: 'exploded' as never }] },
        { ...listing, sessions: [{ ...first, id: '../escape' }] },
        { ...listing, sessions: [{ ...first, commits: -1 }] },
      ];
      for (const repository of bad) {
        const { message, reason } = parseHostMessage({ type: 'state', state: { ...endedSessionState(), repository } });
        assert.equal(message, undefined);
        assert.match(reason ?? '', /repository\.sessions\.0/);
      }
    });

    it('sessionActionMessage builds a message the host accepts, for every action', () => {
      for (const action of SESSION_ACTIONS) {
        const built = sessionActionMessage(action, 'fizzbuzz-20261122-074300');
        assert.deepEqual(built, { type: PANEL_MESSAGE.sessionAction, action, sessionId: 'fizzbuzz-20261122-074300' });
        assert.deepEqual(parsePanelMessage(JSON.parse(JSON.stringify(built))).message, built);
      }
    });

    it('drops session actions with an unknown action, a path-like or empty id, or extra fields', () => {
      for (const value of [
        { type: 'sessionAction', action: 'forceMerge', sessionId: 'a-1' },
        { type: 'sessionAction', action: 'delete', sessionId: '../../.ssh' },
        { type: 'sessionAction', action: 'delete', sessionId: 'a/b' },
        { type: 'sessionAction', action: 'delete', sessionId: '' },
        { type: 'sessionAction', action: 'delete', sessionId: '.hidden' },
        { type: 'sessionAction', action: 'delete' },
        { type: 'sessionAction', action: 'merge', sessionId: 'a-1', force: true },
      ]) {
        const { message, reason } = parsePanelMessage(value);
        assert.equal(message, undefined, JSON.stringify(value));
        assert.match(reason ?? '', /invalid panel→host message \(type sessionAction\)/);
      }
    });

    it('isSessionId accepts the core ids and nothing path-like', () => {
      assert.equal(isSessionId('fizzbuzz-20261122-074300'), true);
      assert.equal(isSessionId('roman-numerals-20260101-000000'), true);
      for (const bad of ['', '.', '..', '../x', 'a/b', 'a\\b', '-x', 'a b', 42, undefined])
        assert.equal(isSessionId(bad), false, String(bad));
    });
  });
});
