/**
 * One change stream per signed-in console (./stream.ts), started with the session: each
 * entry marks the caches it concerns as stale (./invalidate.ts) and is told to whoever
 * listens (an edit form watching its record). The header shows the stream's state.
 */
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo } from 'react';
import { apiClient } from '../../app/api.ts';
import { useAuth } from '../../auth/AuthProvider.tsx';
import { session } from '../../auth/session.ts';
import { LiveContext, LiveHub } from './hub.ts';

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
    void import('./runtime.ts').then(({ changeApplier, reloadShown, runChangeStream, STREAM_PATH }) => {
      const apply = changeApplier(qc, hub.heldRecords);
      return runChangeStream({
        url: `${apiClient.baseUrl}${STREAM_PATH}`,
        token: () => session.accessToken(),
        onEntry: (entry) => {
          apply(entry);
          hub.emit(entry);
        },
        onState: (s) => hub.setState(s),
        // Nothing to resume from: what changed meanwhile is unknown, so what is shown is read
        // again (not a record under an edit form: its version must not change under the typing).
        onReconnected: (resumed) => {
          if (!resumed) reloadShown(qc, hub.heldRecords());
        },
        onUnauthorized: refreshOnce,
        signal: stop.signal,
      });
    });
    return () => stop.abort();
  }, [qc, hub]);
  return <LiveContext.Provider value={hub}>{children}</LiveContext.Provider>;
}
