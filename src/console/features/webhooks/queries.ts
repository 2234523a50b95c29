/**
 * TanStack Query hooks of the Webhooks pages and the keys a write invalidates. All HTTP goes
 * through `useWebhooksApi()` (./transport.ts over the console's client).
 */
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useMemo } from 'react';
import { statusOf } from '../../../client/index.ts';
import { useApi } from '../../app/api.ts';
import { nextPageToken } from '../../app/pages.ts';
import { invalidateShellFigures } from '../../app/queryClient.ts';
import type { LogStatus } from './search.ts';
import { type SubscriptionBody, type WebhooksApi, webhooksApi } from './transport.ts';

export function useWebhooksApi(): WebhooksApi {
  const client = useApi();
  return useMemo(() => webhooksApi(client), [client]);
}

export const webhooksKeys = {
  all: ['webhooks'] as const,
  subscriptions: ['webhooks', 'subscriptions'] as const,
  log: (id: string) => ['webhooks', 'log', id] as const,
  deliveries: (id: string, status: LogStatus | undefined) =>
    ['webhooks', 'log', id, 'list', status ?? 'all'] as const,
  delivery: (id: string, deliveryId: string) => ['webhooks', 'log', id, 'delivery', deliveryId] as const,
};

export function useSubscriptions() {
  const api = useWebhooksApi();
  return useQuery({
    queryKey: webhooksKeys.subscriptions,
    queryFn: ({ signal }) => api.subscriptions(signal),
  });
}

function useInvalidateSubscriptions() {
  const qc = useQueryClient();
  return () =>
    Promise.all([qc.invalidateQueries({ queryKey: webhooksKeys.subscriptions }), invalidateShellFigures(qc)]);
}

export function useCreateSubscription() {
  const api = useWebhooksApi();
  const invalidate = useInvalidateSubscriptions();
  return useMutation({
    mutationFn: (body: SubscriptionBody) => api.create(body),
    onSuccess: () => invalidate(),
  });
}

export function useDeleteSubscription() {
  const api = useWebhooksApi();
  const qc = useQueryClient();
  const invalidate = useInvalidateSubscriptions();
  return useMutation({
    mutationFn: (id: string) => api.remove(id),
    onSettled: (_r, _e, id) => {
      qc.removeQueries({ queryKey: webhooksKeys.log(id) });
      return invalidate();
    },
  });
}

/** How often the log is read again: quickly while callbacks are on their way, else now and then. */
export const LOG_REFRESH_MS = { pending: 2_000, idle: 15_000 } as const;

/** The delivery log of a subscription (keyset pages of 50), read again while it is shown. */
export function useDeliveries(subscriptionId: string, status: LogStatus | undefined, enabled = true) {
  const api = useWebhooksApi();
  return useInfiniteQuery({
    queryKey: webhooksKeys.deliveries(subscriptionId, status),
    queryFn: ({ pageParam, signal }) =>
      api.deliveries(subscriptionId, { status, continuationToken: pageParam }, signal),
    initialPageParam: undefined,
    getNextPageParam: nextPageToken,
    placeholderData: keepPreviousData,
    enabled,
    retry: (n, e) => statusOf(e) !== 404 && n < 2,
    refetchInterval: (query) =>
      query.state.data?.pages.some((p) => p.data.some((d) => d.status === 'pending'))
        ? LOG_REFRESH_MS.pending
        : LOG_REFRESH_MS.idle,
  });
}

export function useDelivery(subscriptionId: string, deliveryId: string | undefined) {
  const api = useWebhooksApi();
  return useQuery({
    queryKey: webhooksKeys.delivery(subscriptionId, deliveryId ?? ''),
    queryFn: ({ signal }) => api.delivery(subscriptionId, deliveryId ?? '', signal),
    enabled: !!deliveryId,
    retry: (n, e) => statusOf(e) !== 404 && n < 2,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? LOG_REFRESH_MS.pending : false),
  });
}

export function useReplay(subscriptionId: string) {
  const api = useWebhooksApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => api.replay(subscriptionId, deliveryId),
    onSuccess: () => qc.invalidateQueries({ queryKey: webhooksKeys.log(subscriptionId) }),
  });
}

export function useSendTest(subscriptionId: string) {
  const api = useWebhooksApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.sendTest(subscriptionId),
    onSuccess: () => qc.invalidateQueries({ queryKey: webhooksKeys.log(subscriptionId) }),
  });
}
