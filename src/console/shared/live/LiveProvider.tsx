/**
 * One change stream per signed-in console (./stream.ts), started with the session: each
 * entry marks the caches it concerns as stale (./invalidate.ts) and is told to whoever
 * listens (an edit form watching its record). The header shows the stream's state.
 */
import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useSyncExternalStore } from 'react';
import { apiClient } from '../../app/api.ts';
import { useAuth } from '../../auth/AuthProvider.tsx';
import { session } from '../../auth/session.ts';
import type { ChangeEntry } from './entry.ts';
import { applyChange } from './invalidate.ts';
import { type LiveState, runChangeStream, STREAM_PATH } from './stream.ts';

const recordId = (kind: string, code: string) => `${kind}:${code.toUpperCase()}`;

/** The stream's state, its entries' listeners and the records held by edit forms. */
export class LiveHub {
  private state: LiveState = 'connecting';
  private readonly stateListeners = new Set<() => void>();
  private readonly entryListeners = new Set<(e: ChangeEntry) => void>();
  private readonly holds = new Map<string, number>();
  /** The signed-in login: entries by it are the user's own. */
  me: string | undefined;

  getState = () => this.state;
  setState(next: LiveState) {
    if (next === this.state) return;
    this.state = next;
    for (const l of this.stateListeners) l();
  }
  subscribeState = (l: () => void) => {
    this.stateListeners.add(l);
    return () => void this.stateListeners.delete(l);
  };
  /** Listens to every entry received; returns the unsubscribe. */
  onEntry(l: (e: ChangeEntry) => void) {
    this.entryListeners.add(l);
    return () => void this.entryListeners.delete(l);
  }
  emit(e: ChangeEntry) {
    for (const l of this.entryListeners) l(e);
  }
  /** An edit form holds its record while open: not read again under it. Returns the release. */
  hold(kind: string, code: string) {
    const id = recordId(kind, code);
    this.holds.set(id, (this.holds.get(id) ?? 0) + 1);
    return () => {
      const n = (this.holds.get(id) ?? 1) - 1;
      if (n <= 0) this.holds.delete(id);
      else this.holds.set(id, n);
    };
  }
  isHeld = (kind: string, code: string) => this.holds.has(recordId(kind, code));
}

const LiveContext = createContext<LiveHub | null>(null);

/** Refreshes the token once on a 401 (a stream outlives an access token). */
async function refreshOnce() {
  if (!(await session.refresh())) session.signInAgain();
}

export function LiveProvider({ children }: { children: ReactNode }) {
  const qc = useQueryClient();
  const hub = useMemo(() => new LiveHub(), []);
  hub.me = useAuth().me?.login;
  useEffect(() => {
    const stop = new AbortController();
    void runChangeStream({
      url: `${apiClient.baseUrl}${STREAM_PATH}`,
      token: () => session.accessToken(),
      onEntry: (entry) => {
        void applyChange(qc, entry, hub.isHeld);
        hub.emit(entry);
      },
      onState: (s) => hub.setState(s),
      // Nothing to resume from: what changed meanwhile is unknown, so what is shown is read again.
      onReconnected: (resumed) => {
        if (!resumed) void qc.invalidateQueries();
      },
      onUnauthorized: refreshOnce,
      signal: stop.signal,
    });
    return () => stop.abort();
  }, [qc, hub]);
  return <LiveContext.Provider value={hub}>{children}</LiveContext.Provider>;
}

/** The hub of the signed-in console (null outside the provider: tests, standalone pages). */
export function useLiveHub(): LiveHub | null {
  return useContext(LiveContext);
}

const detached = () => () => {};
/** The stream's state, null outside the provider. */
export function useLiveState(): LiveState | null {
  const hub = useLiveHub();
  return useSyncExternalStore(hub?.subscribeState ?? detached, hub?.getState ?? (() => null));
}
