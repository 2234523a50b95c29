/**
 * What the live console shares between its parts (no dependency: a form's notice and the
 * header read it without loading the provider's code): the stream's state, its entries'
 * listeners and the records held by edit forms.
 */
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { ChangeEntry } from './entry.ts';
import type { LiveState } from './stream.ts';

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
  /** The held records, as [kind, code]. */
  heldRecords = () =>
    [...this.holds.keys()].map((id) => {
      const at = id.indexOf(':');
      return [id.slice(0, at), id.slice(at + 1)] as const;
    });
}

export const LiveContext = createContext<LiveHub | null>(null);

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
