import type { OfficeScope } from './officeScope.ts';

/** Who is calling: an OAuth application (client_credentials) or a console user. */
export interface Caller {
  kind: 'application' | 'user';
  /** applications.id or users.id */
  id: string;
  /** Application name or user login: the actor of events (spec: Authentication 6). */
  name: string;
  /** Rate limit bucket: the OAuth client id (the console's users share theirs per user). */
  rateKey: string;
  /** What this request may do: the token's scopes that the caller holds now. */
  scopes: ReadonlySet<string>;
  scope: OfficeScope;
}
