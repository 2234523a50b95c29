/**
 * The console's access to the service. Features call `useApi()` and get the typed client
 * (src/client) bound to the signed-in session:
 *
 *   const api = useApi();
 *   useQuery({ queryKey: ['customer', code], queryFn: ({ signal }) =>
 *     api.call(getCustomer, { params: { customerCode: code }, signal }) });
 *   for await (const page of api.pages(listCustomers, { query: { q } })) ...
 *   await api.request(putCustomer, { params, body })   // .status tells 201 from 204
 *   await api.raw<T>('GET', path, { query })            // extensions outside the contract
 *
 * Every request carries the current access token (refreshed silently before expiry). A
 * 401 refreshes once and refetches the queries; if that fails the user goes through
 * sign-in and comes back to the same page. Errors are `ApiError` (status, errors[],
 * errorReference) or `NetworkError`; queries retry only those two when retryable.
 */
import { createContext, useContext } from 'react';
import { type Client, createClient } from '../../client/index.ts';
import { session } from '../auth/session.ts';
import { queryClient } from './queryClient.ts';

let lastRefreshAt = 0;

/** A 401: refresh once (the token may have just expired), else sign in again. */
async function onUnauthorized() {
  if (Date.now() - lastRefreshAt < 10_000) return void session.signInAgain();
  lastRefreshAt = Date.now();
  const next = await session.refresh();
  if (!next) return void session.signInAgain();
  await queryClient.invalidateQueries();
}

/** Same-origin by default; `VITE_FIELDWORK_API` points a dev build elsewhere. */
export const apiClient: Client = createClient({
  baseUrl: (import.meta.env.VITE_FIELDWORK_API as string | undefined) ?? '',
  getToken: () => session.accessToken(),
  onUnauthorized: () => void onUnauthorized(),
});

export const ApiContext = createContext<Client>(apiClient);

/** The typed client of the signed-in session. */
export function useApi(): Client {
  return useContext(ApiContext);
}
