/**
 * TanStack Query defaults: retry only what a retry can fix (no answer, 5xx), and show
 * unexpected failures on one global surface with their errorReference (errors.tsx).
 * Expected refusals (4xx) are left to the page that made the call.
 */
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, isRetryable } from '../../client/index.ts';
import { reportUnexpected } from './errorSurface.tsx';

/** What the page cannot be expected to handle itself. */
export function isUnexpected(error: unknown): boolean {
  if (error instanceof ApiError) return error.status >= 500;
  return (error as Error)?.name !== 'AbortError';
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    // Only once the retries are spent, and not for background refetches of shown data.
    onError: (error, query) => {
      if (isUnexpected(error) && query.state.data === undefined) reportUnexpected(error);
    },
  }),
  mutationCache: new MutationCache({
    onError: (error) => {
      if (isUnexpected(error)) reportUnexpected(error);
    },
  }),
  defaultOptions: {
    queries: {
      retry: (failures, error) => failures < 2 && isRetryable(error),
      retryDelay: (n) => Math.min(1000 * 2 ** n, 8000),
      staleTime: 15_000,
      refetchOnWindowFocus: false,
    },
    mutations: { retry: false },
  },
});

/**
 * What the shell reads of every feature's records (Home's counts, the palette's hits): a
 * write that adds or removes records marks them stale too.
 */
export function invalidateShellFigures(qc: QueryClient, refetchType: 'active' | 'none' = 'active') {
  return Promise.all([
    qc.invalidateQueries({ queryKey: ['home'], refetchType }),
    qc.invalidateQueries({ queryKey: ['palette'], refetchType }),
  ]);
}
