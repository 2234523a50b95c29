/** The signed-in user for the shell: who (GET /me), and how to sign out. */
import { useQuery } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useMemo } from 'react';
import type { Me } from '../../contract/console.ts';
import { useApi } from '../app/api.ts';
import { ME_PATH } from '../app/apiPaths.ts';
import { signOutEverywhere } from './oauth.ts';
import { session } from './session.ts';

interface Auth {
  me: Me | undefined;
  /** `me` could not be read (an instance without the console's extensions): rights unknown. */
  meUnavailable: boolean;
  /** Revokes the tokens and ends the provider session (leaves the page). Ask first if needed. */
  signOut(): Promise<never>;
}

const AuthContext = createContext<Auth | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const api = useApi();
  const me = useQuery({
    queryKey: ['console', 'me'],
    queryFn: ({ signal }) => api.raw<Me>('GET', ME_PATH, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const signOut = useCallback(() => signOutEverywhere(session.endForSignOut()), []);
  const meUnavailable = me.isError;
  const value = useMemo(() => ({ me: me.data, meUnavailable, signOut }), [me.data, meUnavailable, signOut]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth outside AuthProvider');
  return auth;
}
