/**
 * THE loading / error / empty chain of a page or a part of one, written once: placeholder
 * rows while the query is pending, the ErrorState (messages, errorReference, retry) when it
 * failed, `empty` when its data holds nothing, else `children(data)`. A 404 is `notFound`
 * ("no such record"); another failure the page explains itself is `explain(error)`.
 */
import type { ReactNode } from 'react';
import { ApiError } from '../../../client/index.ts';
import { ErrorState } from './ErrorState.tsx';
import { LoadingState } from './LoadingState.tsx';

/** What QueryView reads of a TanStack Query result. */
export interface QueryLike<T> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: T | undefined;
  refetch: () => unknown;
}

export function QueryView<T>({
  query,
  loading,
  loadingLabel,
  loadingRows,
  explain,
  notFound,
  isEmpty,
  empty,
  children,
}: {
  query: QueryLike<T>;
  /** Instead of the default placeholder (LoadingState rows, announced with `loadingLabel`). */
  loading?: ReactNode;
  loadingLabel?: string;
  loadingRows?: number;
  /** What a 404 means here ("no such record"), in place of the error. */
  notFound?: ReactNode;
  /** Another failure the page says in its own words (undefined: the ErrorState). */
  explain?: (error: unknown) => ReactNode | undefined;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return loading ?? <LoadingState rows={loadingRows} label={loadingLabel} />;
  if (query.isError || query.data === undefined) {
    if (notFound !== undefined && query.error instanceof ApiError && query.error.status === 404)
      return notFound;
    return explain?.(query.error) ?? <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  }
  if (empty !== undefined && isEmpty?.(query.data)) return <>{empty}</>;
  return <>{children(query.data)}</>;
}
